/**
 * The records of the device API (docs/device-protocol.md, Record types), written as schemas so the
 * same valid/broken arbitraries apply, with the rules no schema states (across fields, or against the
 * record's time) beside them: one record is valid, or has one defect in its fields, a rule, its seq,
 * its time or its type.
 */
import fc from 'fast-check';
import { TIME_ZONES } from '../../src/core/time-zone.js';
import { badScalar, broken, valid, type Schema } from './schema-arbitrary.js';
import { COMPANY_TIME_ZONE } from './fixtures.js';
import { DATES, DATETIMES, EDGE_STRINGS } from './values.js';

type Obj = Record<string, unknown>;

const num = (minimum?: number, maximum?: number): Schema => ({ type: 'number', minimum, maximum });
const int = (minimum: number, maximum: number): Schema => ({ type: 'integer', minimum, maximum });
export const str = (maxLength: number, extra: Schema = {}): Schema => ({ type: 'string', maxLength, ...extra });
const oneOf = (...values: string[]): Schema => ({ type: 'string', enum: values });
const obj = (properties: Record<string, Schema>, required: string[] = []): Schema => ({
  type: 'object',
  properties,
  required,
});

const position = { lat: num(-90, 90), lon: num(-180, 180) };
const counters = {
  speed_kph: num(0, 400),
  bearing_deg: num(0, 360),
  altitude_m: num(-1000, 10000),
  accuracy_m: num(0, 10000),
  odometer_km: num(0, 5e6),
  engine_hours: num(0, 1e6),
  fuel_used_l: num(0, 1e7),
  fuel_level_pct: num(0, 100),
  battery_v: num(0, 60),
  battery_pct: num(0, 100),
  ignition: { type: 'boolean' },
  pto: { type: 'boolean' },
} satisfies Record<string, Schema>;
/** An id: 1 to PostgreSQL's integer maximum. */
const id = int(1, 2147483647);
/** An ELD annotation: 4 to 60 characters (the 4 not counting spaces at its ends: RULES). */
const annotation = str(60, { minLength: 4 });
const claim = oneOf('adverse_driving', 'sixteen_hour');

/** The record types, without seq/type/time (added by `record`). Driver ids 1–3 are the fixtures' users. */
export const RECORD_TYPES: Record<string, Schema> = {
  location: obj({ ...position, ...counters }, ['lat', 'lon']),
  engine: obj({ state: oneOf('on', 'off'), ...position, ...counters }, ['state']),
  driver: obj({ action: oneOf('login', 'logout'), driver_id: id }, ['action']),
  fault: obj({
    protocol: oneOf('j1939', 'obd2', 'j1708'),
    spn: int(0, 524287),
    fmi: int(0, 31),
    source_address: int(0, 255),
    occurrence_count: int(0, 127),
    code: str(16, { pattern: '^[PCBU][0-3][0-9A-F]{3}$' }),
    mid: int(0, 255),
    pid: int(0, 511),
    sid: int(0, 255),
    status: oneOf('active', 'cleared'),
    lamps: obj({
      mil: { type: 'boolean' },
      red_stop: { type: 'boolean' },
      amber_warning: { type: 'boolean' },
      protect: { type: 'boolean' },
    }),
  }),
  acceleration: obj({
    longitudinal_g: num(-5, 5),
    lateral_g: num(-5, 5),
    duration_ms: int(0, 60000),
    speed_kph: num(0, 400),
    end_speed_kph: num(0, 400),
    ...position,
    bearing_deg: num(0, 360),
  }),
  power: obj({ state: oneOf('disconnected', 'connected'), ...position }, ['state']),
  duty_status: obj(
    {
      driver_id: id,
      status: oneOf('off_duty', 'sleeper', 'driving', 'on_duty', 'personal_conveyance', 'yard_move', 'waiting'),
      note: str(60),
      exception: claim,
      ...position,
    },
    ['driver_id', 'status'],
  ),
  exception: obj({ driver_id: id, exception: claim, note: str(60), ...position }, ['driver_id', 'exception']),
  remark: obj({ driver_id: id, note: annotation, ...position }, ['driver_id', 'note']),
  certification: obj({ driver_id: id, date: { type: 'string', format: 'date' } }, ['driver_id', 'date']),
  malfunction: obj(
    {
      code: oneOf('P', 'E', 'T', 'L', 'R', 'S', 'O', '1', '2', '3', '4', '5', '6'),
      status: oneOf('began', 'cleared'),
      note: annotation,
      driver_id: id,
      ...position,
    },
    ['code', 'status'],
  ),
  inspection: obj({
    driver_id: id,
    inspection_type: oneOf('pre_trip', 'post_trip', 'other'),
    odometer: num(0, 5e6),
    carrier_name: str(255),
    trailer_nums: { type: 'array', items: str(64), maxItems: 20 },
    location: str(255),
    city: str(128),
    state: str(64),
    defects: {
      type: 'array',
      items: obj({ area: str(64), category: str(128), notes: str(2000) }, ['area', 'category']),
      maxItems: 200,
    },
    driver_signed_at: { type: 'string', format: 'date-time' },
    log_id: id,
  }),
  form_entry: obj(
    {
      form_id: { anyOf: [str(255, { minLength: 1 }), id] },
      driver_id: id,
      entry: obj({ a: str(64) }),
      dispatch_id: id,
      vendor_dispatch_id: str(255, { minLength: 1 }),
      vendor_stop_id: str(255, { minLength: 1 }),
    },
    ['form_id'],
  ),
};

