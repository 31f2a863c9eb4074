// The compiled tree the test run uses (scripts/test.mjs). Loading TypeScript through tsx cost every test
// process about 1.7 s of CPU time more before its first test (tsx's module hooks run on a thread of
// their own and see every module the app loads), and a second of waiting; over 234 test files that was
// minutes of the suite. So the run compiles once, in about a second:
//
//   .tmp-test-build-<pid>/src, /test    every .ts file transpiled by esbuild to .js at the same relative
//                                       path (inline source maps: stack traces name .ts lines with
//                                       --enable-source-maps), every other file copied;
//   .tmp-test-build-<pid>/node_modules  a link to each installed package, except kysely and typebox,
//                                       bundled into one module each as dist/ has them (scripts/build.mjs),
//                                       so that src/ and test/ share one copy of each;
//   everything else at the top          a link to the repository's own (docs/, package.json, bin/, …), so
//                                       that a path relative to a test or a source file leads where it
//                                       does in the repository.
//
// A test that needs the repository itself (the .ts sources) finds it through test/repo.ts.
import { mkdirSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { BUNDLED, ROOT, bundlePackage, transpileTree, walk } from './build.mjs';

const COMPILED = ['src', 'test'];
const PREFIX = '.tmp-test-build-';

const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
};

/** Removes the trees of runs whose process is gone (a run stopped by Ctrl-C leaves its tree behind). */
function removeStale(root) {
  for (const name of readdirSync(root)) {
    const pid = Number(name.slice(PREFIX.length));
    if (name.startsWith(PREFIX) && Number.isInteger(pid) && !alive(pid))
      rmSync(join(root, name), { recursive: true, force: true });
  }
}

/** Builds the tree for this process; resolves to its folder and the milliseconds it took. */
export async function buildTestTree(root = ROOT) {
  const started = performance.now();
  removeStale(root);
  const out = join(root, `${PREFIX}${process.pid}`);
  rmSync(out, { recursive: true, force: true });
  const esbuild = await import('esbuild');
  // Inline source maps: the tree is removed after the run, and stack traces still name .ts lines.
  for (const dir of COMPILED)
    await transpileTree(esbuild, join(root, dir), join(out, dir), walk(join(root, dir)), 'inline');
  const modules = join(out, 'node_modules');
  mkdirSync(modules);
  for (const name of readdirSync(join(root, 'node_modules')))
    if (!BUNDLED.includes(name)) symlinkSync(join(root, 'node_modules', name), join(modules, name));
  for (const name of BUNDLED) await bundlePackage(esbuild, root, out, name);
  mkdirSync(join(root, 'test-results'), { recursive: true });
  for (const name of readdirSync(root))
    if (![...COMPILED, 'node_modules', '.git'].includes(name) && !name.startsWith('.tmp'))
      symlinkSync(join(root, name), join(out, name));
  return { dir: out, ms: Math.round(performance.now() - started) };
}
