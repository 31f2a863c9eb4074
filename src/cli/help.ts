/**
 * The `fleet` help texts, built from the command registry: the overview (`fleet --help`), one
 * command's help (`fleet user update --help`), a group's (`fleet user --help`), the short block under a
 * usage error, and the shell completion script (`fleet completion`).
 */
import type { Command } from './io.js';

export type Registry = Record<string, Command>;

const WIDTH = 100;

/** Words of `text` in lines of at most `width` characters, every line after the first indented. */
export function wrap(text: string, width = WIDTH, indent = '    '): string {
  const lead = /^ */.exec(text)![0];
  const lines: string[] = [];
  let line = lead;
  for (const word of text.slice(lead.length).split(' ')) {
    if (line.trim() && (line + ' ' + word).length > width) {
      lines.push(line);
      line = indent + word;
    } else line = line.trim() ? `${line} ${word}` : line + word;
  }
  return [...lines, line].join('\n');
}

const COMMON = [
  'Every command:',
  '  --json        Print one JSON object on stdout (ids as "id", secrets under their own names).',
  "  -h, --help    Show the command's help.",
  '  DATABASE_URL  sqlite:<path> (default sqlite:./data/fleet.db) or postgres://…, as for the server.',
];

/** The first word of each command (`user`, `serve`), in the registry's order. */
export function groups(commands: Registry): string[] {
  return [...new Set(Object.keys(commands).map((name) => name.split(' ')[0]))];
}

export function overview(commands: Registry): string {
  const names = groups(commands).flatMap((g) => Object.keys(commands).filter((n) => n.split(' ')[0] === g));
  const pad = Math.max(...names.map((n) => n.length)) + 2;
  return [
    'Usage: fleet <command> [options]',
    '',
    'Commands:',
    ...names.map((n) => wrap(`  ${n.padEnd(pad)}${commands[n].summary}`, WIDTH, ' '.repeat(pad + 2))),
    '',
    '`fleet <command> --help` (or `fleet help <command>`) shows what a command takes.',
    '',
    ...COMMON,
    '  PORT, HOST, LOG_LEVEL, SHUTDOWN_GRACE_MS, …  Server settings (serve; README.md, Configuration).',
    '',
    'Exit codes: 0 done; 1 refused or failed (the message, or {"error_message": …} with --json); 2 wrong usage.',
    '',
  ].join('\n');
}

export function commandHelp(name: string, c: Command): string {
  return [
    wrap(`Usage: fleet ${c.usage}`),
    '',
    wrap(c.summary, WIDTH, ''),
    ...(c.details?.length ? ['', ...c.details.map((d) => wrap(d, WIDTH, '  '))] : []),
    '',
    ...COMMON,
    '',
  ].join('\n');
}

/** The commands of one group, e.g. every `user …`. */
export function groupHelp(group: string, commands: Registry): string {
  const names = Object.keys(commands).filter((n) => n.split(' ')[0] === group);
  return [
    `Usage: fleet ${group} <command> [options]`,
    '',
    ...names.flatMap((n) => [
      wrap(`  fleet ${commands[n].usage}`, WIDTH, '      '),
      wrap(`      ${commands[n].summary}`, WIDTH, '      '),
    ]),
    '',
    `\`fleet ${group} <command> --help\` shows what a command takes.`,
    '',
  ].join('\n');
}

/** Under a usage error: the command's synopsis and where to read more. */
export function usageBlock(name: string, c: Command): string {
  return `${wrap(`Usage: fleet ${c.usage}`)}\nMore: fleet ${name} --help\n`;
}

/** Under an unknown command: the group's synopses when the first word is a group, else the command names. */
export function unknownBlock(first: string | undefined, commands: Registry): string {
  const names = Object.keys(commands).filter((n) => first !== undefined && n.split(' ')[0] === first);
  if (names.length > 0) {
    return `Usage:\n${names.map((n) => wrap(`  fleet ${commands[n].usage}`, WIDTH, '      ')).join('\n')}\nMore: fleet ${first} <command> --help\n`;
  }
  return `${wrap(`Commands: ${groups(commands).join(', ')}`, WIDTH, '  ')}\nMore: fleet --help\n`;
}

const flagWords = (c: Command) => ['--json', '--help', ...Object.entries(c.flags).map(([f]) => `--${f}`)].join(' ');

/**
 * A bash completion script (zsh runs it through bashcompinit): command words, then each command's
 * flags; anything else completes as file names.
 */
export function completionScript(commands: Registry, shell: 'bash' | 'zsh'): string {
  const sub = groups(commands)
    .map((g) => {
      const words = Object.keys(commands)
        .filter((n) => n.startsWith(`${g} `))
        .map((n) => n.slice(g.length + 1));
      return words.length
        ? `    ${g}) [ "$COMP_CWORD" -eq 2 ] && { COMPREPLY=($(compgen -W "${words.join(' ')}" -- "$cur")); return; } ;;`
        : '';
    })
    .filter(Boolean);
  const flags = Object.entries(commands).map(([n, c]) =>
    n.includes(' ') ? `    "${n}") words="${flagWords(c)}" ;;` : `    "${n} "*) words="${flagWords(c)}" ;;`,
  );
  return [
    `# fleet shell completion (${shell}). Load it with: source <(fleet completion ${shell})`,
    ...(shell === 'zsh' ? ['autoload -U +X bashcompinit && bashcompinit'] : []),
    '_fleet() {',
    '  local cur=${COMP_WORDS[COMP_CWORD]} words=""',
    `  if [ "$COMP_CWORD" -eq 1 ]; then COMPREPLY=($(compgen -W "${groups(commands).join(' ')} help" -- "$cur")); return; fi`,
    '  case "${COMP_WORDS[1]}" in',
    ...sub,
    '  esac',
    '  [[ "$cur" == -* ]] || return',
    '  case "${COMP_WORDS[1]} ${COMP_WORDS[2]}" in',
    ...flags,
    '  esac',
    '  COMPREPLY=($(compgen -W "$words" -- "$cur"))',
    '}',
    'complete -o default -F _fleet fleet',
    '',
  ].join('\n');
}
