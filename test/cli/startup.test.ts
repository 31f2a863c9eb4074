/**
 * The compiled start (docs/operations.md, Startup and build): scripts/build.mjs compiles src/ into
 * dist/ with every other file at the same relative path, bin/fleet.js runs dist/ only while it matches
 * src/ and src/ through tsx otherwise, and `fleet --help` loads none of the database stack.
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BUILD, ROOT, TMP } from '../cli-process.js';

/** A package root of its own inside the checkout (so node_modules resolves): bin, scripts and a tiny src. */
const PKG = join(ROOT, `.tmp-bin-${process.pid}`);
after(() => rmSync(PKG, { recursive: true, force: true }));

function run(args: string[], cwd = PKG) {
  const r = spawnSync(process.execPath, args, { cwd, encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('compiled start', () => {
  it('bin/fleet.js runs src/ through tsx until dist/ is built, dist/ while it matches src/, src/ again when src/ changes, and builds first with --build-if-stale', () => {
    cpSync(join(ROOT, 'bin/fleet.js'), join(PKG, 'bin/fleet.js'));
    cpSync(join(ROOT, 'scripts/build.mjs'), join(PKG, 'scripts/build.mjs'));
    mkdirSync(join(PKG, 'src/cli/data/deep'), { recursive: true });
    // A file read relative to the code, as the console's assets and the IFTA outlines are.
    writeFileSync(join(PKG, 'src/cli/data/deep/note.txt'), 'read at run time\n');
    const main = join(PKG, 'src/cli/main.ts');
    writeFileSync(
      main,
      [
        "import { readFileSync } from 'node:fs';",
        "const note: string = readFileSync(new URL('./data/deep/note.txt', import.meta.url), 'utf8');",
        'export async function runCli(argv: string[]): Promise<void> {',
        "  process.stdout.write(`${JSON.stringify({ from: import.meta.url.split('/').slice(-3).join('/'), argv, note })}\\n`);",
        '}',
        '',
      ].join('\n'),
    );
    const fleet = () => {
      const r = run(['bin/fleet.js', 'a', '--b']);
      assert.equal(r.code, 0, r.stderr);
      return { ...JSON.parse(r.stdout), stderr: r.stderr };
    };

    // Never built: the sources, silently.
    assert.deepEqual(fleet(), { from: 'src/cli/main.ts', argv: ['a', '--b'], note: 'read at run time\n', stderr: '' });

    const built = run(['scripts/build.mjs']);
    assert.equal(built.code, 0, built.stderr);
    assert.match(built.stderr, /^fleet: compiled 1 files and copied 1 into dist in \d+ ms\n$/);
    assert.equal(readFileSync(join(PKG, 'dist/cli/data/deep/note.txt'), 'utf8'), 'read at run time\n');
    assert.ok(existsSync(join(PKG, 'dist/cli/main.js.map')));
    assert.deepEqual(fleet(), { from: 'dist/cli/main.js', argv: ['a', '--b'], note: 'read at run time\n', stderr: '' });
    assert.equal(run(['scripts/build.mjs', '--if-stale']).stderr, '', '--if-stale built a current dist/ again');

    // A changed source: back to the sources, with a word why, until --if-stale builds again.
    writeFileSync(main, `${readFileSync(main, 'utf8')}// changed\n`);
    utimesSync(main, new Date(), new Date(Date.now() + 5000));
    const stale = fleet();
    assert.equal(stale.from, 'src/cli/main.ts');
    assert.equal(
      stale.stderr,
      'fleet: dist/ is older than src/; running src/ through tsx (npm run build compiles it again)\n',
    );
    assert.match(run(['scripts/build.mjs', '--if-stale']).stderr, /^fleet: compiled 1 files/);
    assert.equal(fleet().from, 'dist/cli/main.js');
    // --build-if-stale (npm start, npm run fleet): builds first, in the same process, then runs dist/.
    utimesSync(main, new Date(), new Date(Date.now() + 10_000));
    const rebuilt = run(['bin/fleet.js', '--build-if-stale', 'a', '--b']);
    assert.equal(rebuilt.code, 0, rebuilt.stderr);
    assert.match(rebuilt.stderr, /^fleet: compiled 1 files and copied 1 into dist in \d+ ms\n$/);
    assert.deepEqual(JSON.parse(rebuilt.stdout), {
      from: 'dist/cli/main.js',
      argv: ['a', '--b'],
      note: 'read at run time\n',
    });
    const again = run(['bin/fleet.js', '--build-if-stale', 'a']);
    assert.deepEqual([again.stderr, JSON.parse(again.stdout).from], ['', 'dist/cli/main.js']);
    // A removed data file changes the signature too.
    rmSync(join(PKG, 'src/cli/data/deep/note.txt'));
    assert.equal(
      run(['bin/fleet.js']).stderr.split('\n')[0],
      'fleet: dist/ is older than src/; running src/ through tsx (npm run build compiles it again)',
    );
  });

  it('bundles kysely and typebox into the build as packages of their own, at the installed versions', () => {
    for (const name of ['kysely', 'typebox']) {
      const installed = JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')).version;
      const bundled = JSON.parse(readFileSync(join(BUILD, 'node_modules', name, 'package.json'), 'utf8'));
      assert.deepEqual(
        [bundled.name, bundled.version, bundled.type, bundled.exports],
        [name, installed, 'module', './index.js'],
      );
    }
  });

  it('fleet --help loads no npm package and no database code', () => {
    // Node's module hooks see every file the process loads.
    const hooks = join(TMP, 'hooks.mjs');
    writeFileSync(
      hooks,
      [
        'export async function resolve(specifier, context, next) {',
        '  const r = await next(specifier, context);',
        "  if (r.url.startsWith('file:')) process.stderr.write(`LOADED ${r.url}\\n`);",
        '  return r;',
        '}',
      ].join('\n'),
    );
    const register = join(TMP, 'register.mjs');
    writeFileSync(
      register,
      `import { register } from 'node:module';\nregister(${JSON.stringify(new URL(`file://${hooks}`).href)});\n`,
    );
    for (const args of [['--help'], ['user', 'update', '--help'], ['vehicle', 'list', '--limit', 'x']]) {
      const r = spawnSync(process.execPath, ['--import', register, join(BUILD, 'cli/main.js'), ...args], {
        cwd: ROOT,
        encoding: 'utf8',
      });
      const loaded = [...r.stderr.matchAll(/^LOADED file:\/\/(.*)$/gm)].map((m) => m[1]);
      assert.ok(loaded.includes(join(BUILD, 'cli/main.js')), r.stderr);
      const heavy = loaded.filter(
        (f) =>
          !f.startsWith(`${BUILD}/`) ||
          f.includes('/node_modules/') ||
          (f.includes('/storage/') && !f.endsWith('/storage/values.js')),
      );
      assert.deepEqual(heavy, [], `fleet ${args.join(' ')}`);
    }
  });
});