/** An annotation as a valid record has it: at least 4 characters besides spaces at its ends. */
const annotated = (note: unknown): string => {
  const s = typeof note === 'string' ? note : '';
  return s.trim().length >= 4 ? s : `Note${s}`.slice(0, 60);
};

const ZONE = TIME_ZONES[COMPANY_TIME_ZONE];
const dayFormat = new Intl.DateTimeFormat('en-CA', {
  timeZone: ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});
/** The log day going on at `t` for the fixtures' drivers (their home terminal is the company's zone). */
const logDay = (t: number): string => dayFormat.format(t);
const nextDay = (day: string): string =>
  new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

/** A defect no schema states: a label for the report, and the valid record (and its time, ms) it breaks. */
type Defect = [at: string, apply: (v: Obj, t: number) => Obj];

/** Fields left out. */
const without = (v: Obj, ...keys: string[]): Obj =>
  Object.fromEntries(Object.entries(v).filter(([k]) => !keys.includes(k)));
/** A note of 4 characters or more of which fewer than 4 are not spaces at its ends. */
const SHORT_NOTES = ['  ab  ', 'abc ', '\t\t\tabc\n', '    '];

/**
 * An exception claim the driver's rules allow: adverse_driving needs the driver's
 * exception_adverse_driving (driver 2) and a note of what the conditions were (49 CFR 395.28(c));
 * sixteen_hour a US property cycle (driver 1, driver 2 is on Canada's). A duty status may carry none.
 */
const CLAIMANT: Record<string, number> = { adverse_driving: 2, sixteen_hour: 1 };
const adverse = (v: Obj): Obj => ({ ...v, exception: 'adverse_driving', driver_id: CLAIMANT.adverse_driving });
const claimRules = {
  fit: (v: Obj): Obj =>
    typeof v.exception !== 'string'
      ? v
      : v.exception === 'adverse_driving'
        ? { ...adverse(v), note: annotated(v.note) }
        : { ...v, driver_id: CLAIMANT[v.exception] },
  defects: [
    ['.note (missing with adverse_driving)', (v) => without(adverse(v), 'note')],
    ['.note (null with adverse_driving)', (v) => ({ ...adverse(v), note: null })],
    ...SHORT_NOTES.map((note): Defect => [
      `.note ${JSON.stringify(note)} with adverse_driving`,
      (v) => ({ ...adverse(v), note }),
    ]),
    [
      '.exception adverse_driving (driver without the exception)',
      (v) => ({ ...adverse(v), note: annotated(v.note), driver_id: 1 }),
    ],
    [
      '.exception sixteen_hour (driver on a Canadian cycle)',
      (v) => ({ ...v, exception: 'sixteen_hour', driver_id: 2 }),
    ],
  ] as Defect[],
};

/**
 * The rules of a record type that its schema does not state: `fit` makes a valid draw obey them (given
 * the record's time, ms), `defects` break one each.
 */
export const RULES: Record<string, { fit(v: Obj, t: number): Obj; defects: Defect[] }> = {
  duty_status: claimRules,
  exception: claimRules,
  remark: {
    fit: (v) => ({ ...v, note: annotated(v.note) }),
    defects: SHORT_NOTES.map((note): Defect => [`.note ${JSON.stringify(note)}`, (v) => ({ ...v, note })]),
  },
  malfunction: {
    fit: (v) => (v.note === undefined ? v : { ...v, note: annotated(v.note) }),
    defects: [
      ...SHORT_NOTES.map((note): Defect => [`.note ${JSON.stringify(note)}`, (v) => ({ ...v, note })]),
      // The diagnostics are numbered, but the code is always text.
      ['.code (a number)', (v) => ({ ...v, code: 5 })],
      ['.code (lower case)', (v) => ({ ...v, code: 'p' })],
      ['.code (two codes)', (v) => ({ ...v, code: 'P1' })],
    ],
  },
  // A day may be certified once it has begun in the driver's zone: the day going on or an earlier one.
  certification: {
    fit: (v, t) => (typeof v.date === 'string' && v.date <= logDay(t) ? v : { ...v, date: logDay(t) }),
    defects: [
      ['.date (the day after the log day of its time)', (v, t) => ({ ...v, date: nextDay(logDay(t)) })],
      ['.date (far ahead)', (v) => ({ ...v, date: '9999-12-31' })],
      ['.date (with a time)', (v, t) => ({ ...v, date: `${logDay(t)}T00:00:00Z` })],
      ['.date (without dashes)', (v, t) => ({ ...v, date: logDay(t).replace(/-/g, '') })],
    ],
  },
};

