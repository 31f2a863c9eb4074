// The reports page's chart (src/web/console/reports.ts): drawn with uPlot from the table below it, which
// carries every figure (data-v: the plotted value of a cell; times in seconds, durations in hours).
// Bars and lines go across the table's rows (vehicles, drivers, days); points across time, in the
// company's zone. Colours follow the console's light or dark scheme; the chart follows its box's width.
import uPlot from './uplot.js';

const table = document.getElementById('report-table');
const box = document.getElementById('report-chart');
const HEIGHT = 280;

function palette() {
  const css = getComputedStyle(document.documentElement);
  const v = (name) => css.getPropertyValue(name).trim();
  return { fg: v('--fg'), muted: v('--muted'), line: v('--line'), series: [v('--accent'), v('--idle'), v('--moving')] };
}

/** A hex colour with some transparency, for the fill under a bar. */
const faded = (hex) => (/^#[0-9a-f]{6}$/i.test(hex) ? `${hex}b0` : hex);

function read() {
  const d = table.dataset;
  const xi = Number(d.x);
  const ys = d.y.split(',').map(Number);
  const heads = table.tHead.rows[0].cells;
  const value = (td) => (td.dataset.v === '' ? null : Number(td.dataset.v));
  let rows = [...table.tBodies[0].rows];
  const time = d.xKind === 'time';
  // uPlot wants x ascending: rows across time are put in time order.
  if (time)
    rows = rows.filter((r) => value(r.cells[xi]) !== null).sort((a, b) => value(a.cells[xi]) - value(b.cells[xi]));
  return {
    type: d.chart,
    time,
    zone: d.zone,
    labels: rows.map((r) => r.cells[xi].textContent.trim()),
    xLabel: heads[xi].dataset.label,
    x: rows.map((r, i) => (time ? value(r.cells[xi]) : i)),
    ys: ys.map((i) => ({ label: heads[i].dataset.label, values: rows.map((r) => value(r.cells[i])) })),
  };
}

function options(data, width) {
  const c = palette();
  const axis = { stroke: c.fg, grid: { stroke: c.line, width: 1 }, ticks: { stroke: c.line, width: 1 } };
  const long = !data.time && data.labels.some((l) => l.length > 5);
  const x = data.time
    ? { ...axis }
    : {
        ...axis,
        incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500],
        space: long ? 18 : 40,
        values: (u, splits) => splits.map((i) => data.labels[i] ?? ''),
        ...(long ? { rotate: -45, size: 90 } : {}),
      };
  const bars = uPlot.paths.bars({ size: [0.7, 48] });
  return {
    width,
    height: HEIGHT,
    tzDate: (ts) => uPlot.tzDate(new Date(ts * 1e3), data.zone),
    scales: {
      x: data.time ? { time: true } : { time: false, range: (u, min, max) => [min - 0.5, max + 0.5] },
      y: { range: (u, min, max) => [0, max > 0 ? max * 1.1 : 1] },
    },
    axes: [x, { ...axis, size: 56 }],
    legend: { show: true },
    cursor: { points: { show: data.type !== 'bars' } },
    series: [
      { label: data.xLabel, ...(data.time ? {} : { value: (u, v) => (v === null ? '' : (data.labels[v] ?? '')) }) },
      ...data.ys.map((s, k) => {
        const colour = c.series[k % c.series.length];
        return {
          label: s.label,
          stroke: colour,
          width: data.type === 'lines' ? 2 : 1,
          fill: data.type === 'bars' ? faded(colour) : undefined,
          paths: data.type === 'bars' ? bars : data.type === 'points' ? () => null : undefined,
          points: { show: data.type !== 'bars', size: data.type === 'points' ? 7 : 5, fill: colour, stroke: colour },
        };
      }),
    ],
  };
}

if (table && box) {
  const data = read();
  const aligned = [data.x, ...data.ys.map((s) => s.values)];
  let plot = new uPlot(options(data, box.clientWidth), aligned, box);
  const redraw = () => {
    plot.destroy();
    plot = new uPlot(options(data, box.clientWidth), aligned, box);
  };
  new ResizeObserver(() => {
    if (Math.abs(plot.width - box.clientWidth) > 1) plot.setSize({ width: box.clientWidth, height: HEIGHT });
  }).observe(box);
  matchMedia('(prefers-color-scheme: dark)').addEventListener('change', redraw);
  box.dataset.drawn = String(data.x.length);
}
