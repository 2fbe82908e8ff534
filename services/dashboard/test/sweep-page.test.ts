/**
 * The sweep page's answer at a glance (issue 16), in a real browser (Debian's chromium with
 * playwright-core) against a real lab: a small sweep from the thesis's Table 7.4 preset (the paper
 * drawn beside ours), a 2-D grid and a sweep of many configurations (dense rows). Every expected
 * value is read from the API. Screenshots of each page go to test-artifacts/sweep-page/ (not
 * committed).
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { api, type TestLab } from '../../coordinator/test/harness.js';
import { sprtMatchupSweep } from '../../coordinator/test/sweep-fixtures.js';
import { BrowserTests, runSweeps } from './browser.js';

const preset = JSON.parse(readFileSync(new URL('../../../presets/thesis-7.4-iterations.json', import.meta.url), 'utf8'));

/** The preset as it is (its paper, its iteration values), made cheap: one-turn playouts, random boards, two deals. */
const PRESET_SWEEP = {
  ...preset,
  name: 'Browser test: Table 7.4, small',
  seats: [{ agent: 'mcts', params: { ...preset.seats[0].params, depth: 1 } }, 'random', 'rulebased'],
  wonders: { mode: 'random' },
  deals: { count: 2 },
};
/** A grid: iterations over a decade (a log axis) × two exploration constants. */
const GRID_SWEEP = {
  name: 'Browser test: grid',
  players: 3,
  seats: [{ agent: 'mcts', params: { it: [2, 20], c: [0.3, 1.2], depth: 2 } }, 'random', 'rulebased'],
  deals: { count: 2 },
};

/** Dense rows: twelve iteration counts, so 14 configurations rate each other (cheap: one-turn playouts). */
const DENSE_ITERATIONS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
const DENSE_SWEEP = {
  name: 'Browser test: dense',
  players: 3,
  seats: [{ agent: 'mcts', params: { it: DENSE_ITERATIONS, depth: 1 } }, 'random', 'rulebased'],
  deals: { count: 2 },
};

/** Adaptive: rulebased against random and back, each cell stopped by an SPRT. */
const STOPPING_SWEEP = sprtMatchupSweep('Browser test: SPRT');

const browser = new BrowserTests('sweep-page');
let lab: TestLab;
let ids: Record<string, string> = {};

beforeAll(
  () =>
    browser.start(async () => {
      lab = await browser.startLab({ workers: 1, slots: 2 });
      ids = await runSweeps(lab, { preset: PRESET_SWEEP, grid: GRID_SWEEP, stopping: STOPPING_SWEEP, dense: DENSE_SWEEP });
    }),
  180_000,
);

afterAll(() => browser.close(), 30_000);

async function openSweep(id: string, viewport = { width: 1280, height: 800 }): Promise<Page> {
  const page = await browser.newPage({ viewport });
  await page.goto(`${lab.url}/sweeps/${id}`);
  await page.waitForFunction(() => document.getElementById('status')!.textContent === 'done');
  await page.waitForFunction(() => (window as any).Chart?.getChart(document.getElementById('chart-cards')));
  return page;
}

/** Every chart on the page: its data, intervals, axes and colours. */
async function charts(page: Page): Promise<Record<string, any>> {
  return page.evaluate(() => {
    const out: Record<string, any> = {};
    for (const canvas of document.querySelectorAll('canvas')) {
      const chart = (window as any).Chart.getChart(canvas);
      if (!chart) continue;
      out[canvas.id] = JSON.parse(
        JSON.stringify({
          xType: chart.options.scales?.x?.type ?? null,
          xTitle: chart.options.scales?.x?.title?.text ?? null,
          yTitle: chart.options.scales?.y?.title?.text ?? null,
          datasets: chart.data.datasets.map((d: any) => ({ label: d.label, data: d.data, errorBars: d.errorBars ?? null, colour: d.backgroundColor, border: d.borderColor })),
          labels: chart.data.labels ?? [],
        }),
      );
    }
    return out;
  });
}

const detail = async (id: string) => (await api(lab.url, `/api/sweeps/${id}`)).body;

/** CSS colours as the browser resolves them, [r, g, b] from 0 to 255. */
async function rgb(page: Page, colours: string[]): Promise<number[][]> {
  return page.evaluate((colours) => {
    const probe = document.body.appendChild(document.createElement('span'));
    const out = colours.map((c) => {
      probe.style.color = '';
      probe.style.color = c;
      return getComputedStyle(probe).color.match(/[\d.]+/g)!.slice(0, 3).map(Number);
    });
    probe.remove();
    return out;
  }, colours);
}

