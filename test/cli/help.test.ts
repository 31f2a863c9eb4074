/**
 * `fleet` help and usage errors, run as real processes (test/cli-process.ts): `--help` for every
 * command shows that command only; a usage error shows its message first, then only that command's
 * usage (exit 2); the shell completion script is valid bash and completes commands and flags.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { COMMANDS } from '../../src/cli/main.js';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '../../src/auth/password-policy.js';
import { fleet, jsonOf, type Run } from '../cli-process.js';

// A database the CLI cannot open: a command that touched it would fail with 1, not show help or 2.
const env = { DATABASE_URL: 'sqlite:/nonexistent/fleet-cli-help/fleet.db' };
const squash = (s: string) => s.replace(/\s+/g, ' ').trim();

/** Runs `fleet` for each argument list, four at a time. */
async function runAll(cases: string[][], opts: { stdin?: string } = {}): Promise<Run[]> {
  const out: Run[] = [];
  for (let i = 0; i < cases.length; i += 4)
    out.push(...(await Promise.all(cases.slice(i, i + 4).map((args) => fleet(args, env, opts)))));
  return out;
}

describe('fleet help', () => {
  it('no arguments, help, --help and -h print the overview of every command', async () => {
    const runs = await runAll([[], ['help'], ['--help'], ['-h']]);
    for (const r of runs) {
      assert.equal(r.code, 0);
      assert.equal(r.stderr, '');
      assert.equal(r.stdout, runs[0].stdout);
    }
    const text = runs[0].stdout;
    assert.match(text, /^Usage: fleet <command> \[options\]\n\nCommands:\n {2}serve +Run the API server/);
    for (const [name, c] of Object.entries(COMMANDS)) {
      assert.ok(squash(text).includes(`${name} ${squash(c.summary)}`), `the overview lacks ${name}`);
    }
    assert.match(text, /`fleet <command> --help` \(or `fleet help <command>`\) shows what a command takes\./);
  });

  it('<command> --help shows that command: its usage, what it does, its details, nothing of the others', async () => {
    const names = Object.keys(COMMANDS);
    const runs = await runAll(names.map((n) => [...n.split(' '), '--help']));
    for (const [i, name] of names.entries()) {
      const r = runs[i];
      const c = COMMANDS[name];
      assert.equal(r.code, 0, `${name} --help: ${r.stderr}`);
      assert.ok(
        squash(r.stdout).startsWith(`Usage: fleet ${squash(c.usage)} ${squash(c.summary)}`),
        `${name} --help:\n${r.stdout}`,
      );
      for (const d of c.details ?? []) assert.ok(squash(r.stdout).includes(squash(d)), `${name} --help lacks: ${d}`);
      assert.match(r.stdout, /\n {2}--json +Print one JSON object on stdout/);
      const others = names.filter((n) => n !== name && !n.startsWith(`${name} `) && !name.startsWith(`${n} `));
      for (const o of others)
        assert.ok(!squash(r.stdout).includes(`fleet ${squash(COMMANDS[o].usage)}`), `${name} --help shows ${o}`);
    }
  });

  it('help <command>, -h and --help among other flags show the same', async () => {
    const [a, b, c, d] = await runAll([
      ['help', 'user', 'set-password'],
      ['user', 'set-password', '-h'],
      ['user', 'set-password', '--company', '1', '--help'],
      ['user', 'set-password', '--help', '--bogus'],
    ]);
    for (const r of [b, c, d]) assert.equal(r.stdout, a.stdout);
    // The password rule it states is the policy's.
    assert.ok(squash(a.stdout).includes(`${MIN_PASSWORD_LENGTH} to ${MAX_PASSWORD_LENGTH} characters`), a.stdout);
  });

  it('<group> --help lists the commands of the group', async () => {
    const [r] = await runAll([['vehicle', '--help']]);
    assert.equal(r.code, 0);
    const usages = Object.entries(COMMANDS)
      .filter(([n]) => n.startsWith('vehicle '))
      .map(([, c]) => `fleet ${squash(c.usage)} ${squash(c.summary)}`);
    assert.equal(
      squash(r.stdout),
      squash(
        `Usage: fleet vehicle <command> [options] ${usages.join(' ')} \`fleet vehicle <command> --help\` shows what a command takes.`,
      ),
    );
  });
});

