/**
 * Summarizes a V8 CPU profile written with BENCH_CPU_PROF=1 (see README): where the server's CPU went,
 * by self time per function and per package / source area.
 *
 *   npx tsx bench/profile.ts bench/results/profiles/<file>.cpuprofile [top=25]
 */
import { readFileSync } from 'node:fs';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

/** node_modules/<pkg>, src/<area>, bench, node:internal, or a V8 pseudo-frame. */
function areaOf(url: string, fn: string): string {
  if (!url) return fn.startsWith('(') ? fn : '(native)';
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + 'node_modules/'.length).split('/');
    return rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!;
  }
  if (url.startsWith('node:')) return 'node:' + url.slice(5).split('/')[0];
  const src = url.indexOf('/src/');
  if (src >= 0)
    return (
      'src/' +
      url
        .slice(src + 5)
        .split('/')
        .slice(0, -1)
        .join('/')
    );
  if (url.includes('/bench/')) return 'bench';
  return url;
}

function main() {
  const [file, topArg] = process.argv.slice(2);
  if (!file) throw new Error('usage: tsx bench/profile.ts <file.cpuprofile> [top]');
  const top = Number(topArg ?? 25);
  const p = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  for (let i = 0; i < p.samples.length; i++)
    self.set(p.samples[i]!, (self.get(p.samples[i]!) ?? 0) + (p.timeDeltas[i] ?? 0));
  const total = [...self.values()].reduce((a, b) => a + b, 0);

  const fns = new Map<string, number>();
  const areas = new Map<string, number>();
  for (const [id, us] of self) {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    const short = url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*\/(src|bench)\//, '$1/');
    const key = `${functionName || '(anonymous)'}  ${short}${url ? `:${lineNumber + 1}` : ''}`;
    fns.set(key, (fns.get(key) ?? 0) + us);
    const a = areaOf(url, functionName);
    areas.set(a, (areas.get(a) ?? 0) + us);
  }
  // Inclusive time of project functions (src/, bench/): self time of the node and everything it called.
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const incl = new Map<string, number>();
  for (const [id, us] of self) {
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const { functionName, url, lineNumber } = byId.get(cur)!.callFrame;
      if (!/\/(src|bench)\//.test(url) || url.includes('node_modules')) continue;
      const key = `${functionName || '(anonymous)'}  ${url.replace(/^file:\/\/.*\/(src|bench)\//, '$1/')}:${lineNumber + 1}`;
      if (seen.has(key)) continue; // count recursion once
      seen.add(key);
      incl.set(key, (incl.get(key) ?? 0) + us);
    }
  }
  const pct = (us: number) => `${((us / total) * 100).toFixed(1).padStart(5)} %`;
  const idle = self.get(p.nodes.find((n) => n.callFrame.functionName === '(idle)')?.id ?? -1) ?? 0;
  console.log(`${file}\nsampled ${(total / 1e6).toFixed(1)} s, idle ${pct(idle)}\n\nself time by area:`);
  for (const [a, us] of [...areas].sort((x, y) => y[1] - x[1]).slice(0, top)) console.log(`${pct(us)}  ${a}`);
  console.log('\ninclusive time of project functions (lines are of the transpiled module):');
  for (const [f, us] of [...incl].sort((x, y) => y[1] - x[1]).slice(0, top)) console.log(`${pct(us)}  ${f}`);
  console.log('\nself time by function:');
  for (const [f, us] of [...fns].sort((x, y) => y[1] - x[1]).slice(0, top)) console.log(`${pct(us)}  ${f}`);
}

main();
