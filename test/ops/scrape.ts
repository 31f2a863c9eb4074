/** Scraping `/metrics` in tests: the exposition text and its samples by series. */
import type { FastifyInstance } from 'fastify';

export const TOKEN = 'metrics-token-for-tests-0123456789';
export const METRICS_ENV = { METRICS_TOKEN: TOKEN };

export interface Scrape {
  status: number;
  contentType: string;
  text: string;
  /** Sample value by series, written as in the text: `name{label="v",…}` (or `name` without labels). */
  samples: Map<string, number>;
  /** The sample lines of one metric name (its `_bucket`, `_sum`, `_count` lines are other names). */
  lines(name: string): string[];
}

export function parseSamples(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    out.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return out;
}

export async function scrape(app: FastifyInstance, token = TOKEN): Promise<Scrape> {
  const res = await app.inject({ url: '/metrics', headers: { authorization: `Bearer ${token}` } });
  const text = res.body;
  return {
    status: res.statusCode,
    contentType: String(res.headers['content-type']),
    text,
    samples: parseSamples(text),
    lines: (name) => text.split('\n').filter((l) => l.startsWith(`${name}{`) || l.startsWith(`${name} `)),
  };
}
