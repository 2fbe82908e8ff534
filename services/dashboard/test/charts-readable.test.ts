/**
 * Charts that say what they show (issue 60, item 6), in a real browser (Debian's chromium with
 * playwright-core) against a real lab: a swept C on a log axis ticked at its values, every cell of
 * a sweep named with its swept value (the default's too) on the page and in both CSVs, points at
 * 100 % drawn whole, Compare's interval bars in their line's colour, a 12-cell matchup's box plots
 * each labelled on a line of its own, and "no games" told apart from 0 % per wonder. Expected
 * values are read from the API. Screenshots go to test-artifacts/charts-readable/.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { api, type TestLab } from '../../coordinator/test/harness.js';
import { BrowserTests, runSweeps } from './browser.js';

/** C over more than a decade (a log axis), one value of it mcts's default (0.4). */
const C_VALUES = [0.1, 0.4, 1.5];
const C_SWEEP = { name: 'Charts: C', players: 3, seats: [{ agent: 'mcts', params: { c: C_VALUES, it: 3, depth: 1 } }, 'random', 'rulebased'], deals: { count: 2 } };
/** A second C sweep, for Compare: two lines, each with its bars. */
const C_AGAIN = { name: 'Charts: C again', players: 3, seats: [{ agent: 'mcts', params: { c: [0.1, 1.5], it: 5, depth: 1 } }, 'random', 'random'], deals: { count: 2 } };
/** Four specs in a matchup: 12 ordered pairs, 12 cells of three agents each (30 boxes shown). */
const MATCHUP = {
  name: 'Charts: matchup of four',
  players: 3,
  seats: ['random', 'random', 'random'],
  matchup: { specs: ['random', 'rulebased', 'mcts(it=2,depth=1)', 'mcts(it=3,depth=1)'], seats: [0, 1] },
  deals: { count: 1 },
};

const browser = new BrowserTests('charts-readable');
let lab: TestLab;
let ids: Record<string, string> = {};

beforeAll(
  () =>
    browser.start(async () => {
      lab = await browser.startLab({ workers: 1, slots: 2 });
      ids = await runSweeps(lab, { c: C_SWEEP, again: C_AGAIN, matchup: MATCHUP });
    }),
  180_000,
);

afterAll(() => browser.close(), 30_000);

const detail = async (id: string) => (await api(lab.url, `/api/sweeps/${id}`)).body;

async function openSweep(id: string): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(`${lab.url}/sweeps/${id}`);
  await page.waitForFunction(() => document.getElementById('status')!.textContent === 'done');
  await page.waitForFunction(() => (window as any).Chart?.getChart(document.getElementById('chart-cards')));
  return page;
}

/** The ticks an axis of a chart draws: their values, their labels, and the least distance in pixels between two. */
async function ticks(page: Page, canvasId: string, axis: string): Promise<{ values: number[]; labels: string[]; gap: number; count: number }> {
  return page.evaluate(
    ([id, axis]) => {
      const chart = (window as any).Chart.getChart(document.getElementById(id));
      const scale = chart.scales[axis];
      const pixels = scale.ticks.map((_: unknown, i: number) => scale.getPixelForTick(i));
      const gaps = pixels.slice(1).map((p: number, i: number) => Math.abs(p - pixels[i]));
      return { values: scale.ticks.map((t: any) => t.value), labels: scale.ticks.map((t: any) => String(t.label)), gap: gaps.length ? Math.min(...gaps) : 0, count: chart.data.labels?.length ?? 0 };
    },
    [canvasId, axis],
  );
}

