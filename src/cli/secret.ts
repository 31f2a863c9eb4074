/**
 * A password for a command, kept off the command line (where `ps` and the shell's history would show
 * it): typed twice without echo on a terminal, or the first line of standard input when it is piped
 * (`printf '%s\n' "$PW" | fleet user set-password …`). `--password` still works, for scripts.
 */
import { UsageError, type Flags } from './io.js';

/** Reads one line typed on the terminal without echoing it; Ctrl-C or Ctrl-D cancels. */
function typed(question: string): Promise<string> {
  const stdin = process.stdin;
  process.stderr.write(question);
  stdin.setRawMode(true);
  stdin.setEncoding('utf8');
  stdin.resume();
  return new Promise((resolve, reject) => {
    let value = '';
    const done = () => {
      stdin.off('data', onData);
      stdin.setRawMode(false);
      stdin.pause();
      process.stderr.write('\n');
    };
    const onData = (chunk: string) => {
      for (const ch of chunk) {
        if (ch === '\r' || ch === '\n') return (done(), resolve(value));
        if (ch === '\u0003' || ch === '\u0004') return (done(), reject(new Error('cancelled')));
        value = ch === '\u007f' || ch === '\b' ? value.slice(0, -1) : value + ch;
      }
    };
    stdin.on('data', onData);
  });
}

async function piped(): Promise<string> {
  let text = '';
  for await (const chunk of process.stdin) text += String(chunk);
  return text.split(/\r?\n/)[0] ?? '';
}

/** `--password`, else what is typed (twice, the same) or piped; an empty one is a usage error. */
export async function passwordFrom(flags: Flags): Promise<string> {
  if (typeof flags.password === 'string') {
    if (flags.password === '') throw new UsageError('--password must not be empty');
    return flags.password;
  }
  let password: string;
  if (process.stdin.isTTY) {
    password = await typed('New password: ');
    if (password !== '' && (await typed('The same again: ')) !== password)
      throw new UsageError('the two passwords differ');
  } else {
    password = await piped();
  }
  if (password === '')
    throw new UsageError('a password is required: type it when asked, pipe it on standard input, or give --password');
  return password;
}
