/**
 * What `fleet simulate` shows while it runs: one status line (vehicles, records sent, accepted and
 * rejected, the simulated time), redrawn in place with a bar on a terminal, printed every
 * PROGRESS_EVERY_MS otherwise (a log file gets a line now and then, not a bar).
 */
import type { Simulation } from './runner.js';

export const PROGRESS_EVERY_MS = 30_000;
const REDRAW_MS = 250;
const BAR = 24;

const n = (x: number) => x.toLocaleString('en-US');

/** `1h 05m`, `45m 10s`, `12s`. */
export function span(s: number): string {
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  if (h > 0) return `${h}h ${String(m).padStart(2, '0')}m`;
  return m > 0 ? `${m}m ${String(s % 60).padStart(2, '0')}s` : `${s}s`;
}

/** The status line of a run: `vehicles` trucks, what was sent and answered, where the simulated clock is. */
export function statusLine(sim: Pick<Simulation, 'stats' | 'progress'>, vehicles: number, bar: boolean): string {
  const { records, rejected } = sim.stats;
  const p = sim.progress();
  const at = new Date(p.at).toISOString().slice(0, 16).replace('T', ' ');
  const of = p.durationS !== null ? ` of ${span(p.durationS)}` : '';
  const text = `${vehicles} vehicle${vehicles === 1 ? '' : 's'} · ${n(records)} records sent, ${n(records - rejected)} accepted, ${n(rejected)} rejected · simulated ${at} UTC (${span(p.simulatedS)}${of})`;
  if (!bar || p.durationS === null || p.durationS === 0) return text;
  const done = Math.min(1, p.simulatedS / p.durationS);
  const full = Math.round(done * BAR);
  return `[${'#'.repeat(full)}${'-'.repeat(BAR - full)}] ${String(Math.floor(done * 100)).padStart(3)}% ${text}`;
}

/** Shows the run's progress on `stream` until the returned function is called (which clears a redrawn line). */
export function showProgress(
  sim: Pick<Simulation, 'stats' | 'progress'>,
  vehicles: number,
  stream: NodeJS.WriteStream,
  prefix: string,
): () => void {
  const tty = stream.isTTY === true;
  const timer = setInterval(
    () => {
      const line = `${prefix}${statusLine(sim, vehicles, tty)}`;
      if (tty) stream.write(`\r\x1b[K${line.slice(0, Math.max(20, (stream.columns ?? 120) - 1))}`);
      else stream.write(`${line}\n`);
    },
    tty ? REDRAW_MS : PROGRESS_EVERY_MS,
  );
  timer.unref();
  return () => {
    clearInterval(timer);
    if (tty) stream.write('\r\x1b[K');
  };
}