/** CIE L*a*b* (D65) of an sRGB colour: L* is lightness as the eye sees it, and distances in it are ΔE. */
function cielab([r, g, b]: number[]): number[] {
  const linear = [r, g, b].map((v) => (v /= 255) <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
  const [x, y, z] = [
    [0.4124, 0.3576, 0.1805],
    [0.2126, 0.7152, 0.0722],
    [0.0193, 0.1192, 0.9505],
  ].map((row, i) => row.reduce((s, k, j) => s + k * linear[j], 0) / [0.9505, 1, 1.089][i]);
  const f = (t: number) => (t > 216 / 24389 ? Math.cbrt(t) : (24389 / 27 * t + 16) / 116);
  return [116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))];
}
const deltaE = (a: number[], b: number[]) => Math.hypot(...cielab(a).map((v, i) => v - cielab(b)[i]));

/**
 * The interval bars of the mean-VP charts that reach beyond the plot area (clipped at the axis or
 * drawn over its tick labels), as `chart: dataset, point: [top, bottom] outside [top, bottom]`.
 */
async function barsOutsidePlot(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    for (const canvas of document.querySelectorAll('canvas[id^="param-vp-"]')) {
      const chart = (window as any).Chart.getChart(canvas);
      const { top, bottom } = chart.chartArea;
      const y = chart.scales.y;
      chart.data.datasets.forEach((ds: any) =>
        (ds.errorBars ?? []).forEach((bar: number[] | null, j: number) => {
          if (!bar || !bar.every(Number.isFinite)) return;
          const [high, low] = [y.getPixelForValue(bar[1]), y.getPixelForValue(bar[0])];
          if (high < top || low > bottom) out.push(`${canvas.id}: ${ds.label}, point ${j}: [${high}, ${low}] outside [${top}, ${bottom}]`);
        }),
      );
    }
    return out;
  });
}

/** The labels a chart's category axis draws (what auto-skipping left), and the least distance in pixels between two of them. */
async function tickLabels(page: Page, canvasId: string, axis: string): Promise<{ labels: string[]; gap: number }> {
  return page.evaluate(
    ([id, axis]) => {
      const scale = (window as any).Chart.getChart(document.getElementById(id)).scales[axis];
      const pixels = scale.ticks.map((_: unknown, i: number) => scale.getPixelForTick(i));
      const gaps = pixels.slice(1).map((p: number, i: number) => Math.abs(p - pixels[i]));
      return { labels: scale.ticks.map((t: any) => scale.getLabelForValue(t.value)), gap: gaps.length ? Math.min(...gaps) : 0 };
    },
    [canvasId, axis],
  );
}

