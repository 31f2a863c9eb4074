// Compiles src/ into dist/ for production starts (docs/operations.md, Startup and build).
//
//   node scripts/build.mjs              build dist/ (npm's `prepare` runs this on install)
//   node scripts/build.mjs --if-stale   build only when dist/ does not match src/ (as `npm start` does)
//   node scripts/build.mjs --out DIR    build into DIR instead (the CLI tests build their own copy)
//
// Each .ts file is transpiled on its own by esbuild into the same relative path with .js (no bundling,
// no type check: `npm run typecheck` does that), and every other file under src/ is copied as it is, so
// whatever the code reads relative to itself (`new URL('./assets/', import.meta.url)`,
// data files) is at the same place in dist/ as in src/. dist/ sits at the same depth as src/, so paths
// that leave src/ for the package root (`../../package.json`) resolve the same way too.
//
// dist/.build.json records a signature of src/ (every file's path, size and modification time); bin/fleet.js
// runs dist/ only while that signature still matches (buildState), and the sources through tsx otherwise.
import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
const STAMP = '.build.json';

/** Every file under `dir`, recursively. */
export function walk(dir, out = []) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    if (entry.isDirectory()) walk(p, out);
    else if (entry.isFile()) out.push(p);
  }
  return out;
}

/** Every file under `root`/src, sorted, with the signature that changes whenever one of them does. */
export function sourceState(root = ROOT) {
  const src = join(root, 'src');
  const files = walk(src).sort();
  const hash = createHash('sha256');
  for (const f of files) {
    const s = statSync(f);
    hash.update(`${relative(src, f)}\0${s.size}\0${s.mtimeMs}\n`);
  }
  return { src, files, signature: hash.digest('hex') };
}

/** `fresh` when `outdir` holds a build of src/ as it is now, `stale` when a build of other sources, `missing`. */
export function buildState(root = ROOT, outdir = join(root, 'dist')) {
  let stamp;
  try {
    stamp = JSON.parse(readFileSync(join(outdir, STAMP), 'utf8'));
  } catch {
    return 'missing';
  }
  return stamp.signature === sourceState(root).signature ? 'fresh' : 'stale';
}

/**
 * Dependencies loaded from one bundled file each instead of their hundreds of ES modules: Node 20 loads
 * an ES module file by file, and these two are most of what a `fleet` command loads (kysely 262 files,
 * typebox 373). Bundled, each costs a third of the CPU to load (docs/operations.md, Startup and build).
 * Nothing in node_modules imports them at run time (@fastify/type-provider-typebox only for its types),
 * so the build's copy is the only one a compiled process loads.
 */
export const BUNDLED = ['kysely', 'typebox'];

/** The package.json of an installed package, found upwards from the file it resolves to. */
function packageJsonOf(name) {
  for (let dir = dirname(fileURLToPath(import.meta.resolve(name))); dir !== dirname(dir); dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (!existsSync(file)) continue;
    const pkg = JSON.parse(readFileSync(file, 'utf8'));
    if (pkg.name === name) return pkg;
  }
  throw new Error(`no package.json of ${name}`);
}

/**
 * `name` from node_modules as one ES module in `outdir`/node_modules/`name`: Node finds it there from
 * any compiled file before the package root's node_modules, so the compiled code imports it unchanged.
 */
export async function bundlePackage(esbuild, root, outdir, name) {
  const { version } = packageJsonOf(name);
  const dir = join(outdir, 'node_modules', name);
  await esbuild.build({
    entryPoints: [name],
    absWorkingDir: root,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    outfile: join(dir, 'index.js'),
    logLevel: 'warning',
    legalComments: 'inline',
  });
  writeFileSync(
    join(dir, 'package.json'),
    `${JSON.stringify({ name, version, type: 'module', exports: './index.js', description: `${name} ${version} from node_modules, bundled by scripts/build.mjs` }, null, 2)}\n`,
  );
}

/**
 * Transpiles each .ts file of `files` (under `from`) on its own into `to` at the same relative path with
 * .js, and copies every other file there as it is; resolves to the counts. `sourcemap`: esbuild's.
 */
export async function transpileTree(esbuild, from, to, files, sourcemap) {
  const ts = files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'));
  const other = files.filter((f) => !f.endsWith('.ts'));
  await esbuild.build({
    entryPoints: ts,
    outbase: from,
    outdir: to,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    bundle: false,
    sourcemap,
    logLevel: 'warning',
  });
  for (const f of other) {
    const dest = join(to, relative(from, f));
    mkdirSync(dirname(dest), { recursive: true });
    cpSync(f, dest);
  }
  return { transpiled: ts.length, copied: other.length };
}

/**
 * Builds src/ into `outdir`: into a sibling folder first, then swapped in, so a process starting
 * meanwhile finds either the old build or the new one, never half of one. Resolves to the file count
 * and the milliseconds it took.
 */
export async function build(root = ROOT, outdir = join(root, 'dist')) {
  const started = performance.now();
  const { src, files, signature } = sourceState(root);
  const tmp = `${outdir}.tmp-${process.pid}`;
  const old = `${outdir}.old-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  let counts;
  try {
    const esbuild = await import('esbuild');
    // Linked .js.map files: free unless Node runs with --enable-source-maps (then stack traces name .ts lines).
    counts = await transpileTree(esbuild, src, tmp, files, true);
    for (const name of BUNDLED) await bundlePackage(esbuild, root, tmp, name);
    writeFileSync(
      join(tmp, STAMP),
      `${JSON.stringify({ signature, files: files.length, built_at: new Date().toISOString() })}\n`,
    );
    try {
      if (existsSync(outdir)) renameSync(outdir, old);
      renameSync(tmp, outdir);
    } catch (err) {
      // Another build swapped its own in meanwhile: that one will do if it is of these sources.
      if (buildState(root, outdir) !== 'fresh') throw err;
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
    rmSync(old, { recursive: true, force: true });
  }
  return { ...counts, ms: Math.round(performance.now() - started) };
}

/**
 * Builds when `outdir` is not a build of src/ as it is now, saying so on stderr; resolves to whether
 * `outdir` is current afterwards. A failed build is said and not thrown: the caller runs src/ instead.
 */
export async function buildIfStale(root = ROOT, outdir = join(root, 'dist')) {
  if (buildState(root, outdir) === 'fresh') return true;
  try {
    say(await build(root, outdir), outdir);
    return true;
  } catch (err) {
    process.stderr.write(
      `fleet: could not compile src/ (${err?.message ?? err}); starting from the sources through tsx\n`,
    );
    return false;
  }
}

const say = (r, outdir) =>
  process.stderr.write(
    `fleet: compiled ${r.transpiled} files and copied ${r.copied} into ${relative(process.cwd(), outdir) || '.'} in ${r.ms} ms\n`,
  );

async function cli(argv) {
  const at = argv.indexOf('--out');
  if (at >= 0 && !argv[at + 1]) throw new Error('--out needs a folder');
  const outdir = at >= 0 ? resolve(argv[at + 1]) : join(ROOT, 'dist');
  if (argv.includes('--if-stale')) await buildIfStale(ROOT, outdir);
  else say(await build(ROOT, outdir), outdir);
}

if (process.argv[1] && pathToFileURL(resolve(process.argv[1])).href === import.meta.url) {
  cli(process.argv.slice(2)).catch((err) => {
    process.stderr.write(`fleet: build failed: ${err?.stack ?? err}\n`);
    process.exit(1);
  });
}
