import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { dayWindow, localDate, requestTimeZone, startOfDay } from '../../../src/core/time-zone.js';

const req = (tz?: string) => ({ headers: tz === undefined ? {} : { 'x-time-zone': tz } });

describe('X-Time-Zone', () => {
  it('maps the Rails zone names to IANA zones', () => {
    assert.equal(requestTimeZone(req('Eastern Time (US & Canada)')), 'America/New_York');
    assert.equal(requestTimeZone(req('Arizona')), 'America/Phoenix');
    assert.equal(requestTimeZone(req('Atlantic Time (Canada)')), 'America/Halifax');
    assert.equal(requestTimeZone(req('Alaska')), 'America/Juneau');
  });

  it('falls back to UTC for a missing or unknown zone instead of failing', () => {
    assert.equal(requestTimeZone(req()), 'UTC');
    assert.equal(requestTimeZone(req('Mars Standard Time')), 'UTC');
    assert.equal(requestTimeZone(req('')), 'UTC');
  });

  it('puts local midnight at the right UTC instant, in winter and summer', () => {
    assert.equal(startOfDay('2026-01-15', 'America/New_York').toISOString(), '2026-01-15T05:00:00.000Z');
    assert.equal(startOfDay('2026-07-15', 'America/New_York').toISOString(), '2026-07-15T04:00:00.000Z');
    assert.equal(startOfDay('2026-07-15', 'America/Phoenix').toISOString(), '2026-07-15T07:00:00.000Z');
    assert.equal(startOfDay('2026-07-15', 'UTC').toISOString(), '2026-07-15T00:00:00.000Z');
  });

  it('gives a 23-hour day when clocks spring forward and 25 hours when they fall back', () => {
    const spring = dayWindow('2026-03-08', '2026-03-08', 'America/Chicago');
    assert.equal(spring.start.toISOString(), '2026-03-08T06:00:00.000Z');
    assert.equal((spring.end.getTime() - spring.start.getTime()) / 3_600_000, 23);
    const fall = dayWindow('2026-11-01', '2026-11-01', 'America/Chicago');
    assert.equal((fall.end.getTime() - fall.start.getTime()) / 3_600_000, 25);
  });

  it('reads an inclusive date range as whole local days', () => {
    const w = dayWindow('2026-02-01', '2026-02-03', 'America/Los_Angeles');
    assert.equal(w.start.toISOString(), '2026-02-01T08:00:00.000Z');
    assert.equal(w.end.toISOString(), '2026-02-04T08:00:00.000Z');
  });

  it('tells the local date of an instant', () => {
    assert.equal(localDate(Date.parse('2026-02-01T03:00:00Z'), 'America/New_York'), '2026-01-31');
    assert.equal(localDate(Date.parse('2026-02-01T05:00:00Z'), 'America/New_York'), '2026-02-01');
  });
});
