/**
 * The Node flags a server process runs with. V8 sizes its heap when the process starts, so these
 * cannot be set from inside the program: they are written out where a server starts — the first line
 * of bin/fleet.js, the `start` and `fleet` scripts of package.json — and the benchmark's server process
 * takes them from here (bench/lib/server-process.ts). test/config/node-flags.test.ts checks that all agree.
 *
 * `--max-semi-space-size=32` (MiB): the young generation, where nearly every object of a request is
 * born and dies. Node 20's default is much smaller, so a 500-record device batch (one parsed record,
 * one row, one history text and one result per record) filled it several times over, and the
 * scavenges cost about a tenth of the server's CPU. With 32 MiB, sustained ingestion on SQLite went
 * from 41–47k to 52–56k records/s on the same host in the same hour (docs/telemetry.md, Performance).
 * The price is memory: the young generation may grow to three semi-spaces, about 96 MiB.
 */
export const SERVER_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=32'];
