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
 *
 * `--no-allocation-site-pretenuring`: V8 allocates the objects of an allocation site straight in the old
 * generation once most of them survive a scavenge. A device batch's parsed records live until its
 * group commit has run (src/telemetry/store/tx.ts), long enough that many outlive a scavenge, so V8
 * pretenured them: every batch's records then went to the old generation as garbage, whose pages were
 * freed by each full collection and faulted in again (a tenth of the server's samples were page faults
 * and page clearing). Without it, 500-record batches cost 5–12 % less CPU on both databases and the
 * page faults fell tenfold; one-record batches and history requests measured the same
 * (docs/telemetry.md, Performance). V8 refuses this flag in NODE_OPTIONS: it goes on the command line.
 */
export const SERVER_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=32', '--no-allocation-site-pretenuring'];
