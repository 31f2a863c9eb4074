/** Kysely table types of the alerts area (migration 0027_alerts). Values follow storage/values.ts. */
import type { Generated } from 'kysely';

/** One alert of a company, made from one domain event (docs/alerts.md). */
export interface AlertsTable {
  id: Generated<number>;
  company_id: number;
  /** The domain_events row it was made from: one alert per event. */
  event_id: number;
  kind: string;
  /** The event's subject (`hos_violation:12`): a withdrawn violation finds its alert by it. */
  subject: string;
  vehicle_id: number | null;
  driver_id: number | null;
  /** When it happened (the event's own time: a violation's start, a geofence crossing …). */
  occurred_at: string;
  facts: string; // JSON: AlertFacts (kinds.ts)
  created_at: string;
}

/** Who received an alert in the console, and when they read it. */
export interface AlertRecipientsTable {
  user_id: number;
  alert_id: number;
  company_id: number;
  read_at: string | null;
}

/** A user's choice for one kind; no row: the defaults (console on, email off). */
export interface AlertPreferencesTable {
  user_id: number;
  kind: string;
  company_id: number;
  console: number;
  email: number;
  updated_at: string;
}

/** `pending` (due at next_attempt_at), `sending` (claimed until lease_until), `sent` or `failed`. */
export type AlertEmailState = 'pending' | 'sending' | 'sent' | 'failed';

/** One alert email to one user, with its attempts so far. */
export interface AlertEmailsTable {
  id: Generated<number>;
  company_id: number;
  alert_id: number;
  user_id: number;
  to_address: string;
  subject: string;
  body: string;
  state: AlertEmailState;
  attempts: Generated<number>;
  next_attempt_at: string | null;
  lease_until: string | null;
  claim_token: string | null;
  last_error: string | null;
  sent_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface AlertWorkerStateTable {
  name: string;
  updated_at: string;
}

export interface AlertTables {
  alerts: AlertsTable;
  alert_recipients: AlertRecipientsTable;
  alert_preferences: AlertPreferencesTable;
  alert_emails: AlertEmailsTable;
  alert_worker_state: AlertWorkerStateTable;
}
