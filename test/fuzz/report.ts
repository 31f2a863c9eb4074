/** The fuzz report as text: the request that shows a failure, and the run's summary. */
import type { FuzzRequest } from './openapi-arbitrary.js';
import type { FuzzReport } from './runner.js';

export function describeRequest(r: FuzzRequest): string {
  const p =
    r.payload === undefined
      ? ''
      : Buffer.isBuffer(r.payload)
        ? `<${r.payload.length} bytes: ${r.payload.subarray(0, 60).toString('hex')}…>`
        : r.payload.length > 400
          ? `${JSON.stringify(r.payload.slice(0, 400))}… (${r.payload.length} chars)`
          : JSON.stringify(r.payload);
  const h = Object.entries(r.headers)
    .filter(([k]) => !/^(x-api-key|authorization)$/.test(k) || r.what.startsWith('header'))
    .map(([k, v]) => `${k}: ${v.length > 80 ? `${v.slice(0, 80)}… (${v.length})` : v}`)
    .join('; ');
  const url = r.url.length > 400 ? `${r.url.slice(0, 400)}… (${r.url.length} chars)` : r.url;
  return `${r.method} ${url}${h ? ` [${h}]` : ''}${p ? ` body ${p}` : ''}`;
}

/** The report as text: counts, then each failure class with one request that shows it. */
export function summary(r: FuzzReport): string {
  const lines = [
    `fuzz ${r.label}: ${r.requests} requests in ${(r.ms / 1000).toFixed(1)} s (${(r.fingerprintMs / 1000).toFixed(1)} s of it fingerprinting), seed ${r.seed} (replay: FUZZ_SEED=${r.seed}${process.env.FUZZ_RUNS ? ` FUZZ_RUNS=${process.env.FUZZ_RUNS}` : ''})`,
    `  ${r.operations} operations; answers by status: ${Object.entries(r.statuses)
      .map(([k, v]) => `${k}: ${v}`)
      .join(', ')}`,
    `  /healthz: ${r.probe.probes} probes, slowest ${r.probe.maxMs} ms; main event loop: longest delay ${r.loopMaxMs} ms`,
  ];
  for (const u of r.unconfirmed) lines.push(`  note: ${u}`);
  for (const s of r.slowest) lines.push(`  slow request ${s.ms} ms: ${s.request}`);
  for (const f of r.failures.sort((a, b) => b.count - a.count)) {
    lines.push(
      `  FAIL ${f.kind}: ${f.op} ${f.what} -> ${f.status} ${f.body.slice(0, 200)} (x${f.count}, first #${f.index}: ${describeRequest(f.request).slice(0, 600)})`,
    );
  }
  for (const b of r.blockedBy) lines.push(`  FAIL /healthz ${b}`);
  return lines.join('\n');
}
