/**
 * Counters and histograms for the per-request and per-query hot path. prom-client's own `inc` and
 * `observe` validate and hash their labels on every call (about a microsecond each, measured); these
 * hand out one small object per label set, so that recording is an array update, and turn into the
 * same exposition text only when scraped (they are registered on a prom-client Registry, which renders
 * anything with `get()`).
 */
import type { Registry } from 'prom-client';

type Labels = Record<string, string>;

/** What prom-client's Registry reads from a metric's `get()`. */
interface Rendered {
  name: string;
  help: string;
  type: string;
  aggregator: 'sum';
  values: Array<{ metricName?: string; labels: Record<string, string | number>; value: number }>;
}

interface CounterSeries {
  labels: Labels;
  value: number;
}

interface HistogramSeries {
  labels: Labels;
  /** Observations per bucket (not cumulative); the last slot is above every bound. */
  counts: number[];
  sum: number;
  count: number;
}

abstract class SeriesMetric<S extends { labels: Labels }> {
  abstract readonly type: 'counter' | 'histogram';
  readonly aggregator = 'sum' as const;
  protected readonly all = new Map<string, S>();

  constructor(
    readonly name: string,
    readonly help: string,
    registry: Registry,
  ) {
    registry.registerMetric(this as never);
  }

  protected find(labels: Labels, make: () => S): S {
    const key = JSON.stringify(labels);
    let s = this.all.get(key);
    if (!s) {
      s = make();
      this.all.set(key, s);
    }
    return s;
  }

  /** Zeroes every series in place (handed-out series objects stay live). */
  abstract reset(): void;
}

export class SeriesCounter extends SeriesMetric<CounterSeries> {
  readonly type = 'counter';

  /** The series of these labels; keep it and call `inc()` on it. */
  series(labels: Labels): { inc(by?: number): void } {
    const s = this.find(labels, () => ({ labels, value: 0 }));
    return { inc: (by = 1) => void (s.value += by) };
  }

  reset(): void {
    for (const s of this.all.values()) s.value = 0;
  }

  async get(): Promise<Rendered> {
    return {
      name: this.name,
      help: this.help,
      type: this.type,
      aggregator: this.aggregator,
      values: [...this.all.values()].map((s) => ({ labels: s.labels, value: s.value })),
    };
  }
}

export class SeriesHistogram extends SeriesMetric<HistogramSeries> {
  readonly type = 'histogram';

  constructor(
    name: string,
    help: string,
    registry: Registry,
    private readonly bounds: number[],
  ) {
    super(name, help, registry);
  }

  /** The series of these labels; keep it and call `observe(value)` on it. */
  series(labels: Labels): { observe(v: number): void } {
    const s = this.find(labels, () => ({
      labels,
      counts: new Array<number>(this.bounds.length + 1).fill(0),
      sum: 0,
      count: 0,
    }));
    const bounds = this.bounds;
    return {
      observe(v: number) {
        let i = 0;
        while (i < bounds.length && v > bounds[i]) i++;
        s.counts[i]++;
        s.sum += v;
        s.count++;
      },
    };
  }

  reset(): void {
    for (const s of this.all.values()) {
      s.counts.fill(0);
      s.sum = 0;
      s.count = 0;
    }
  }

  async get(): Promise<Rendered> {
    const values: Rendered['values'] = [];
    for (const s of this.all.values()) {
      let cumulative = 0;
      this.bounds.forEach((le, i) => {
        cumulative += s.counts[i];
        values.push({ metricName: `${this.name}_bucket`, labels: { le, ...s.labels }, value: cumulative });
      });
      values.push({ metricName: `${this.name}_bucket`, labels: { le: '+Inf', ...s.labels }, value: s.count });
      values.push({ metricName: `${this.name}_sum`, labels: s.labels, value: s.sum });
      values.push({ metricName: `${this.name}_count`, labels: s.labels, value: s.count });
    }
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }
}
