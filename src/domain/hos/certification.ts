/**
 * Certification of a day's log (49 CFR 395.8; App. A §4.5.1.4): the driver
 * certifies the log of a day as true and correct, by a record at the instant of certifying that names
 * the day (event type 4). A day is certified again after it changed; the event code is n, the nth
 * certification of that day, 1 to 9, with 9 used again for every later one
 * (docs/reference/domain-rules.md §2.1, §2.3).
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../storage/schema.js';
import { toIso } from '../../storage/values.js';
import { validation } from '../../core/errors.js';
import { Days } from './engine/days.js';
import type { HosDriver } from './drivers.js';
import type { NormalizedEvent } from './records.js';

/**
 * Refuses the certification of a day that had not begun at the certification's instant, in the
 * driver's home-terminal zone: a record that has not been made cannot be certified true. A day
 * already past, or the day going on (a driver certifies at the end of a shift), may be certified.
 */
export function guardCertification(driver: HosDriver | undefined, e: NormalizedEvent): void {
  if (e.kind !== 'certification' || !driver) return;
  const date = e.code!;
  const days = new Days(driver.ruleset.zone, driver.ruleset.dayStartHour);
  const current = Days.date(days.dayOf(e.at));
  if (date > current)
    throw validation(
      'date',
      `${date} has not begun at the certification's time ${toIso(e.at)} (log day ${current} in ${driver.ruleset.zone})`,
    );
}

/** The event code of a new certification of `date`: how many the day has had, plus one, at most 9. */
export async function certificationCode(
  trx: Kysely<Database>,
  companyId: number,
  driverId: number,
  date: string,
): Promise<number> {
  const { n } = await trx
    .selectFrom('hos_events')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('company_id', '=', companyId)
    .where('driver_id', '=', driverId)
    .where('kind', '=', 'certification')
    .where('code', '=', date)
    .executeTakeFirstOrThrow();
  return Math.min(9, Number(n) + 1);
}
