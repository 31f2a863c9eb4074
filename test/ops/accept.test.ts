/**
 * A busy node takes on a burst of connections ACCEPT_PER_TURN to a turn of its event loop (src/ops/accept.ts),
 * where Node by itself takes one; what the extra descriptors accept is served as any connection; closing the
 * app stops them all listening.
 */
import assert from 'node:assert/strict';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { test } from 'node:test';
import { eachDialect, makeApp, type TestApp } from '../helper.js';

const CONNECTIONS = 20;

/**
 * Opens `n` connections to the app while its event loop is blocked, so that the whole burst waits in the
 * listening socket's accept queue when the loop next polls, then counts how many connections each
 * following turn of the loop takes on (a chain of setImmediate marks the turns).
 */
async function burst(t: TestApp, port: number, n: number): Promise<{ sockets: Socket[]; perTurn: number[] }> {
  const perTurn: number[] = [0];
  let counting = true;
  const tick = () => {
    if (!counting) return;
    perTurn.push(0);
    setImmediate(tick);
  };
  const onConnection = () => perTurn[perTurn.length - 1]++;
  t.app.server.on('connection', onConnection);
  try {
    const sockets = Array.from({ length: n }, () => connect(port, '127.0.0.1'));
    // net.connect calls connect(2) on the next tick; then the loop is held while the kernel completes them.
    await new Promise((r) => process.nextTick(r));
    const end = Date.now() + 300;
    while (Date.now() < end);
    setImmediate(tick);
    const until = Date.now() + 10_000;
    while (perTurn.reduce((a, b) => a + b, 0) < n && Date.now() < until) await new Promise((r) => setTimeout(r, 5));
    counting = false;
    return { sockets, perTurn: perTurn.filter((c) => c > 0) };
  } finally {
    t.app.server.off('connection', onConnection);
  }
}

async function listening(dialect: 'sqlite' | 'postgres', perTurn: string): Promise<{ t: TestApp; port: number }> {
  const t = await makeApp(dialect, { ACCEPT_PER_TURN: perTurn });
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  await t.app.acceptors.ready;
  return { t, port: (t.app.server.address() as AddressInfo).port };
}