/** CSV text as rows of cells (no quoted commas in what these tests read but the agent specs, which are quoted). */
function csvRows(text: string): Record<string, string>[] {
  const split = (line: string) => [...line.matchAll(/("(?:[^"]|"")*"|[^,]*)(,|$)/g)].slice(0, -1).map((m) => m[1].replace(/^"|"$/g, '').replace(/""/g, '"'));
  const [head, ...lines] = text.trim().split('\n');
  const columns = split(head);
  return lines.map((line) => Object.fromEntries(split(line).map((v, i) => [columns[i], v])));
}

test('a swept C on a log axis is ticked at its values', async () => {
  const d = await detail(ids.c);
  const page = await openSweep(ids.c);
  const series = d.parameters.find((p: any) => p.key === 'seats.0.c');
  const values = series.points.map((p: any) => p.value);
  expect(values).toEqual(C_VALUES);
  const axis = await ticks(page, 'param-seats-0-c', 'x');
  expect(await page.evaluate(() => (window as any).Chart.getChart(document.getElementById('param-seats-0-c')).scales.x.type)).toBe('logarithmic');
  expect(axis.values).toEqual(values);
  expect(axis.labels).toEqual(values.map(String));
  // The first and last values' points drawn whole, inside the plot.
  const drawn = await page.evaluate(() => {
    const chart = (window as any).Chart.getChart(document.getElementById('param-seats-0-c'));
    return { area: [chart.chartArea.left, chart.chartArea.right], points: chart.getDatasetMeta(0).data.map((p: any) => [p.x - p.options.radius, p.x + p.options.radius]) };
  });
  for (const [left, right] of drawn.points) {
    expect(left).toBeGreaterThanOrEqual(drawn.area[0]);
    expect(right).toBeLessThanOrEqual(drawn.area[1]);
  }
  await page.locator('#params').screenshot({ path: `${browser.artifacts}c-log-axis.png` });
  await page.close();
});

test('every cell of a C sweep says its C, the default (0.4) too: on the page, in the summary CSV and in the games CSV', async () => {
  const d = await detail(ids.c);
  const page = await openSweep(ids.c);
  // The swept seat's agent of each cell, named with its C: mcts's default (0.4) no exception.
  const swept = d.cells.map((c: any) => ({ label: c.agents[0], c: c.swept['seats.0.c'] }));
  for (const { label, c } of swept) {
    expect(d.names[label], label).toMatch(new RegExp(`^mcts\\(.*\\bc=${String(c).replace('.', '\\.')}\\b`));
    expect(d.pooled.find((l: any) => l.label === label).config).toBe(d.names[label]);
  }
  const names = await page.$$eval('#headline-agents tbody tr .agent-name', (els) => els.map((e) => (e.firstChild!.textContent ?? '').trim()));
  for (const { label } of swept) expect(names).toContain(d.names[label]);
  const legend = await page.evaluate(() => (window as any).Chart.getChart(document.getElementById('chart-wonders')).data.datasets.map((ds: any) => ds.label));
  for (const { label } of swept) expect(legend).toContain(d.names[label]);

  // The summary's CSV and the games' CSV name them so too.
  const summary = csvRows(await (await fetch(`${lab.url}/api/sweeps/${ids.c}/summary?format=csv`)).text());
  const games = csvRows(await (await fetch(`${lab.url}/api/sweeps/${ids.c}/export?format=csv`)).text());
  for (const { label } of swept) {
    expect(summary.filter((r) => r.agent === label).map((r) => r.config)).toEqual([d.names[label]]);
    const rows = games.filter((r) => r.agent === label);
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) expect(r.config).toBe(d.names[label]);
  }
  await page.close();
});

test('a point at 100 % (or 0 %) is drawn whole inside the plot, the ticks still 0 to 100', async () => {
  const page = await browser.newPage({ viewport: { width: 900, height: 500 } });
  await page.goto(`${lab.url}/compare`);
  await page.waitForSelector('body[data-ready]');
  // The page's own charts module draws a curve through 0 %, 50 % and 100 % (imported by a text to
  // evaluate: vitest would rewrite an import() in the function).
  await page.evaluate('import("/static/js/charts.js").then((m) => { window.charts = m; })');
  const drawn = await page.evaluate(() => {
    const charts = (window as any).charts;
    const box = document.body.appendChild(Object.assign(document.createElement('div'), { style: 'position:relative;width:800px;height:320px' }));
    const canvas = box.appendChild(document.createElement('canvas'));
    const point = (value: number, winRate: number) => ({ value, winRate, games: 20, wilson: { low: Math.max(0, winRate - 0.2), high: Math.min(1, winRate + 0.2) }, halfWidth: 0.2 });
    const series = { key: 'seats.0.it', seat: 0, name: 'iterations', numeric: true, points: [point(1, 1), point(2, 0.5), point(4, 0)] };
    const chart = new (window as any).Chart(canvas, charts.parameterChart(series));
    const meta = chart.getDatasetMeta(0);
    return {
      area: { top: chart.chartArea.top, bottom: chart.chartArea.bottom },
      points: meta.data.map((p: any) => ({ y: p.y, radius: p.options.radius + p.options.borderWidth / 2 })),
      ticks: chart.scales.y.ticks.map((t: any) => t.value),
    };
  });
  for (const p of drawn.points) {
    expect(p.y - p.radius, 'the point reaches above the plot').toBeGreaterThanOrEqual(drawn.area.top);
    expect(p.y + p.radius, 'the point reaches below the plot').toBeLessThanOrEqual(drawn.area.bottom);
  }
  expect(drawn.ticks).toEqual([0, 20, 40, 60, 80, 100]);
  await page.close();
});

