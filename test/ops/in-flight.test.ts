/**
 * How load shedding counts the work in flight (src/ops/in-flight.ts): from a request's headers, one
 * plus one per full 8 KiB of body, corrected to the body's real size once it is in; an upload past
 * its grace stops counting until its body is in.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BODY_UNIT_BYTES, InFlightWork, UPLOAD_GRACE_MS, weightOf } from '../../src/ops/in-flight.js';

test('a request weighs one, plus one for every full 8 KiB of its body', () => {
  assert.deepEqual(
    [0, 1, BODY_UNIT_BYTES - 1, BODY_UNIT_BYTES, 95_000, 1_048_576].map(weightOf),
    [1, 1, 1, 2, 12, 129],
  );
});

test("counted from the headers, settled at the body's real size, released once", () => {
  let now = 0;
  const work = new InFlightWork(() => now);
  const read = work.admit(1, false);
  const upload = work.admit(weightOf(20_000), true); // Content-Length said 20,000: 3
  assert.equal(work.count, 4);
  work.settle(upload, weightOf(100_000)); // gzipped: 100,000 once inflated, 13
  assert.equal(work.count, 14);
  work.settle(upload, 1); // settled once only
  assert.equal(work.count, 14);
  work.release(read);
  work.release(read);
  assert.equal(work.count, 13);
  work.release(upload);
  assert.equal(work.count, 0);
});

test(`an upload unfinished ${UPLOAD_GRACE_MS} ms after its headers stops counting until its body is in`, () => {
  let now = 0;
  const work = new InFlightWork(() => now);
  const slow = work.admit(3, true);
  now = 400;
  const later = work.admit(2, true);
  now = UPLOAD_GRACE_MS - 1;
  assert.equal(work.count, 5);
  now = UPLOAD_GRACE_MS + 100;
  assert.equal(work.count, 2, 'the first upload is past its grace, the second is not');
  now = UPLOAD_GRACE_MS + 500;
  assert.equal(work.count, 0);
  work.settle(slow, 4);
  assert.equal(work.count, 4, 'counted again once its body is in');
  work.release(later); // its connection dropped mid-upload: nothing more to take off
  assert.equal(work.count, 4);
  work.release(slow);
  assert.equal(work.count, 0);
});
