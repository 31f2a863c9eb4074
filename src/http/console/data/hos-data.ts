/**
 * What the hours-of-service page shows, read through the owners the API uses: the visible drivers
 * (users' listUsers, groups' memberships), their clocks now (availableTime, as /v1/available_time), the
 * log of the chosen day (logKeys and logDetails, as /v1/logs) and its stored violations. The drivers
 * who need attention come first: a violation still open now, then the least time left.
 */
import type { Db } from '../../../storage/db.js';
import { addDays, localDate, TIME_ZONES } from '../../../core/time-zone.js';
import { companyTimeZone } from '../../../domain/companies/service.js';
import { listUsers } from '../../../domain/users/repository.js';
import { groupIdsOf } from '../../../domain/groups/membership.js';
import { listGroups } from '../../../domain/groups/service.js';
import { availableTime } from '../../../domain/hos/queries.js';
import { refreshDue } from '../../../domain/hos/evaluation.js';
import { logKeys } from '../../../domain/hos/log-days.js';
import { logDetails, type LogDetail } from '../../../domain/hos/logs.js';
import type { Family } from '../../../domain/hos/engine/types.js';
import type { Viewer } from './data.js';

const H = 3_600_000;
/** Full clocks of each rules family (hours), the scale of the meters. */
const LIMITS: Record<Family, { drive: number; shift: number; break: number }> = {
  us_property: { drive: 11, shift: 14, break: 8 },
  us_passenger: { drive: 10, shift: 15, break: 8 },
  canada: { drive: 13, shift: 14, break: 8 },
};
/** More drivers than any one page should evaluate; the filters narrow a larger fleet. */
const MAX_DRIVERS = 2000;
const MAX_SEARCH = 100;
/** The earliest day the picker accepts (the calendar of storage/portable-values.ts starts far earlier). */
const FIRST_DAY = '2000-01-01';

export const ROWS = [
  ['off', 'Off duty'],
  ['sleeper', 'Sleeper'],
  ['driving', 'Driving'],
  ['on', 'On duty'],
] as const;
export type Row = (typeof ROWS)[number][0];
const rowOf = (type: string): Row | null =>
  type === 'driving'
    ? 'driving'
    : type === 'sleeper'
      ? 'sleeper'
      : type === 'off_duty' || type === 'personal_conveyance'
        ? 'off'
        : type === 'on_duty' || type === 'waiting' || type === 'yard_move'
          ? 'on'
          : null;

/** The query of the page as given (strings from the URL), before checking. */
export interface HosQueryText {
  date?: string;
  q?: string;
  group?: string;
  violations?: string;
}

export interface HosFilters {
  /** The log day shown (YYYY-MM-DD). */
  date: string;
  q: string;
  groupId: number | null;
  onlyViolations: boolean;
}

export interface HosViolation {
  name: string;
  start: number;
  end: number | null;
}

export interface HosDriverView {
  id: number;
  name: string;
  duty_status: string;
  clocks: Array<{ key: string; label: string; remainingMs: number; limitMs: number }>;
  /** The least of drive, shift and cycle time left: what the list is sorted by. */
  leftMs: number;
  /** Violations still going on now (from the engine's evaluation at this instant). */
  open: HosViolation[];
  /** The log of the chosen day; its boundaries follow the driver's home-terminal zone. */
  day: {
    date: string;
    start: number;
    end: number;
    zone: string;
    segments: Array<{ row: Row; start: number; end: number }>;
  } | null;
  /** Stored violations overlapping the chosen day (as /v1/logs reports them). */
  violations: HosViolation[];
}

export interface HosOverview {
  /** The company's zone: its Rails name and IANA zone; every time on the page is shown in it. */
  zone: { name: string; iana: string };
  today: string;
  filters: HosFilters;
  groups: Array<{ id: number; name: string }>;
  /** How many drivers the viewer may see, before the filters. */
  visible: number;
  drivers: HosDriverView[];
  error?: string;
}

function checkQuery(text: HosQueryText, today: string): { filters: HosFilters; error?: string } {
  const filters: HosFilters = {
    date: today,
    q: (text.q ?? '').trim(),
    groupId: null,
    onlyViolations: text.violations === '1',
  };
  const date = text.date?.trim();
  if (date) {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || addDays(date, 0) !== date)
      return { filters, error: `date must be a day written YYYY-MM-DD (got "${date}")` };
    if (date > today) return { filters, error: `date must not be after today (${today})` };
    if (date < FIRST_DAY) return { filters, error: `date must not be before ${FIRST_DAY}` };
    filters.date = date;
  }
  if (filters.q.length > MAX_SEARCH)
    return { filters, error: `the driver search must be at most ${MAX_SEARCH} characters` };
  if (text.group) {
    if (!/^\d{1,12}$/.test(text.group)) return { filters, error: `group must be a group id (got "${text.group}")` };
    filters.groupId = Number(text.group);
  }
  if (text.violations !== undefined && text.violations !== '1')
    return { filters, error: `violations must be 1 when given (got "${text.violations}")` };
  return { filters };
}

