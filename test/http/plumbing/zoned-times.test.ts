/**
 * X-Time-Zone on answers (docs/reference/wire.md §2.3): each whole UTC datetime string of a JSON body becomes the
 * same instant in the zone with its numeric offset; nothing else in the body changes.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { zonedTimes } from '../../../src/http/plumbing/zoned-times.js';

describe('zonedTimes', () => {
  it('writes a datetime in the zone with its offset, in winter and summer', () => {
    assert.equal(
      zonedTimes('{"t":"2016-02-24T06:26:00Z"}', 'America/Los_Angeles'),
      '{"t":"2016-02-23T22:26:00-08:00"}',
    );
    assert.equal(zonedTimes('{"t":"2026-07-01T12:00:00Z"}', 'America/New_York'), '{"t":"2026-07-01T08:00:00-04:00"}');
    assert.equal(zonedTimes('{"t":"2026-07-01T12:00:00Z"}', 'Asia/Kolkata'), '{"t":"2026-07-01T17:30:00+05:30"}');
    // A zone at UTC's offset is still a zone: +00:00, as against Z for UTC itself.
    assert.equal(zonedTimes('{"t":"2026-01-01T12:00:00Z"}', 'Europe/London'), '{"t":"2026-01-01T12:00:00+00:00"}');
  });

  it("takes each instant's own offset across a DST change, and keeps fractions of a second", () => {
    // Chicago springs forward at 2026-03-08 08:00Z (02:00 CST → 03:00 CDT).
    assert.equal(
      zonedTimes('["2026-03-08T07:59:59Z","2026-03-08T08:00:00Z","2026-03-08T08:00:00.250Z"]', 'America/Chicago'),
      '["2026-03-08T01:59:59-06:00","2026-03-08T03:00:00-05:00","2026-03-08T03:00:00.250-05:00"]',
    );
    // It falls back at 2026-11-01 07:00Z: the same local hour twice, told apart by the offset.
    assert.equal(
      zonedTimes('["2026-11-01T06:30:00Z","2026-11-01T07:30:00Z"]', 'America/Chicago'),
      '["2026-11-01T01:30:00-05:00","2026-11-01T01:30:00-06:00"]',
    );
  });

  it('leaves dates, datetimes inside longer strings and escaped JSON alone', () => {
    const body =
      '{"date":"2016-02-24","note":"due 2016-02-24T06:26:00Z","log":"{\\"t\\":\\"2016-02-24T06:26:00Z\\"}","n":20160224}';
    assert.equal(zonedTimes(body, 'America/Los_Angeles'), body);
  });
});
