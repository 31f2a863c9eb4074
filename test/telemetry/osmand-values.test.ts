/**
 * OsmAnd parameters with text one database stores and the other refuses (a NUL, a lone surrogate) are a
 * text 400 naming the parameter, alike on both databases, before the device is looked up; nothing is
 * stored. Unknown parameters, which the listener ignores, are held to the same rule.
 */
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { eachDialect, type TestApp } from '../helper.js';
import type { OsmandServer } from '../../src/telemetry/osmand.js';
import { useOsmandRig, type Rig } from './fixtures.js';

const NUL = 'must not contain a NUL character (\\u0000)';
const SURROGATE = 'must not contain a lone UTF-16 surrogate (half of a surrogate pair)';

eachDialect('OsmAnd listener: text the databases disagree on', (dialect) => {
  const o = useOsmandRig(dialect);
  let t: TestApp;
  let osmand: OsmandServer;
  let phone: Rig;
  before(() => void ({ t, osmand, phone } = o));
  const stored = o.stored;
  const position = () => `lat=41.25&lon=-95.99&timestamp=${Math.floor(Date.now() / 1000) - 60}`;
  const answer = async (res: Response) => [res.status, res.headers.get('content-type'), await res.text()];

  test('a NUL in a parameter, read or ignored, or in a parameter name: text 400 naming it, nothing stored', async () => {
    const cases: Array<[string, string]> = [
      [`id=SN%00X&${position()}`, `id ${NUL}`],
      [`id=${phone.device.identifier}&${position()}&hdop=1%00`, `hdop ${NUL}`],
      [`id=${phone.device.identifier}&${position()}&x%00y=1`, `a parameter name ${NUL}`],
      [`id=${phone.device.identifier}&lat=41.25&lon=-95.99&timestamp=%00`, `timestamp ${NUL}`],
    ];
    for (const [query, message] of cases) {
      assert.deepEqual(await answer(await fetch(`${osmand.url}/?${query}`)), [400, 'text/plain', message], query);
      const form = await fetch(`${osmand.url}/`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: query,
      });
      assert.deepEqual(
        await answer(form),
        [400, 'text/plain', message.replace('a parameter name', 'a key of the body')],
        `form body ${query}`,
      );
    }
    assert.equal(await stored(), 0);
  });

  test("a lone surrogate in the JSON body (the Traccar Client's): text 400 naming the field, nothing stored", async () => {
    const body = (extra: Record<string, unknown>) =>
      JSON.stringify({
        device_id: phone.device.identifier,
        location: {
          timestamp: new Date(Date.now() - 60_000).toISOString(),
          coords: { latitude: 41.25, longitude: -95.99 },
          ...extra,
        },
      });
    const res = await fetch(`${osmand.url}/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: body({ extras: { note: 'a\uD800' } }),
    });
    assert.deepEqual(await answer(res), [400, 'text/plain', `location.extras.note ${SURROGATE}`]);
    assert.equal(await stored(), 0);
    // The same position without it is stored.
    const fine = await fetch(`${osmand.url}/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: body({ extras: { note: 'a' } }),
    });
    assert.deepEqual(await answer(fine), [200, null, '']);
    assert.equal(await stored(), 1);
  });
});
