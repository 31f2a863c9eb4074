/**
 * `new Date(ms).toISOString()` for the fix time of every stored record, computed from integers (days
 * to civil date, H. Hinnant's algorithm): the same text at about a quarter of the cost. Instants
 * outside years 1970–9999 or with fractions of a millisecond take the Date path.
 * test/telemetry/text-formatting.test.ts checks the two agree.
 */
const P2 = Array.from({ length: 100 }, (_, i) => (i < 10 ? `0${i}` : String(i)));

export function isoTime(ms: number): string {
  if (!(ms >= 0 && ms < 253_402_300_800_000) || !Number.isInteger(ms)) return new Date(ms).toISOString();
  const days = Math.floor(ms / 86_400_000);
  let rest = ms - days * 86_400_000;
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  const h = Math.floor(rest / 3_600_000);
  rest -= h * 3_600_000;
  const m = Math.floor(rest / 60_000);
  rest -= m * 60_000;
  const s = Math.floor(rest / 1000);
  const milli = rest - s * 1000;
  return `${year}-${P2[month]}-${P2[day]}T${P2[h]}:${P2[m]}:${P2[s]}.${milli < 10 ? '00' : milli < 100 ? '0' : ''}${milli}Z`;
}