function get(socket: Socket, path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const onData = (chunk: Buffer) => {
      text += chunk.toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      const length = /content-length: (\d+)/i.exec(text);
      if (end >= 0 && length && text.length >= end + 4 + Number(length[1])) {
        socket.off('data', onData);
        resolve(text);
      }
    };
    socket.on('data', onData);
    socket.once('error', reject);
    socket.setTimeout(5000, () => reject(new Error(`no answer to GET ${path} within 5 s`)));
    socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`);
  });
}

eachDialect('a burst of connections', (dialect) => {
  test(`${dialect}: ACCEPT_PER_TURN=8 takes on 8 connections a turn, and Node alone (1) one`, async () => {
    for (const [setting, descriptors] of [
      ['8', 8],
      ['1', 1],
    ] as const) {
      const { t, port } = await listening(dialect, setting);
      try {
        assert.equal(t.app.acceptors.descriptors(), descriptors);
        const { sockets, perTurn: turns } = await burst(t, port, CONNECTIONS);
        for (const s of sockets) s.destroy();
        assert.equal(
          turns.reduce((a, b) => a + b, 0),
          CONNECTIONS,
        );
        assert.equal(Math.max(...turns), descriptors, `connections per turn: ${turns.join(', ')}`);
        assert.equal(turns[0], descriptors, `connections per turn: ${turns.join(', ')}`);
      } finally {
        await t.close();
      }
    }
  });

  test(`${dialect}: what the extra descriptors take on is served, kept alive, and closed with the app`, async () => {
    const { t, port } = await listening(dialect, '4');
    const sockets: Socket[] = [];
    try {
      const taken = await burst(t, port, 12);
      sockets.push(...taken.sockets);
      assert.deepEqual(taken.perTurn, [4, 4, 4]);
      for (const s of sockets) {
        for (let round = 0; round < 2; round++) {
          const answer = await get(s, '/healthz');
          assert.match(answer, /^HTTP\/1\.1 200 OK\r\n/);
          assert.match(answer, /\r\nx-content-type-options: nosniff\r\n/i);
          assert.match(answer, /\r\nconnection: keep-alive\r\n/i);
        }
      }
      const started = Date.now();
      await t.app.close();
      // Idle kept-alive connections are closed at once, whichever descriptor took them on.
      assert.ok(Date.now() - started < 3000, `closing took ${Date.now() - started} ms`);
      const refused = await new Promise<string>((resolve) => {
        const s = connect(port, '127.0.0.1');
        s.once('connect', () => {
          s.destroy();
          resolve('connected');
        });
        s.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
      });
      assert.equal(refused, 'ECONNREFUSED');
    } finally {
      for (const s of sockets) s.destroy();
      await t.close();
    }
  });

  test(`${dialect}: every connection made while the copies arrive is answered`, async () => {
    const t = await makeApp(dialect, { ACCEPT_PER_TURN: '8' });
    try {
      await t.app.listen({ host: '127.0.0.1', port: 0 });
      const port = (t.app.server.address() as AddressInfo).port;
      let ready = false;
      void t.app.acceptors.ready.then(() => (ready = true));
      const answers: string[] = [];
      // From the moment the node listens until well after the copies listen too (each connection is
      // taken on by whichever descriptor the kernel wakes first).
      for (let after = 0; after < 40; after += ready ? 1 : 0) {
        const s = connect(port, '127.0.0.1');
        try {
          answers.push((await get(s, '/healthz')).split('\r\n')[0]);
        } finally {
          s.destroy();
        }
      }
      assert.equal(t.app.acceptors.descriptors(), 8);
      assert.ok(answers.length > 40, `${answers.length} connections`);
      assert.deepEqual(new Set(answers), new Set(['HTTP/1.1 200 OK']));
    } finally {
      await t.close();
    }
  });

  test(`${dialect}: the server counts every descriptor's connections, and closing waits for their requests`, async () => {
    const { t, port } = await listening(dialect, '4');
    const sockets: Socket[] = [];
    try {
      const taken = await burst(t, port, 8);
      sockets.push(...taken.sockets);
      const perTurn = taken.perTurn;
      assert.deepEqual(perTurn, [4, 4]);
      // What a graceful close waits for: all eight, not only the two the first descriptor took on.
      const counted = await new Promise<number>((resolve, reject) =>
        t.app.server.getConnections((err, n) => (err ? reject(err) : resolve(n))),
      );
      assert.equal(counted, 8);
      // A request in flight on each (headers and the first byte of the body), then the close, then the rest.
      const bodies = sockets.map((s, i) => {
        const body = JSON.stringify({ number: `closing-${dialect}-${i}` });
        s.write(
          `POST /v1/vehicles HTTP/1.1\r\nHost: x\r\nX-Api-Key: ${t.company.apiKey}\r\n` +
            `Content-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n` +
            body.slice(0, 1),
        );
        return body.slice(1);
      });
      await new Promise((r) => setTimeout(r, 200));
      let closedAt = 0;
      const closing = t.app.close().then(() => (closedAt = Date.now()));
      await new Promise((r) => setTimeout(r, 50));
      for (const [i, s] of sockets.entries()) {
        // Connection i is open with a request in flight: the close cannot have finished.
        assert.equal(closedAt, 0, `the app closed while connection ${i} had a request in flight`);
        const answer = new Promise<string>((resolve, reject) => {
          let text = '';
          s.on('data', (c: Buffer) => (text += c.toString('latin1')));
          s.once('end', () => resolve(text));
          s.once('error', reject);
          s.setTimeout(5000, () => reject(new Error(`no answer on connection ${i} within 5 s`)));
        });
        s.write(bodies[i]);
        assert.match(await answer, /^HTTP\/1\.1 201 Created\r\n/);
      }
      await closing;
    } finally {
      for (const s of sockets) s.destroy();
      await t.close();
    }
  });
});
