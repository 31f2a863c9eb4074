/**
 * The console map's optional tile layer (MAP_TILE_URL, MAP_TILE_ATTRIBUTION). Without it the map draws
 * only its offline base layer (outlines and place names served by this server); with it, the tiles of
 * the operator's own tile server (or a public one, when the fleet has internet) go under the outlines,
 * and the console's content security policy lets images come from that one origin.
 */
import type { Env } from './env.js';

export interface MapConfig {
  /** An `https://tiles.example/{z}/{x}/{y}.png` template (Leaflet's: `{s}` and `{r}` allowed), or null. */
  tileUrl: string | null;
  /** The tile URL's origin, for img-src; null without a tile URL. */
  tileOrigin: string | null;
  /** Plain text credited in the map's corner (the tile server's licence asks for it); null for none. */
  tileAttribution: string | null;
}

const ATTRIBUTION_MAX = 300;

export function mapConfig(env: Env, error: (m: string) => Error): MapConfig {
  const raw = env.MAP_TILE_URL?.trim() || '';
  const attribution = env.MAP_TILE_ATTRIBUTION?.trim() || null;
  if (attribution && attribution.length > ATTRIBUTION_MAX)
    throw error(`MAP_TILE_ATTRIBUTION must be at most ${ATTRIBUTION_MAX} characters`);
  if (!raw) return { tileUrl: null, tileOrigin: null, tileAttribution: attribution };
  if (!['{z}', '{x}', '{y}'].every((p) => raw.includes(p)))
    throw error(`MAP_TILE_URL must contain {z}, {x} and {y}, got "${raw}"`);
  let url: URL;
  try {
    // The placeholders are no valid host characters: `{s}` (subdomains) stands in as one letter.
    url = new URL(raw.replaceAll('{s}', 'a').replace(/\{[a-z]+\}/g, '0'));
  } catch {
    throw error(`MAP_TILE_URL must be an absolute URL template, got "${raw}"`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw error(`MAP_TILE_URL must be an http:// or https:// URL, got "${raw}"`);
  // With {s} the tiles come from several hosts: a wildcard of the domain under it.
  const origin = raw.includes('//{s}.') ? `${url.protocol}//*.${url.host.split('.').slice(1).join('.')}` : url.origin;
  return { tileUrl: raw, tileOrigin: origin, tileAttribution: attribution };
}
