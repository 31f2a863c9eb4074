/** The inspection_report object (docs/reference/wire.md §4.12), defects nested as `defects[].defect`. */
import { Type } from 'typebox';
import { fromJson, wireTime } from '../storage/values.js';
import { DateTime, NDateTime, NInt, NNum, NStr } from './types.js';
import { UserSummary, VehicleSummary } from './summaries.js';
import { ExternalId } from './asset.js';
import type { Embeds } from './embeds.js';
import type { reportDefects, reportExternalIds, ReportRow } from '../domain/inspections/service.js';
import { Nullable } from '../core/schema.js';

export const Defect = Type.Object({
  id: Type.Integer(),
  area: Type.String({ description: 'e.g. tractor, trailer' }),
  category: Type.String({ description: 'e.g. Mirrors, Brakes' }),
  notes: NStr(),
});

export const InspectionReport = Type.Object({
  id: Type.Integer(),
  date: Type.String({ description: "The inspection's day in the company's time zone (YYYY-MM-DD)" }),
  time: DateTime(),
  odometer: NNum(),
  carrier_name: NStr(),
  vehicle_number: NStr(),
  trailer_nums: Type.Array(Type.String()),
  location: NStr(),
  city: NStr(),
  state: NStr(),
  status: Type.String({ enum: ['satisfactory', 'unknown', 'harmless', 'corrected'] }),
  inspection_type: NStr(),
  mechanic_signed_at: NDateTime(),
  mechanic_signature_url: NStr(),
  driver_signed_at: NDateTime(),
  driver_signature_url: NStr(),
  defects: Type.Array(Type.Object({ defect: Defect })),
  vehicle: Nullable(VehicleSummary),
  mechanic: Nullable(UserSummary),
  driver: Nullable(UserSummary),
  log_id: NInt(),
  external_ids: Type.Array(ExternalId),
});

/** What a page of reports embeds: defects and external ids by report, users and vehicles (./pages.ts). */
export interface ReportPage {
  defects: Awaited<ReturnType<typeof reportDefects>>;
  external: Awaited<ReturnType<typeof reportExternalIds>>;
  embeds: Embeds;
}

export function inspectionReportWire(r: ReportRow, { defects, external, embeds: summaries }: ReportPage) {
  return {
    id: r.id,
    date: r.date,
    time: wireTime(r.time)!,
    odometer: r.odometer,
    carrier_name: r.carrier_name,
    vehicle_number: r.vehicle_number,
    trailer_nums: fromJson<string[]>(r.trailer_nums, []),
    location: r.location,
    city: r.city,
    state: r.state,
    status: r.status,
    inspection_type: r.inspection_type,
    mechanic_signed_at: wireTime(r.mechanic_signed_at),
    mechanic_signature_url: r.mechanic_signature_url,
    driver_signed_at: wireTime(r.driver_signed_at),
    driver_signature_url: r.driver_signature_url,
    defects: (defects.get(r.id) ?? []).map((d) => ({
      defect: { id: d.id, area: d.area, category: d.category, notes: d.notes },
    })),
    vehicle: summaries.vehicle(r.vehicle_id),
    mechanic: summaries.user(r.mechanic_id),
    driver: summaries.user(r.driver_id),
    log_id: r.log_id,
    external_ids: external.get(r.id) ?? [],
  };
}
