/** The company object of /v1/companies (docs/reference/wire.md §4.19), as REST and the CLI show it. */
import { Type } from 'typebox';
import { DateTime, NStr } from './types.js';
import { fromBool, fromJson, wireTime } from '../storage/values.js';
import type { CompanyRow } from '../domain/companies/service.js';

const EXCEPTIONS = [
  'exception_24_hour_restart',
  'exception_8_hour_break',
  'exception_wait_time',
  'exception_short_haul',
  'exception_ca_farm_school_bus',
  'exception_adverse_driving',
] as const;

export const Company = Type.Object({
  id: Type.Integer(),
  company_id: Type.String({ description: 'The company code, e.g. FP0000001' }),
  name: Type.String(),
  street: NStr(),
  city: NStr(),
  state: NStr(),
  zip: NStr(),
  dot_ids: Type.Array(Type.String()),
  cycle: Type.String(),
  time_zone: Type.String(),
  ...Object.fromEntries(EXCEPTIONS.map((e) => [e, Type.Boolean()])),
  metric_units: Type.Boolean(),
  created_at: DateTime(),
  updated_at: DateTime(),
});

export function companyWire(c: CompanyRow) {
  return {
    id: c.id,
    company_id: c.company_code,
    name: c.name,
    street: c.street,
    city: c.city,
    state: c.state,
    zip: c.zip,
    dot_ids: fromJson<string[]>(c.dot_ids, []),
    cycle: c.cycle,
    time_zone: c.time_zone,
    ...Object.fromEntries(EXCEPTIONS.map((e) => [e, fromBool(c[e])])),
    metric_units: fromBool(c.metric_units),
    created_at: wireTime(c.created_at),
    updated_at: wireTime(c.updated_at),
  };
}