test("on Compare each line's interval bars are drawn in the line's colour", async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(`${lab.url}/compare?ids=${ids.c},${ids.again}`);
  await page.waitForSelector('body[data-ready]');
  const drawn = await page.evaluate(() => {
    const Chart = (window as any).Chart;
    const chart = Chart.getChart(document.getElementById('compare-seats-0-c'));
    // The colour of every stroke the page's interval-bar plugin makes, in the order it draws them.
    const strokes: string[] = [];
    const ctx = chart.ctx;
    ctx.stroke = function (this: CanvasRenderingContext2D) {
      strokes.push(String(this.strokeStyle));
      return (CanvasRenderingContext2D.prototype.stroke as () => void).call(this);
    };
    Chart.registry.getPlugin('errorBars').afterDatasetsDraw(chart);
    delete ctx.stroke;
    const expected = chart.data.datasets.flatMap((ds: any) => ds.errorBars.filter((b: number[]) => b && b.every(Number.isFinite)).map(() => ds.borderColor));
    return { strokes, expected, lines: chart.data.datasets.length };
  });
  expect(drawn.lines).toBe(2);
  expect(drawn.strokes.length).toBe(drawn.expected.length);
  // The canvas answers colours as lower-case hex.
  expect(drawn.strokes).toEqual(drawn.expected.map((c: string) => c.toLowerCase()));
  expect(new Set(drawn.strokes).size).toBe(2);
  await page.screenshot({ path: `${browser.artifacts}compare-bars.png`, fullPage: true });
  await page.close();
});

test("a 12-cell matchup's VP box plots: each box labelled, each label whole and on lines of its own", async () => {
  const d = await detail(ids.matchup);
  expect(d.cells).toHaveLength(12);
  const page = await openSweep(ids.matchup);
  const axis = await page.evaluate(() => {
    const Chart = (window as any).Chart;
    const chart = Chart.getChart(document.getElementById('chart-vp'));
    const scale = chart.scales.y;
    const font = Chart.helpers.toFont(scale.options.ticks.font);
    chart.ctx.save();
    chart.ctx.font = font.string;
    const lines = scale.ticks.map((t: any) => [t.label].flat().map(String));
    const widths = lines.map((l: string[]) => Math.max(...l.map((line) => chart.ctx.measureText(line).width)));
    chart.ctx.restore();
    const pixels = scale.ticks.map((_: unknown, i: number) => scale.getPixelForTick(i));
    return {
      boxes: chart.data.labels.length,
      lines,
      widths,
      gaps: pixels.slice(1).map((p: number, i: number) => Math.abs(p - pixels[i])),
      lineHeight: font.lineHeight,
      // Where a label may be drawn: from the canvas's left edge to the tick marks.
      room: scale.right - scale.options.ticks.padding - (scale.options.grid.tickLength ?? 0),
    };
  });
  expect(axis.boxes).toBe(30);
  // Every box labelled (none skipped), by its cell's pair and then its agent.
  expect(axis.lines).toHaveLength(axis.boxes);
  const cell = d.cells[0];
  expect(axis.lines[0]).toEqual([`${d.names[cell.agents[0]]} vs ${d.names[cell.agents[1]]}`, `· ${cell.labels[0].config}`]);
  // Each label whole within the axis, and apart from the next by its lines' height.
  axis.widths.forEach((w: number, i: number) => expect(w, axis.lines[i].join(' ')).toBeLessThanOrEqual(axis.room));
  axis.gaps.forEach((gap: number, i: number) => expect(gap, axis.lines[i].join(' ')).toBeGreaterThanOrEqual(axis.lines[i].length * axis.lineHeight));
  await page.locator('#chart-vp').screenshot({ path: `${browser.artifacts}matchup-boxplot.png` });
  await page.close();
});

test('win rate per wonder: 0 % is a sliver of a bar, a wonder an agent never had says "no games"', async () => {
  const page = await openSweep(ids.c);
  const drawn = await page.evaluate(() => {
    const chart = (window as any).Chart.getChart(document.getElementById('chart-wonders'));
    // Every text the chart writes when drawn, with where (its transform's origin, in CSS pixels).
    const texts: { text: string; x: number }[] = [];
    const ctx = chart.ctx;
    ctx.fillText = function (this: CanvasRenderingContext2D, text: string, x: number, y: number) {
      const at = this.getTransform().transformPoint(new DOMPoint(x, y));
      texts.push({ text, x: at.x / chart.currentDevicePixelRatio });
      return CanvasRenderingContext2D.prototype.fillText.call(this, text, x, y);
    };
    chart.draw();
    delete ctx.fillText;
    const slots = chart.data.datasets.flatMap((ds: any, i: number) =>
      chart.getDatasetMeta(i).data.map((bar: any, j: number) => ({ value: ds.data[j], x: bar.x, height: Math.abs(bar.base - bar.y) })),
    );
    return { texts: texts.filter((t) => t.text === 'no games'), slots };
  });
  const none = drawn.slots.filter((s: any) => s.value === null);
  const zero = drawn.slots.filter((s: any) => s.value === 0);
  // The sweep has both: a test of neither would pass on any chart.
  expect(none.length).toBeGreaterThan(0);
  expect(zero.length).toBeGreaterThan(0);
  for (const s of zero) expect(s.height).toBeGreaterThanOrEqual(2);
  expect(drawn.texts.length).toBe(none.length);
  for (const s of none) expect(drawn.texts.some((t: any) => Math.abs(t.x - s.x) < 0.5), `no "no games" at x = ${s.x}`).toBe(true);
  await page.locator('#chart-wonders').screenshot({ path: `${browser.artifacts}wonders-no-games.png` });
  expect(browser.pageErrors).toEqual([]);
  await page.close();
});
