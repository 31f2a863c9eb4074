/** Kysely table types of hours of service (migration 0009_hos). Instants are ISO-8601 UTC text. */
import type { Generated } from 'kysely';

/**
 * ELD-style records of a driver (docs/reference/domain-rules.md §2.1). `kind` names the record; duty-status records chain
 * by `ended_at` (the next active duty record's instant, or OPEN_END) so that a window query finds the
 * record in effect at its start. PC is stored as off_duty + special, YM as on_duty + special.
 */
export interface HosEventsTable {
  id: Generated<number>;
  company_id: number;
  driver_id: number;
  vehicle_id: number | null;
  /** The ELD (devices.id) that recorded it, or null for the mobile app and the API. */
  eld_device_id: number | null;
  /** ELD event sequence id, 0–65535. */
  sequence_id: number;
  /** duty_status | intermediate_log | certification | login | logout | engine_power_up | engine_shut_down | malfunction | diagnostic | remark | exception */
  kind: string;
  /** ELD event type and code (App. A data dictionary). */
  event_type: number;
  event_code: number;
  /** off_duty | sleeper | driving | on_duty | waiting (duty_status only). */
  status: string | null;
  /** personal_conveyance | yard_move | null. */
  special: string | null;
  /** certification: the certified date; exception: adverse_driving | sixteen_hour; malfunction/diagnostic: its code. */
  code: string | null;
  /** 1 active, 2 inactive-changed, 3 inactive-change requested, 4 inactive-change rejected. */
  record_status: number;
  /** 1 automatic, 2 driver, 3 edited or entered by another user, 4 assumed from unidentified driving. */
  record_origin: number;
  occurred_at: string;
  ended_at: string | null;
  lat: number | null;
  lon: number | null;
  location: string | null;
  odometer_km: number | null;
  engine_hours: number | null;
  notes: string | null;
  /** The edit that created this record, and the edit that made it inactive. */
  edit_id: number | null;
  superseded_by_edit_id: number | null;
  created_at: string;
}

export interface HosEditsTable {
  id: Generated<number>;
  company_id: number;
  driver_id: number;
  start_at: string;
  end_at: string;
  status: string;
  special: string | null;
  /** 2 the driver, 3 another user (a carrier edit, which the driver must accept). */
  record_origin: number;
  requested_by: number | null;
  annotation: string;
  /** applied | requested | rejected */
  state: string;
  created_at: string;
  decided_at: string | null;
}

export interface HosViolationsTable {
  id: Generated<number>;
  company_id: number;
  driver_id: number;
  type: string;
  name: string;
  start_at: string;
  end_at: string | null;
  /** Set when a later record made the violation disappear (a completed split pair, an edit). */
  withdrawn_at: string | null;
  created_at: string;
  updated_at: string;
}

/** One row per driver: when the driver was last evaluated and when the result can next change. */
export interface HosDriverStatesTable {
  company_id: number;
  driver_id: number;
  evaluated_at: string;
  next_check_at: string | null;
}

/** One row per driver and log day: the log's id and what the driver writes on it. */
export interface HosLogsTable {
  id: Generated<number>;
  company_id: number;
  driver_id: number;
  log_date: string;
  shipping_docs: string | null;
  notes: string | null;
  origin: string | null;
  destination: string | null;
  trailer_numbers: string | null;
  co_driver_full_names: Generated<string>;
  created_at: string;
  updated_at: string;
}

export interface HosTables {
  hos_events: HosEventsTable;
  hos_edits: HosEditsTable;
  hos_violations: HosViolationsTable;
  hos_driver_states: HosDriverStatesTable;
  hos_logs: HosLogsTable;
}