const byName = (a: { name: string; id: number }, b: { name: string; id: number }) =>
  a.name.localeCompare(b.name, 'en') || a.id - b.id;

export async function hosOverview(db: Db, v: Viewer, text: HosQueryText, now = Date.now()): Promise<HosOverview> {
  const tz = await companyTimeZone(db, v.companyId);
  const zone = tz ? { name: tz.name, iana: tz.zone } : { name: 'UTC', iana: TIME_ZONES.UTC };
  const today = localDate(now, zone.iana);
  const { filters, error } = checkQuery(text, today);
  const out: HosOverview = { zone, today, filters, groups: [], visible: 0, drivers: [], error };
  if (error || (v.driverIds !== null && v.driverIds.size === 0)) return out;

  const ids = v.driverIds === null ? undefined : [...v.driverIds];
  const { rows } = await listUsers(db.kysely, v.companyId, { role: 'driver', status: 'active', ids }, MAX_DRIVERS, 0);
  const [memberships, groups] = await Promise.all([
    groupIdsOf(
      db.kysely,
      'group_users',
      rows.map((r) => r.id),
    ),
    listGroups(db, v, 1000, 0),
  ]);
  const used = new Set([...memberships.values()].flat());
  out.groups = groups.rows.filter((g) => used.has(g.id)).map((g) => ({ id: g.id, name: g.name }));
  out.visible = rows.length;
  if (filters.groupId !== null && !out.groups.some((g) => g.id === filters.groupId)) {
    out.error = `group ${filters.groupId} is not a group of your drivers`;
    return out;
  }
  const needle = filters.q.toLowerCase();
  const chosen = rows
    .filter((r) => `${r.first_name} ${r.last_name}`.toLowerCase().includes(needle))
    .filter((r) => filters.groupId === null || memberships.get(r.id)?.includes(filters.groupId))
    .map((r) => r.id);
  if (chosen.length === 0) return out;

  // Stored violations are what the log shows: bring drivers whose state changed with time up to date first.
  await refreshDue(db, v, now);
  const { items } = await availableTime(db, v, chosen, chosen.length, 0, now);
  const keys = await logKeys(db.kysely, v, { driverIds: chosen, startDate: filters.date, endDate: filters.date }, now);
  const details = new Map<number, LogDetail>(
    (await logDetails(db.kysely, v, keys, now)).map((d) => [d.key.driver.id, d]),
  );
  const drivers = items.map(({ driver, evaluation }): HosDriverView => {
    const lim = LIMITS[driver.ruleset.family];
    const c = evaluation.clocks;
    const d = details.get(driver.id);
    return {
      id: driver.id,
      name: `${driver.first_name} ${driver.last_name}`,
      duty_status: driver.duty_status,
      clocks: [
        { key: 'drive', label: 'Drive', remainingMs: c.driveMs, limitMs: lim.drive * H },
        { key: 'shift', label: 'Shift', remainingMs: c.shiftMs, limitMs: lim.shift * H },
        { key: 'cycle', label: 'Cycle', remainingMs: c.cycleMs, limitMs: driver.ruleset.cycle.hours * H },
        { key: 'break', label: 'Break', remainingMs: c.breakMs, limitMs: lim.break * H },
      ],
      leftMs: Math.min(c.driveMs, c.shiftMs, c.cycleMs),
      open: evaluation.violations
        .filter((x) => x.end === null)
        .map((x) => ({ name: x.name, start: x.start, end: null })),
      day: d ? dayOf(d, now) : null,
      violations: (d?.violations ?? []).map((x) => ({
        name: x.name,
        start: Date.parse(x.start_at),
        end: x.end_at === null ? null : Date.parse(x.end_at),
      })),
    };
  });
  out.drivers = drivers
    .filter((d) => !filters.onlyViolations || d.open.length > 0 || d.violations.length > 0)
    .sort((a, b) => Number(b.open.length > 0) - Number(a.open.length > 0) || a.leftMs - b.leftMs || byName(a, b));
  return out;
}

/** The day's duty intervals as grid rows, clipped to the day and, for today, to now. */
function dayOf(d: LogDetail, now: number): NonNullable<HosDriverView['day']> {
  const segments = d.events.flatMap((e) => {
    const row = rowOf(e.type);
    if (!row) return [];
    const start = Math.max(Date.parse(e.start), d.key.start);
    const end = Math.min(e.end === null ? now : Date.parse(e.end), d.key.end, now);
    return end > start ? [{ row, start, end }] : [];
  });
  return { date: d.key.date, start: d.key.start, end: d.key.end, zone: d.key.driver.ruleset.zone, segments };
}
