/**
 * The console map's offline base layer and its tile setting: the outlines and the place names by zoom
 * need a console session, come gzipped with an ETag (304 for the browser's copy), hold big cities at a
 * low zoom and smaller places only closer in, and the tile layer (MAP_TILE_URL) is refused unless it
 * is a {z}/{x}/{y} template, and widens the map pages' image policy to its one origin.
 */
import assert from 'node:assert/strict';
import { gunzipSync } from 'node:zlib';
import { test } from 'node:test';
import { eachDialect } from '../../helper.js';
import { Browser, useOAuthApp } from '../../auth/oauth/flows.js';
import { consoleBrowser } from './kit.js';
import { loadConfig, ConfigError } from '../../../src/config/index.js';
import { mapHeaders } from '../../../src/http/console/views/map-page.js';

const names = (body: string) =>
  (JSON.parse(body) as { features: Array<{ properties: { name: string } }> }).features.map((f) => f.properties.name);

test('MAP_TILE_URL: a {z}/{x}/{y} template whose origin, and only it, the map pages allow images from', () => {
  assert.deepEqual(loadConfig({}).map, { tileUrl: null, tileOrigin: null, tileAttribution: null });
  assert.doesNotMatch(mapHeaders(loadConfig({}).map)['Content-Security-Policy'], /img-src 'self' [^;]/);
  const map = loadConfig({
    MAP_TILE_URL: 'https://tiles.example.net/osm/{z}/{x}/{y}.png',
    MAP_TILE_ATTRIBUTION: '© OSM',
  }).map;
  assert.deepEqual(map, {
    tileUrl: 'https://tiles.example.net/osm/{z}/{x}/{y}.png',
    tileOrigin: 'https://tiles.example.net',
    tileAttribution: '© OSM',
  });
  assert.match(mapHeaders(map)['Content-Security-Policy'], /img-src 'self' https:\/\/tiles\.example\.net data:;/);
  assert.equal(
    loadConfig({ MAP_TILE_URL: 'https://{s}.tile.example.org/{z}/{x}/{y}.png' }).map.tileOrigin,
    'https://*.tile.example.org',
  );
  assert.throws(() => loadConfig({ MAP_TILE_URL: 'https://tiles.example.net/tile.png' }), ConfigError);
  assert.throws(
    () => loadConfig({ MAP_TILE_URL: 'ftp://tiles.example.net/{z}/{x}/{y}' }),
    /MAP_TILE_URL must be an http/,
  );
  assert.throws(() => loadConfig({ MAP_TILE_URL: '/{z}/{x}/{y}' }), /absolute URL template/);
});

eachDialect('console map: the offline base layer', (dialect) => {
  const getApp = useOAuthApp(dialect);

  test('outlines and place tiles: signed in only, gzipped, cached, by zoom', async () => {
    const t = await getApp();
    const stranger = new Browser(t.app);
    assert.equal((await stranger.get('/console/api/map/outlines')).status, 401);
    assert.equal((await stranger.get('/console/api/map/places/3/2/2')).status, 401);
    const { b, page } = await consoleBrowser(t, t.fleet.admin.email);
    assert.match(page.body, /<div id="map" class="map" role="region" aria-label="Map of the fleet"/);
    assert.doesNotMatch(page.body, /data-tiles/, 'no tile server unless one is set');

    const plain = await b.get('/console/api/map/outlines');
    assert.equal(plain.status, 200);
    assert.equal(plain.headers['content-type'], 'application/geo+json');
    const geo = JSON.parse(plain.body) as { features: Array<{ properties: { code: string; country: string } }> };
    assert.equal(geo.features.length, 65);
    assert.ok(geo.features.some((f) => f.properties.code === 'ON' && f.properties.country === 'CA'));
    assert.ok(plain.body.length < 600_000, `bounded: ${plain.body.length} bytes`);
    const gz = await b.request({
      method: 'GET',
      url: '/console/api/map/outlines',
      headers: { 'accept-encoding': 'gzip, br' },
    });
    assert.equal(gz.headers['content-encoding'], 'gzip');
    const raw = await t.app.inject({
      method: 'GET',
      url: '/console/api/map/outlines',
      headers: { 'accept-encoding': 'gzip', cookie: [...b.jar].map(([k, v]) => `${k}=${v}`).join('; ') },
    });
    assert.equal(gunzipSync(raw.rawPayload).toString(), plain.body);
    const again = await b.request({
      method: 'GET',
      url: '/console/api/map/outlines',
      headers: { 'if-none-match': String(plain.headers.etag) },
    });
    assert.equal(again.status, 304);

    // Chicago (tile 3/2/2 holds the Great Lakes) at the continent's zoom; Joliet, next to it, only closer in.
    const wide = await b.get('/console/api/map/places/3/2/2');
    assert.equal(wide.status, 200);
    assert.match(String(wide.headers['cache-control']), /max-age=86400/);
    assert.ok(names(wide.body).includes('Chicago'));
    assert.ok(!names(wide.body).includes('Joliet'));
    assert.ok(names(wide.body).length <= 30, 'a tile holds a few labels');
    // Joliet, IL (41.53, -88.08) lies in tile 10/261/381.
    assert.ok(names((await b.get('/console/api/map/places/10/261/381')).body).includes('Joliet'));
    for (const url of [
      '/console/api/map/places/13/0/0',
      '/console/api/map/places/2/0/0',
      '/console/api/map/places/3/8/0',
    ])
      assert.equal((await b.get(url)).status, 404, url);

    const leaflet = await b.get('/console/assets/leaflet.js');
    assert.equal(leaflet.status, 200);
    assert.equal(leaflet.headers['content-type'], 'text/javascript; charset=utf-8');
    assert.match(leaflet.body, /Leaflet 1\.9\.4/);
  });
});