describe('fleet usage errors', () => {
  it("show the message first, then only the command's usage, and exit 2 without touching the database", async () => {
    const cases = [
      [['company', 'create', '--json'], 'company create', '--name is required'],
      [['company', 'create', '--name', 'X', '--colour', 'red'], 'company create', "Unknown option '--colour'"],
      [
        ['user', 'create', '--company', '1', '--role', 'boss', '--email', 'a@b.c', '--password', 'p'],
        'user create',
        '--role must be one of: driver, admin, fleet_user',
      ],
      [['api-key', 'revoke', '--id', 'abc'], 'api-key revoke', '--id must be a positive whole number, got "abc"'],
      [
        ['user', 'update', '--company', '1', '--id', '2'],
        'user update',
        'nothing to change: give at least one of --email, --username, --first-name, --last-name, --phone, --time-zone, --role, --status',
      ],
      [
        ['user', 'update', '--company', '1', '--id', '2', '--status', 'gone'],
        'user update',
        '--status must be one of: active, deactivated',
      ],
      [['user', 'update', '--company', '1', '--id', '2', '--phone', ''], 'user update', '--phone must not be empty'],
      [
        ['user', 'set-password', '--company', '1', '--id', '2'],
        'user set-password',
        'a password is required: type it when asked, pipe it on standard input, or give --password',
      ],
      [
        ['user', 'list', '--company', 'acme'],
        'user list',
        '--company must be a company id (1) or code (FP0000001), got "acme"',
      ],
      [
        ['user', 'list', '--company', '1', '--limit', '0'],
        'user list',
        '--limit must be a positive whole number, got "0"',
      ],
      [['vehicle', 'list', '--company', '1', '--limit', '1001'], 'vehicle list', '--limit must be at most 1000'],
      [
        ['vehicle', 'update', '--company', '1', '--id', '1', '--year', '123456789'],
        'vehicle update',
        '--year must be at most 8 characters long',
      ],
      [['vehicle', 'deactivate', '--company', '1'], 'vehicle deactivate', '--id is required'],
      [['device', 'show', '--id', '1'], 'device show', '--company is required'],
      [
        ['company', 'show', '--id', 'x1', '--json'],
        'company show',
        '--id must be a company id (1) or code (FP0000001), got "x1"',
      ],
      [['completion', '--shell', 'fish'], 'completion', '--shell must be bash or zsh'],
    ] as const;
    const runs = await runAll(cases.map(([args]) => [...args]));
    for (const [i, [args, name, message]] of cases.entries()) {
      const r = runs[i];
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
      // With --json the one object on stdout names the problem too.
      assert.equal(
        r.stdout,
        (args as readonly string[]).includes('--json') ? `${JSON.stringify({ error_message: message })}\n` : '',
      );
      const lines = r.stderr.trimEnd().split('\n');
      assert.equal(lines[0], `fleet: ${message}`);
      assert.equal(squash(lines.slice(1, -1).join(' ')), `Usage: fleet ${squash(COMMANDS[name].usage)}`);
      assert.equal(lines.at(-1), `More: fleet ${name} --help`);
    }
  });

  it("an unknown command lists the commands, an unknown one of a group the group's usages", async () => {
    const [unknown, inGroup, bare, json] = await runAll([['frobnicate'], ['company', 'delete'], ['user'], ['--json']]);
    assert.equal(unknown.code, 2);
    const groups = [...new Set(Object.keys(COMMANDS).map((n) => n.split(' ')[0]))];
    assert.equal(
      squash(unknown.stderr),
      squash(`fleet: unknown command: frobnicate Commands: ${groups.join(', ')} More: fleet --help`),
    );
    assert.equal(inGroup.code, 2);
    const companyUsages = Object.entries(COMMANDS)
      .filter(([n]) => n.startsWith('company '))
      .map(([, c]) => `fleet ${squash(c.usage)}`);
    assert.equal(
      squash(inGroup.stderr),
      squash(
        `fleet: unknown command: company delete Usage: ${companyUsages.join(' ')} More: fleet company <command> --help`,
      ),
    );
    assert.equal(bare.code, 2);
    assert.match(bare.stderr, /^fleet: user needs a command\nUsage:\n {2}fleet user create /);
    assert.equal(json.code, 2);
    assert.deepEqual(jsonOf(json), { error_message: 'a command is required' });
  });
});

describe('fleet completion', () => {
  it("prints a bash script that completes command words and each command's flags", async () => {
    const [bash, zsh] = await runAll([['completion'], ['completion', '--shell', 'zsh']]);
    assert.equal(bash.code, 0);
    assert.equal(spawnSync('bash', ['-n'], { input: bash.stdout }).status, 0, 'bash -n rejects the script');
    assert.match(
      zsh.stdout,
      /^# fleet shell completion \(zsh\)[^\n]*\nautoload -U \+X bashcompinit && bashcompinit\n_fleet\(\) \{/,
    );
    const complete = (...words: string[]) =>
      spawnSync(
        'bash',
        [
          '-c',
          `${bash.stdout}\nCOMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _fleet; echo "\${COMPREPLY[@]}"`,
        ],
        { encoding: 'utf8' },
      ).stdout.trim();
    assert.equal(complete('fleet', 've'), 'vehicle');
    assert.equal(complete('fleet', 'user', 's'), 'show set-password');
    assert.equal(
      complete('fleet', 'vehicle', 'update', '--company', '1', '--li'),
      '--license-plate-number --license-plate-state',
    );
    assert.equal(complete('fleet', 'serve', '--d'), '--demo');
    assert.equal(complete('fleet', 'user', 'list', 'x'), '');
  });
});