describe('the sweep page answers at a glance', () => {
  test('a sweep from a paper preset: headline, the paper beside ours, verdicts, all on the first screen', async () => {
    const d = await detail(ids.preset);
    expect(d.paper.id).toBe('thesis-7.4');
    const page = await openSweep(ids.preset);
    // Headline: one row per pooled agent, with the API's win rate, interval, games and mean VP;
    // the swept agent by its iterations, then the agents no parameter changes.
    const rows = await page.$$eval('#headline-agents tbody tr', (trs) => trs.map((tr) => [...tr.children].map((c) => (c.textContent ?? '').trim())));
    const swept = [100, 250, 500].map((it) => d.cells.find((c: any) => c.swept['seats.0.it'] === it).agents[0]);
    const order = [...swept, ...d.pooled.map((l: any) => l.label).filter((l: string) => !swept.includes(l))];
    expect(order.slice(3)).toEqual(['random', 'rulebased']);
    // Each agent by its one name, the canonical spec with the swept parameter written even at its
    // default (it=100: issue 60), the spelling submitted beside it where that differs.
    expect(d.names['mcts(it=100,depth=1)']).toBe('mcts(it=100,depth=1)');
    expect(rows.map((r) => r[0])).toEqual(order.map((l) => (d.names[l] === l ? l : `${d.names[l]}${l}`)));
    expect(await page.$$eval('#ratings-table tbody tr th, #ratings-table tbody tr td:first-child', (els) => els.map((e) => e.textContent))).toContain('mcts(it=100,depth=1)');
    // The legends of the charts per agent in the same order, by the same names.
    const legends = await charts(page);
    for (const name of ['chart-wonders', 'chart-stages', 'chart-cards']) expect(legends[name].datasets.map((ds: any) => ds.label), name).toEqual(order.map((l) => d.names[l]));
    order.forEach((label, i) => {
      const l = d.pooled.find((x: any) => x.label === label);
      expect(rows[i][1]).toBe(`${(100 * l.winRate).toFixed(1)} %`);
      expect(rows[i][2]).toBe(`${(100 * l.wilson.low).toFixed(1)}–${(100 * l.wilson.high).toFixed(1)} %`);
      expect(rows[i][3]).toBe(String(l.games));
    });
    // The paper's rows beside ours: two deals are a handful of games a row, so no row has a verdict
    // (the probe: 0/2 and 2/2 once made "differs, p < 0.001") — on the page, in the API and in the CSV.
    expect(await page.isVisible('#paper-box')).toBe(true);
    expect([d.paper.agrees, d.paper.inconclusive, d.paper.differs, d.paper.tooFew]).toEqual([0, 0, 0, 3]);
    const verdict = (await page.textContent('#paper-verdict'))!;
    expect(verdict).toContain(`of 0 rows with a verdict, 0 agree with the paper (within ± ${(100 * d.paper.rule.margin).toFixed(1)} points), 0 inconclusive, 0 differ; 3 with fewer than ${d.paper.rule.minGames} games, too few for a verdict`);
    const paperRows = await page.$$eval('#paper-rows tbody tr', (trs) => trs.map((tr) => [...tr.children].map((c) => (c.textContent ?? '').trim())));
    expect(paperRows.map((r) => r[0])).toEqual(d.paper.rows.map((r: any) => r.label));
    paperRows.forEach((r, i) => expect(r[6]).toBe(`too few games: ${d.paper.rows[i].ours.games} of the ${d.paper.rule.minGames} a verdict needs`));
    const csv = await (await fetch(`${lab.url}${await page.getAttribute('#paper-csv', 'href')}`)).text();
    const [head, ...lines] = csv.trim().split('\n');
    const at = head.split(',').indexOf('verdict');
    expect(lines.map((l) => l.split(',')[at])).toEqual(['too few games', 'too few games', 'too few games']);
    // On the first screen without scrolling (1280×800): the headline's bottom is in view.
    const bottom = await page.$eval('#headline', (e) => e.getBoundingClientRect().bottom);
    expect(bottom).toBeLessThanOrEqual(800);

    // The win-rate chart: ours and the published values at the same x, with their intervals.
    const all = await charts(page);
    const win = all['param-seats-0-it'];
    expect(win.xTitle).toMatch(/^iterations/);
    expect(win.datasets).toHaveLength(2);
    const [ours, published] = win.datasets;
    expect(ours.data.map((p: any) => p.x)).toEqual([100, 250, 500]);
    expect(published.label).toMatch(/published \(thesis-7\.4\)/);
    expect(published.data.map((p: any) => p.x)).toEqual(d.paper.rows.map((r: any) => r.at.value));
    published.data.forEach((p: any, i: number) => expect(p.y).toBeCloseTo(100 * d.paper.rows[i].paper.winRate, 9));
    published.errorBars.forEach((b: number[], i: number) => expect(b).toEqual([100 * d.paper.rows[i].paper.low, 100 * d.paper.rows[i].paper.high]));
    // The VP chart: ours, and the paper's mean VP where it printed one.
    const vp = all['param-vp-seats-0-it'];
    expect(vp.datasets[1].data.map((p: any) => p.y)).toEqual(d.paper.rows.map((r: any) => r.paper.vp));
    expect(await barsOutsidePlot(page)).toEqual([]);
    await page.screenshot({ path: `${browser.artifacts}sweep-paper-preset.png`, fullPage: true });
    await page.screenshot({ path: `${browser.artifacts}sweep-paper-preset-first-screen.png` });
    await page.close();
  });

  test('a grid: one line per value of the other parameter, a log axis over a decade, Wilson bars inside [0, 100 %]', async () => {
    const d = await detail(ids.grid);
    const page = await openSweep(ids.grid);
    const all = await charts(page);
    const it = all['param-seats-0-it'];
    expect(it.xType).toBe('logarithmic');
    expect(it.xTitle).toBe('iterations (log scale)');
    expect(it.datasets.map((ds: any) => ds.label)).toEqual(['win %, exploration constant C = 0.3', 'win %, exploration constant C = 1.2']);
    const series = d.parameters.find((s: any) => s.key === 'seats.0.it');
    it.datasets.forEach((ds: any, i: number) => {
      expect(ds.data.map((p: any) => p.x)).toEqual([2, 20]);
      ds.data.forEach((p: any, j: number) => expect(p.y).toBeCloseTo(100 * series.lines[i].points[j].winRate, 9));
    });
    const c = all['param-seats-0-c'];
    expect(c.xType).toBe('linear');
    expect(c.datasets).toHaveLength(2);
    // Every win-rate interval on the page lies in [0, 100].
    for (const [name, chart] of Object.entries(all)) {
      if (!/^param-seats|chart-wonders/.test(name)) continue;
      for (const ds of chart.datasets) {
        for (const bar of ds.errorBars ?? []) {
          if (!bar) continue;
          expect(bar[0], name).toBeGreaterThanOrEqual(0);
          expect(bar[1], name).toBeLessThanOrEqual(100);
        }
      }
    }
    // Cards as lift over the base rate, from the API's numbers.
    const cards = all['chart-cards'];
    expect(cards.xTitle).toMatch(/^lift/);
    for (const ds of cards.datasets) {
      const label = d.pooled.find((l: any) => l.label === ds.label);
      ds.data.forEach((lift: number | null, j: number) => {
        const card = label.cards.find((x: any) => x.card === cards.labels[j]);
        if (lift === null) return;
        expect(lift).toBeCloseTo(card.lift, 9);
      });
    }
    expect(await barsOutsidePlot(page)).toEqual([]);
    // No paper for a sweep that names none.
    expect(await page.isHidden('#paper-box')).toBe(true);
    await page.screenshot({ path: `${browser.artifacts}sweep-grid.png`, fullPage: true });
    await page.close();
  });

  test('a stopping sweep: each cell\'s decision, the games it took against the fixed design, and its LLR trace between the bounds', async () => {
    const d = await detail(ids.stopping);
    const page = await openSweep(ids.stopping);
    expect(await page.isVisible('#stopping')).toBe(true);
    const rows = await page.$$eval('#stopping-table tbody tr', (trs) => trs.map((tr) => [...tr.children].map((c) => (c.textContent ?? '').trim())));
    expect(rows).toHaveLength(d.cells.length);
    d.cells.forEach((c: any, i: number) => {
      expect(rows[i][1]).toBe(`${c.stopped.decision} accepted`);
      expect(rows[i][2]).toBe(String(c.stopped.games));
      expect(rows[i][3]).toBe(String(c.games));
      expect(rows[i][4]).toBe(String(d.gamesPerCell));
    });
    const chart = (await charts(page))['chart-stopping'];
    expect(chart.datasets.map((ds: any) => ds.label).slice(-2)).toEqual(['accept H0', 'accept H1']);
    expect(chart.datasets).toHaveLength(d.cells.length + 2);
    chart.datasets.slice(0, -2).forEach((ds: any, i: number) => expect(ds.data.at(-1)).toEqual({ x: d.cells[i].stopped.games, y: d.cells[i].stopped.value }));
    expect(await page.textContent('#stopping-note')).toContain(`of the fixed design's ${d.gamesPerCell * d.cellCount}`);
    await page.screenshot({ path: `${browser.artifacts}sweep-stopping.png`, fullPage: true });
    await page.close();
  });

  test('the ladder page: every configuration of every sweep, rated by the batch fit alone (no online column)', async () => {
    const ladder = (await api(lab.url, '/api/ratings')).body;
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(`${lab.url}/ladder`);
    await page.waitForSelector('#ladder-table tbody tr');
    const rows = await page.$$eval('#ladder-table tbody tr', (trs) => trs.map((tr) => [...tr.children].map((c) => (c.textContent ?? '').trim())));
    const rated = ladder.batch.ratings.filter((r: any) => r.elo !== null);
    expect(rows.map((r) => r[0])).toEqual(rated.map((r: any) => r.config));
    rows.forEach((r, i) => expect(r[1]).toBe(rated[i].elo.toFixed(0)));
    // The online ratings contradicted the fit (they depend on the order counts are fed): gone.
    expect(await page.$$eval('#ladder-table thead th', (ths) => ths.map((th) => (th.textContent ?? '').trim()))).toEqual(['configuration', 'Elo', '95 % interval', 'games']);
    expect(ladder).not.toHaveProperty('online');
    expect((await charts(page))['chart-ladder'].datasets[0].data).toHaveLength(rated.length);
    expect(await page.textContent('#ladder-note')).toContain(`from ${ladder.games} games`);
    await page.screenshot({ path: `${browser.artifacts}ladder.png`, fullPage: true });
    await page.close();
  });

  test('dense rows: every configuration of the ladders and every card is labelled, the rows apart', async () => {
    const page = await openSweep(ids.dense);
    const d = await detail(ids.dense);
    const configs = d.ratings.ratings.map((r: any) => r.config);
    expect(configs.length).toBeGreaterThanOrEqual(14);
    const all = await charts(page);
    // Line height of the 12 px tick font: closer than that, two labels overlap.
    const ratings = await tickLabels(page, 'chart-ratings', 'y');
    expect(ratings.labels).toEqual(all['chart-ratings'].labels);
    expect(ratings.labels).toEqual(configs);
    expect(ratings.gap).toBeGreaterThanOrEqual(14);
    const cards = await tickLabels(page, 'chart-cards', 'y');
    expect(all['chart-cards'].labels.length).toBeGreaterThanOrEqual(12);
    expect(cards.labels).toEqual(all['chart-cards'].labels);
    expect(cards.gap).toBeGreaterThanOrEqual(14);
    await page.screenshot({ path: `${browser.artifacts}sweep-dense.png`, fullPage: true });
    await page.close();

    // The lab's ladder: every configuration of every sweep.
    const ladder = (await api(lab.url, '/api/ratings')).body;
    const rated = ladder.batch.ratings.filter((r: any) => r.elo !== null).map((r: any) => r.config);
    const ladderPage = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await ladderPage.goto(`${lab.url}/ladder`);
    await ladderPage.waitForSelector('#ladder-table tbody tr');
    const rows = await tickLabels(ladderPage, 'chart-ladder', 'y');
    expect(rows.labels).toEqual(rated);
    expect(rows.gap).toBeGreaterThanOrEqual(14);
    await ladderPage.screenshot({ path: `${browser.artifacts}ladder-dense.png`, fullPage: true });
    await ladderPage.close();
  });

  test('at 1280 px the head-to-head matrix of 14 configurations fits its card, every column in view', async () => {
    const d = await detail(ids.dense);
    const page = await openSweep(ids.dense);
    await page.waitForSelector('#h2h-matrix tbody tr');
    const fit = await page.evaluate(() => {
      const scrolls = (e: Element) => ['auto', 'scroll'].includes(getComputedStyle(e).overflowX);
      // Anything of a card (outside a scroll box of its own) wider than the card, or a card past the page's edge.
      const overflowing: string[] = [];
      for (const card of document.querySelectorAll('.card')) {
        const box = card.getBoundingClientRect();
        const name = card.querySelector('h2')?.textContent ?? card.id;
        if (card.scrollWidth > card.clientWidth || box.right > document.documentElement.clientWidth) overflowing.push(name);
        for (const e of card.querySelectorAll('*')) {
          if (e.parentElement?.closest('.card') !== card || [...card.querySelectorAll('*')].some((s) => s !== e && s.contains(e) && scrolls(s))) continue;
          if (e.getBoundingClientRect().width > card.clientWidth) overflowing.push(`${name}: ${e.tagName.toLowerCase()}${e.id ? `#${e.id}` : ''}`);
        }
      }
      const table = document.getElementById('h2h-matrix')!;
      const wrap = table.parentElement!.getBoundingClientRect();
      const last = table.querySelector('thead th:last-child')!.getBoundingClientRect();
      return { overflowing, columns: table.querySelectorAll('thead th').length, last: [last.left, last.right], wrap: [wrap.left, wrap.right], page: [document.documentElement.scrollWidth, document.documentElement.clientWidth] };
    });
    await page.locator('#h2h-card').screenshot({ path: `${browser.artifacts}sweep-dense-head-to-head.png` });
    expect(fit.overflowing).toEqual([]);
    expect(fit.columns).toBe(d.headToHead.configs.length + 1);
    expect(d.headToHead.configs.length).toBeGreaterThanOrEqual(14);
    // The last column within the box that shows the matrix: nothing to scroll to.
    expect(fit.last[1]).toBeLessThanOrEqual(fit.wrap[1]);
    expect(fit.page[0]).toBeLessThanOrEqual(fit.page[1]);
    await page.close();
  });

  test('a swept parameter\'s values on an ordered palette: light to dark by iterations, clearly apart, one colour per agent on the page', async () => {
    const d = await detail(ids.preset);
    const page = await openSweep(ids.preset);
    // Each agent by its display name (the canonical spec), as the headline and the charts show it.
    const swept = [100, 250, 500].map((it) => d.names[d.cells.find((c: any) => c.swept['seats.0.it'] === it).agents[0]]);
    const swatches = Object.fromEntries(
      await page.$$eval('#headline-agents tbody tr', (trs) => trs.map((tr) => [(tr.querySelector('.agent-name')!.firstChild!.textContent ?? '').trim(), getComputedStyle(tr.querySelector('.swatch')!).backgroundColor])),
    );
    const colours = await rgb(page, swept.map((label) => swatches[label]));
    for (let i = 1; i < colours.length; i++) {
      expect(deltaE(colours[i - 1], colours[i]), `${swept[i - 1]} against ${swept[i]}`).toBeGreaterThan(20);
      expect(cielab(colours[i])[0], `${swept[i]} darker than ${swept[i - 1]}`).toBeLessThan(cielab(colours[i - 1])[0] - 10);
    }
    // The agents no parameter changes: apart from the swept ones and from each other.
    const all = await rgb(page, Object.values(swatches));
    all.forEach((a, i) => all.slice(i + 1).forEach((b, j) => expect(deltaE(a, b), `${Object.keys(swatches)[i]} against ${Object.keys(swatches)[i + 1 + j]}`).toBeGreaterThan(10)));
    // Every chart per agent draws it in its headline colour.
    const drawn = await charts(page);
    for (const name of ['chart-wonders', 'chart-stages', 'chart-cards', 'chart-progress']) {
      for (const ds of drawn[name].datasets) {
        const label = Object.keys(swatches).find((l) => ds.label === l || ds.label.endsWith(` · ${l}`))!;
        expect(label, `${name}: ${ds.label}`).toBeDefined();
        expect((await rgb(page, [ds.colour]))[0], `${name}: ${ds.label}`).toEqual((await rgb(page, [swatches[label]]))[0]);
      }
    }
    await page.locator('#headline').screenshot({ path: `${browser.artifacts}sweep-palette-headline.png` });
    await page.close();
  });

  test('one colour per agent configuration across charts and sweeps; each chart saves as PNG and CSV', async () => {
    const colours: Record<string, Set<string>> = {};
    for (const id of [ids.preset, ids.grid]) {
      const page = await openSweep(id);
      const all = await charts(page);
      for (const name of ['chart-wonders', 'chart-stages', 'chart-cards']) {
        for (const ds of all[name].datasets) (colours[ds.label] ??= new Set()).add(ds.colour);
      }
      const swatches = await page.$$eval('#headline-agents tbody tr', (trs) => trs.map((tr) => [(tr.children[0].textContent ?? '').trim(), getComputedStyle(tr.querySelector('.swatch')!).backgroundColor]));
      expect(swatches.length).toBeGreaterThan(0);
      // Exports under every chart: the CSV has a row per point, the PNG is an image.
      const canvases = await page.$$eval('canvas', (cs) => cs.filter((c) => (window as any).Chart.getChart(c)).map((c) => c.id));
      expect(await page.$$eval('.chart-exports', (e) => e.length)).toBe(canvases.length);
      const box = page.locator('#chart-wonders').locator('xpath=../following-sibling::div[1]');
      await box.locator('[data-export=csv]').click();
      const csv = decodeURIComponent((await box.locator('[data-export=csv]').getAttribute('href'))!.split(',').slice(1).join(','));
      const lines = csv.trim().split('\n');
      expect(lines[0]).toBe('series,x,y,low,high,n');
      expect(lines.length - 1).toBe(all['chart-wonders'].datasets.reduce((s: number, ds: any) => s + ds.data.length, 0));
      await box.locator('[data-export=png]').click();
      expect(await box.locator('[data-export=png]').getAttribute('href')).toMatch(/^data:image\/png;base64,/);
      await page.close();
    }
    // 'random' and 'rulebased' sit in both sweeps: one colour each everywhere, and different from each other.
    expect(colours.random.size).toBe(1);
    expect(colours.rulebased.size).toBe(1);
    expect([...colours.random][0]).not.toBe([...colours.rulebased][0]);
    expect(browser.pageErrors).toEqual([]);
  });
});