const SEQ: Schema = int(0, 2 ** 53 - 1);
/** A record time the server accepts: 1 minute to 30 days ago, as ISO text or epoch milliseconds. */
const goodTime = fc
  .integer({ min: 60, max: 30 * 86_400 })
  .chain((s) =>
    fc.constantFrom(
      new Date(Date.now() - s * 1000).toISOString(),
      Date.now() - s * 1000,
      new Date(Date.now() - s * 1000).toISOString().replace('Z', '+05:45'),
    ),
  );
const msOf = (time: string | number): number => (typeof time === 'number' ? time : Date.parse(time));
const badTime = fc.oneof(
  fc.constantFrom(...DATETIMES, ...DATES),
  badScalar({ type: 'integer', minimum: 0 }),
  fc.constantFrom(
    Date.now() + 3_600_000,
    Date.now() - 500 * 86_400_000,
    new Date(Date.now() + 3_600_000).toISOString(),
  ),
);

/** A valid position has both lat and lon, or neither: a lone one is left out. */
const paired = (v: Obj): Obj => ('lat' in v === 'lon' in v ? v : without(v, 'lat', 'lon'));

/**
 * A valid record of a driver's log (the types with RULES) names a driver of the company, 1 or 2, so
 * that it reaches the driver's log; other ids (3 is a fleet user) stay in the broken records' bases.
 */
const aDriver = (v: Obj): Obj => (typeof v.driver_id === 'number' ? { ...v, driver_id: 1 + (v.driver_id % 2) } : v);

export type Rec = { value: Obj; at: string };

/** One record: valid, or with one defect in its fields, a rule, its seq, its time or its type. */
export const record: fc.Arbitrary<Rec> = fc.constantFrom(...Object.keys(RECORD_TYPES)).chain((type) => {
  const schema = RECORD_TYPES[type];
  const rules = RULES[type];
  const seq = fc.integer({ min: 1000, max: 2 ** 48 });
  const fitted = fc.tuple(valid(schema), seq, goodTime).map(([v, s, time]) => ({
    fields: paired(rules ? rules.fit(aDriver(v as Obj), msOf(time)) : (v as Obj)),
    head: { seq: s, type, time },
  }));
  const ok = fitted.map(({ fields, head }) => ({ value: { ...fields, ...head }, at: `${type} (valid)` }));
  return fc.oneof(
    { weight: 2, arbitrary: ok },
    {
      weight: 6,
      arbitrary: fc.tuple(broken(schema), seq, goodTime).map(([b, s, time]) => ({
        value: { ...(b.value as object), seq: s, type, time },
        at: `${type}${b.at || ' (whole)'}`,
      })),
    },
    ...(rules
      ? [
          {
            weight: 2,
            arbitrary: fc.tuple(fitted, fc.constantFrom(...rules.defects)).map(([{ fields, head }, [at, apply]]) => ({
              value: { ...apply(fields, msOf(head.time)), ...head },
              at: `${type}${at}`,
            })),
          },
        ]
      : []),
    {
      weight: 1,
      arbitrary: fc.tuple(ok, badScalar(SEQ)).map(([r, s]) => ({ value: { ...r.value, seq: s }, at: `${type}.seq` })),
    },
    {
      weight: 1,
      arbitrary: fc.tuple(ok, badTime).map(([r, time]) => ({ value: { ...r.value, time }, at: `${type}.time` })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(ok, fc.constantFrom(...EDGE_STRINGS, 'LOCATION', 'location '))
        .map(([r, t]) => ({ value: { ...r.value, type: t }, at: 'type' })),
    },
    {
      weight: 1,
      arbitrary: fc.tuple(ok, fc.constantFrom('seq', 'type', 'time')).map(([r, k]) => ({
        value: without(r.value, k),
        at: `${type}.${k} (missing)`,
      })),
    },
  );
});
