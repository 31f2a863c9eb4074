/**
 * Taking on a burst of new connections while the event loop is busy.
 *
 * libuv (1.45 and later, so Node 20) accepts one connection per listening descriptor each time its event
 * loop polls (libuv/libuv#3696). A saturated node's turns last 100–150 ms, so when hundreds of clients
 * connect at once the last of them wait in the kernel's accept queue for seconds before their first
 * request is even read: the load shedder cannot answer a request it has not accepted (bench/RESULTS.md,
 * Overload; measured: 37 of 200 connections taken on within 2 s by a loop whose turns take 50 ms).
 *
 * So the node listens through several descriptors of its one listening socket. Each is polled on its own,
 * so one turn takes on up to ACCEPT_PER_TURN connections (all 200 within 0.65 s at 64, in the same
 * measurement). Node 20 can neither duplicate a descriptor nor bind a port twice (no `reusePort`), so a
 * short-lived helper process is sent the listening socket over IPC and sends it back n − 1 times: each
 * copy arrives as a new descriptor of the same socket (SCM_RIGHTS). The connections they accept are handed
 * to the HTTP server as its own (its 'connection' event), so they are parsed, timed out, counted and
 * closed exactly as the others.
 *
 * The price: one new connection wakes every descriptor, and all but one find nothing to accept. Measured
 * with a connection per request (20,000, a trivial server): no difference at 16 or 32 descriptors, 13 µs
 * more a connection at 64; a kept-alive connection pays it once. If the helper cannot run, the node keeps
 * its one descriptor and logs why.
 */
import { spawn } from 'node:child_process';
import type { Server } from 'node:net';
import type { FastifyInstance } from 'fastify';

/**
 * The helper: sends back the listening socket it is sent, as many times as its argument says. It is sent
 * the socket's bare handle, not a net.Server: a server would start listening in the helper, whose loop
 * would then accept (and, on exit, drop) connections meant for the node.
 */
const ECHO = `const n=Number(process.argv[1]);process.on('message',(m,h)=>{for(let i=0;i<n;i++)process.send('listener',h)});process.on('disconnect',()=>process.exit(0))`;
const HELPER_TIMEOUT_MS = 10_000;

/** A libuv handle of a listening socket, as Node's IPC sends and receives it (not listened on). */
type NativeHandle = { close(): void };

/** What Node's net.Server sets on its listening handle (lib/net.js, setupListenHandle). */
interface ListeningHandle extends NativeHandle {
  onconnection: unknown;
  listen(backlog: number): number;
  [owner: symbol]: unknown;
}

/**
 * Listens on `copy` as `server` listens on its own handle: the same connection callback, owned by the
 * server. Node's net.Server does exactly this to the handle it listens on (lib/net.js); done here for a
 * second handle, the server counts, configures and waits for its connections as for its own. Undocumented
 * internals (the handle's `onconnection` and `owner_symbol`), so it refuses, rather than guesses, when
 * they are not as expected; test/ops/accept.test.ts checks the result on the Node version in use.
 */
function attachTo(server: Server, copy: NativeHandle): void {
  const own = (server as unknown as { _handle?: ListeningHandle | null })._handle;
  const owner = own && Object.getOwnPropertySymbols(own).find((s) => s.description === 'owner_symbol');
  if (!own || !owner || own[owner] !== server || typeof own.onconnection !== 'function') {
    throw new Error("the server's listening handle is not as Node 20 sets it");
  }
  const handle = copy as ListeningHandle;
  handle.onconnection = own.onconnection;
  handle[owner] = server;
  const err = handle.listen(511);
  if (err) throw new Error(`listening on a copy failed (${err})`);
}

/**
 * n more descriptors of `server`'s listening socket, as bare handles that nothing listens on yet (none if
 * n < 1). Whoever listens on one must be ready to take its connections at once.
 */
export function copiesOf(server: Server, n: number): Promise<NativeHandle[]> {
  // The libuv handle of the listening socket (what Node's cluster module sends too): undocumented, but
  // the only thing that can be sent without being listened on at the other end.
  const native = (server as unknown as { _handle?: NativeHandle | null })._handle;
  if (n < 1 || !native) return Promise.resolve([]);
  const helper = spawn(process.execPath, ['-e', ECHO, String(n)], {
    stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
    env: {},
  });
  const copies: NativeHandle[] = [];
  return new Promise<NativeHandle[]>((resolve, reject) => {
    let settled = false;
    const fail = (why: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      for (const copy of copies) copy.close();
      reject(new Error(`the listening socket's copies: ${why} after ${copies.length} of ${n}`));
    };
    const timer = setTimeout(() => fail(`no answer within ${HELPER_TIMEOUT_MS} ms`), HELPER_TIMEOUT_MS).unref();
    helper.once('error', (err) => fail(err.message));
    helper.once('exit', (code) => fail(`the helper exited (${code})`));
    helper.on('message', (m, handle) => {
      if (m !== 'listener' || !handle) return;
      copies.push(handle as unknown as NativeHandle);
      if (copies.length < n || settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(copies);
    });
    helper.send('listener', native as unknown as Server);
  }).finally(() => {
    if (helper.connected) helper.disconnect();
  });
}

export interface Acceptors {
  /** How many descriptors the listening socket is polled through (1 until the copies have arrived). */
  descriptors(): number;
  /** Settles once the copies are in place (or have failed, which is logged). */
  ready: Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    acceptors: Acceptors;
  }
}

/** Polls the app's listening socket through `perTurn` descriptors once it listens (src/plugins.ts). */
export function installAcceptors(app: FastifyInstance, perTurn: number): void {
  let copies: NativeHandle[] = [];
  let closing = false;
  let settle: () => void = () => {};
  const ready = new Promise<void>((resolve) => (settle = resolve));
  app.decorate('acceptors', { descriptors: () => 1 + copies.length, ready });
  if (perTurn <= 1) settle();
  const closeAll = (handles: NativeHandle[]) => handles.forEach((handle) => handle.close());

  app.addHook('onListen', (done) => {
    done();
    if (perTurn <= 1) return;
    copiesOf(app.server, perTurn - 1)
      .then((handles) => {
        if (closing) return closeAll(handles);
        try {
          for (const handle of handles) attachTo(app.server, handle);
        } catch (err) {
          closeAll(handles);
          throw err;
        }
        copies = handles;
      })
      .catch((err: Error) => app.log.warn({ err: { message: err.message } }, 'listening through one descriptor only'))
      .finally(settle);
  });
  // With the listening socket itself, before the in-flight requests are waited for.
  app.addHook('preClose', (done) => {
    closing = true;
    closeAll(copies);
    copies = [];
    done();
  });
}
