/**
 * A real SMTP server on 127.0.0.1 for the alert email tests (the `smtp-server` package): it asks for
 * the user and password of SMTP_URL, keeps every message it accepts, and can refuse recipients for a
 * while (a temporary 451 or a permanent 550) the way a mail server does.
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface Received {
  from: string;
  to: string[];
  subject: string;
  text: string;
}

export const SMTP_USER = 'fleet';
export const SMTP_PASS = 'mail-secret';

/** Quoted-printable body text (soft line breaks and =XX escapes), CRLF as LF. */
function decodeQp(s: string): string {
  const bytes = s
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8').replace(/\r\n/g, '\n');
}

function parse(raw: string): Pick<Received, 'subject' | 'text'> {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const body = raw.slice(split + 4);
  const header = (name: string) => new RegExp(`^${name}: (.*)$`, 'im').exec(head)?.[1] ?? '';
  const qp = /quoted-printable/i.test(header('Content-Transfer-Encoding'));
  return { subject: header('Subject'), text: qp ? decodeQp(body) : body.replace(/\r\n/g, '\n') };
}

export async function startSmtp() {
  const messages: Received[] = [];
  /** Recipients refused next: each entry answers one RCPT TO. */
  const refusals: Array<{ code: number; message: string }> = [];
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, cb) {
      if (auth.username === SMTP_USER && auth.password === SMTP_PASS) cb(null, { user: auth.username });
      else cb(new Error('Invalid username or password'));
    },
    onRcptTo(_address, _session, cb) {
      const r = refusals.shift();
      if (!r) return cb();
      cb(Object.assign(new Error(r.message), { responseCode: r.code }));
    },
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        messages.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          ...parse(Buffer.concat(chunks).toString('utf8')),
        });
        cb();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://${SMTP_USER}:${SMTP_PASS}@127.0.0.1:${port}`,
    messages,
    refusals,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
