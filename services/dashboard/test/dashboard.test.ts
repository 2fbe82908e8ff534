/**
 * The dashboard in a real browser (Debian's chromium driven by playwright-core) against a real lab
 * (coordinator + dashboard + in-process BullMQ workers on the shared Redis, see
 * services/coordinator/test/harness.ts). Every expected value is read from the API, never pasted.
 *
 * Needs chromium (see browser.ts): without it the tests fail (they do not skip). Screenshots go to
 * test-artifacts/dashboard/.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { agentCatalog, listAgents } from '@wonderlab/shared';
import { api, startLab, waitForSweep, type TestLab } from '../../coordinator/test/harness.js';
import { BrowserTests } from './browser.js';

// Pages wait up to 30 s: the sweep of test 1 takes about 11 s on one slot.
const browser = new BrowserTests('dashboard', { pageTimeout: 30_000 });
const ARTIFACTS = browser.artifacts;
const CATEGORIES = ['military', 'treasury', 'wonder', 'civilian', 'commercial', 'guilds', 'science'];
const ROMAN = ['', 'I', 'II', 'III'];

/** The sweep submitted through the form: MCTS at two exploration constants against two rule-based seats. */
const MCTS_ITERATIONS = 100; // ~11 s for the 90 games on one slot: slow enough to watch, fast enough to wait for
const SEAT0 = { agent: 'mcts', params: { it: MCTS_ITERATIONS, c: [0.2, 0.6] } };
const DEALS = 15;
const MAIN_SPEC = { name: 'Browser test: MCTS exploration', players: 3, seats: [SEAT0, 'rulebased', 'rulebased'], deals: { firstSeed: 1, count: DEALS }, seating: 'rotate' };
const MATCHUP_SPEC = {
  name: 'Browser test: matchup',
  players: 3,
  seats: ['random', 'random', 'rulebased'],
  matchup: { specs: ['random', 'rulebased', 'mcts:10'], seats: [0, 1] },
  deals: { count: 3 },
};

const pct = (x: number | null) => (x !== null && Number.isFinite(x) ? (100 * x).toFixed(1) : '–');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let lab: TestLab;
const pageErrors = browser.pageErrors;
let pagesOpened = 0;
let errorsAtStart = 0;
/** The sweep of test 1 (created over the API if that test did not get that far). */
let mainSweepId: string | undefined;

async function newPage(options: Parameters<Browser['newPage']>[0] = {}): Promise<Page> {
  const page = await browser.newPage(options);
  pagesOpened++;
  return page;
}

const shot = (page: Page, name: string, fullPage = true) => page.screenshot({ path: `${ARTIFACTS}${name}.png`, fullPage });

async function detail(l: TestLab, id: string): Promise<any> {
  const res = await api(l.url, `/api/sweeps/${id}`);
  expect(res.status, `GET /api/sweeps/${id}`).toBe(200);
  return res.body;
}

async function sweepIds(l: TestLab): Promise<string[]> {
  const res = await api(l.url, '/api/sweeps');
  expect(res.status).toBe(200);
  return res.body.map((s: any) => s.id).sort();
}

async function ensureMainSweep(): Promise<string> {
  if (!mainSweepId) {
    const res = await api(lab.url, '/api/sweeps', { method: 'POST', json: MAIN_SPEC });
    expect(res.status).toBe(201);
    mainSweepId = res.body.id as string;
  }
  await waitForSweep(lab, mainSweepId, 60_000);
  return mainSweepId;
}

/** A chart's data as plain JSON (NaN becomes null), or null when the canvas has no chart. */
async function chartData(page: Page, canvasId: string): Promise<any> {
  return page.evaluate((id) => {
    const canvas = document.getElementById(id) as HTMLCanvasElement | null;
    const chart = canvas ? (window as any).Chart?.getChart(canvas) : undefined;
    if (!canvas || !chart) return null;
    return JSON.parse(
      JSON.stringify({
        id: chart.id,
        type: chart.config.type,
        labels: chart.data.labels ?? [],
        datasets: chart.data.datasets.map((d: any) => ({ label: d.label, data: d.data, intervals: d.intervals ?? null, errorBars: d.errorBars ?? null })),
        stacked: { x: chart.options.scales?.x?.stacked ?? false, y: chart.options.scales?.y?.stacked ?? false },
        xTitle: chart.options.scales?.x?.title?.text ?? null,
        xType: chart.options.scales?.x?.type ?? null,
        width: canvas.getBoundingClientRect().width,
        height: canvas.getBoundingClientRect().height,
      }),
    );
  }, canvasId);
}

/** Cell texts of a table's body rows. */
async function tableRows(page: Page, selector: string): Promise<string[][]> {
  return page.$$eval(`${selector} tbody tr`, (rows) => rows.map((tr) => [...tr.children].map((c) => (c.textContent ?? '').trim())));
}

const progressValue = (page: Page) => page.$eval('#progress', (p) => (p as HTMLProgressElement).value);

/** Games shown by the parameter chart (its win-rate intervals' n) and by the progression chart (last x of each line). */
function gamesShown(param: any, progress: any): { param: number; progress: number } {
  const paramGames = (param?.datasets?.[0]?.intervals ?? []).reduce((s: number, r: any) => s + (r?.games ?? 0), 0);
  const progressGames = (progress?.datasets ?? []).reduce((s: number, d: any) => s + (d.data.length ? d.data[d.data.length - 1].x : 0), 0);
  return { param: paramGames, progress: progressGames };
}

beforeAll(
  () =>
    browser.start(async () => {
      lab = await browser.startLab({ workers: 1, slots: 1 });
    }),
  30_000,
);

afterAll(() => browser.close(), 30_000);

// Why the browser or the lab could not start: every test fails with it (none is skipped).
beforeEach(() => {
  browser.ready();
  errorsAtStart = pageErrors.length;
});

afterEach(() => {
  expect(pageErrors.slice(errorsAtStart), 'uncaught errors in the pages of this test').toEqual([]);
});

describe('dashboard in a real browser', () => {
  test('1. submit through the form, then watch the sweep page update live until done', async () => {
    const page = await newPage();
    await page.goto(`${lab.url}/submit`);
    await page.waitForSelector('#f-seats-2');
    // The preset list comes from /dashboard/presets.json; choose none of them.
    const presets = (await api(lab.url, '/dashboard/presets.json')).body as { id: string }[];
    expect(presets.length).toBeGreaterThan(0);
    await page.waitForFunction((n) => (document.getElementById('preset') as HTMLSelectElement).options.length === n, presets.length + 1);
    expect(await page.$eval('#preset', (s) => (s as HTMLSelectElement).value)).toBe('');

    await page.fill('#f-name', MAIN_SPEC.name);
    // Seat 0 as an agent with options: `it` set, `c` swept over two values (typed as a list).
    await page.selectOption('#f-seats-0-form', { label: 'agent with options' });
    await page.fill('#f-seats-0-agent', SEAT0.agent);
    await page.selectOption('#f-seats-0-params-add', 'it');
    await page.fill('#f-seats-0-params-it', String(SEAT0.params.it));
    await page.selectOption('#f-seats-0-params-add', 'c');
    await page.fill('#f-seats-0-params-c', SEAT0.params.c.join(', '));
    await page.fill('#f-seats-1', 'rulebased');
    await page.fill('#f-seats-2', 'rulebased');
    await page.fill('#f-deals-count', String(DEALS));
    // A field left alone stays out of the spec (the schema's default applies): firstSeed is typed.
    expect(JSON.parse(await page.inputValue('#f-json')).deals).toEqual({ count: DEALS });
    await page.fill('#f-deals-firstSeed', String(MAIN_SPEC.deals.firstSeed));
    await page.selectOption('#f-seating', 'rotate');
    // The JSON view follows the form, and the API finds it valid.
    const shown = JSON.parse(await page.inputValue('#f-json'));
    expect(shown).toMatchObject(MAIN_SPEC);
    const check = await api(lab.url, '/api/sweeps/validate', { method: 'POST', json: shown });
    expect(check.status).toBe(200);
    // (waits for the check of the final form: earlier checks of intermediate specs may show first)
    await page.waitForFunction((games) => (document.getElementById('validation')!.textContent ?? '').startsWith(`Valid: ${games} games`), check.body.games, { timeout: 3000 });

    const before = await sweepIds(lab);
    await page.click('#submit');
    await page.waitForURL(/\/sweeps\/[^/]+$/);
    const id = decodeURIComponent(new URL(page.url()).pathname.split('/')[2]);
    mainSweepId = id;
    const after = await sweepIds(lab);
    expect(after).toEqual([...before, id].sort());
    const created = await detail(lab, id);
    expect(created.spec).toMatchObject(MAIN_SPEC);
    expect(created.counts.total).toBe(check.body.games);
    expect(created.cells.length).toBe(2);

    // Live: the progress bar grows, charts update in place.
    await page.waitForFunction(() => document.getElementById('status')!.textContent !== '…');
    await page.evaluate(() => ((window as any).__sameDocument = true));
    const p0 = await progressValue(page);
    await page.waitForFunction((p) => (document.getElementById('progress') as HTMLProgressElement).value > p, p0, { timeout: 20_000 });
    const p1 = await progressValue(page);
    expect(p1).toBeGreaterThan(p0);
    expect(p1, 'the sweep finished before it could be watched: raise MCTS_ITERATIONS').toBeLessThan(1);
    const firstParam = await chartData(page, 'param-seats-0-c');
    const firstProgress = await chartData(page, 'chart-progress');
    const firstVp = await chartData(page, 'chart-vp');
    expect(firstParam, 'parameter chart while running').not.toBeNull();
    expect(firstProgress, 'progression chart while running').not.toBeNull();
    expect(firstVp, 'VP chart while running').not.toBeNull();
    const firstGames = gamesShown(firstParam, firstProgress);
    await shot(page, 'sweep-running');
    await page.waitForFunction((p) => (document.getElementById('progress') as HTMLProgressElement).value > p, p1, { timeout: 20_000 });
    const p2 = await progressValue(page);
    expect(p2).toBeGreaterThan(p1);

    // Done: compare the charts with the API's numbers.
    await waitForSweep(lab, id, 60_000);
    await page.waitForFunction(() => document.getElementById('status')!.textContent === 'done', undefined, { timeout: 20_000 });
    const d = await detail(lab, id);
    expect(d.status).toBe('done');
    // The header follows each live event at once; the charts follow the sweep's detail, fetched
    // after it (no sooner than four times the last fetch took): wait until they count every game.
    const seatZeroGames = d.cells.reduce((s: number, c: any) => s + c.labels.find((l: any) => l.label === c.agents[0]).games, 0);
    await page.waitForFunction(
      (games) => {
        const chart = (window as any).Chart?.getChart(document.getElementById('param-seats-0-c'));
        return (chart?.data.datasets[0].intervals ?? []).reduce((s: number, r: any) => s + (r?.games ?? 0), 0) === games;
      },
      seatZeroGames,
      { timeout: 20_000 },
    );
    expect(await progressValue(page)).toBe(1);
    expect(await page.evaluate(() => (window as any).__sameDocument)).toBe(true);
    expect((await page.textContent('#status'))?.trim()).toBe('done');
    expect(await page.textContent('#counts')).toContain(`${d.counts.done} of ${d.counts.total} games done`);
    expect(await page.isHidden('#matchup')).toBe(true);

    // Parameter chart: one point per value of seats.0.c, win % = pooled wins / games of seat 0's agent.
    const param = await chartData(page, 'param-seats-0-c');
    expect(param.id, 'the parameter chart was re-created instead of updated').toBe(firstParam.id);
    const values = [...new Set(d.cells.map((c: any) => c.swept['seats.0.c']))].sort((a: any, b: any) => a - b);
    // A numeric axis titled with the parameter table's name, one point per value.
    expect(param.datasets[0].data.map((p: any) => p.x)).toEqual(values);
    expect(values).toEqual(SEAT0.params.c);
    expect(param.xTitle).toMatch(/^exploration constant C/);
    const winRates = values.map((v) => {
      let wins = 0;
      let games = 0;
      for (const cell of d.cells.filter((c: any) => c.swept['seats.0.c'] === v)) {
        const l = cell.labels.find((q: any) => q.label === cell.agents[0]);
        wins += l.wins;
        games += l.games;
      }
      expect(games).toBe(d.gamesPerCell);
      return (100 * wins) / games;
    });
    expect(param.datasets[0].label).toMatch(/win/);
    expect(param.datasets[0].data.length).toBe(winRates.length);
    param.datasets[0].data.forEach((p: any, i: number) => expect(p.y, `win % at c=${values[i]}`).toBeCloseTo(winRates[i], 9));

    // VP box plots: one per (cell, label) in order, with the API's quantiles.
    const vp = await chartData(page, 'chart-vp');
    expect(vp.id).toBe(firstVp.id);
    expect(vp.type).toBe('boxplot');
    const boxes = d.cells.flatMap((c: any) => c.labels.filter((l: any) => l.games > 0).map((l: any) => ({ cell: c, l })));
    expect(boxes.length).toBe(d.cells.reduce((s: number, c: any) => s + c.labels.length, 0));
    expect(vp.labels.length).toBe(boxes.length);
    expect(vp.datasets[0].data.length).toBe(boxes.length);
    boxes.forEach(({ cell, l }: any, i: number) => {
      expect(vp.labels[i]).toContain(String(cell.swept['seats.0.c']));
      // Each agent by its display name (the canonical spec).
      expect(vp.labels[i].endsWith(` · ${l.config}`), vp.labels[i]).toBe(true);
      const box = vp.datasets[0].data[i];
      expect({ min: box.min, median: box.median, max: box.max, q1: box.q1, q3: box.q3 }).toEqual({ min: l.vp.min, median: l.vp.median, max: l.vp.max, q1: l.vp.q1, q3: l.vp.q3 });
    });

    // Score breakdown: 7 stacked categories per pooled agent; a stack adds up to the agent's mean VP.
    const breakdown = await chartData(page, 'chart-breakdown');
    expect(breakdown.stacked).toEqual({ x: true, y: true });
    expect(breakdown.datasets.map((ds: any) => ds.label)).toEqual(CATEGORIES);
    const pooled = new Map<string, { games: number; vp: number }>();
    for (const cell of d.cells) {
      for (const l of cell.labels) {
        const p = pooled.get(l.label) ?? { games: 0, vp: 0 };
        p.games += l.games;
        p.vp += l.vp.mean * l.games;
        pooled.set(l.label, p);
      }
    }
    // The agents in the sweep's order: seat 0's by its value of c, then those no parameter changes.
    const c = (label: string) => d.cells.find((cell: any) => cell.agents[0] === label)?.swept['seats.0.c'] ?? Number.MAX_VALUE;
    const order = [...pooled.keys()].sort((a, b) => c(a) - c(b));
    // Each agent by its display name (the canonical spec).
    expect(breakdown.labels).toEqual(order.map((label) => d.names[label]));
    order.forEach((label: string, i: number) => {
      const stack = breakdown.datasets.reduce((s: number, ds: any) => s + ds.data[i], 0);
      expect(stack, `stacked mean points of ${label}`).toBeCloseTo(pooled.get(label)!.vp / pooled.get(label)!.games, 6);
    });

    // Progression: one line per (cell, label), ending at the label's games and win rate.
    const progress = await chartData(page, 'chart-progress');
    expect(progress.id).toBe(firstProgress.id);
    const lines = d.cells.flatMap((c: any) => c.labels.filter((l: any) => l.progression.length));
    expect(progress.datasets.length).toBe(lines.length);
    progress.datasets.forEach((ds: any, i: number) => {
      const last = ds.data[ds.data.length - 1];
      expect(last.x).toBe(lines[i].games);
      expect(last.y).toBeCloseTo(100 * lines[i].winRate, 9);
    });

    // Same chart instances, more games than at first.
    const lastGames = gamesShown(param, progress);
    expect(lastGames.param).toBe(seatZeroGames);
    expect(lastGames.param).toBeGreaterThan(firstGames.param);
    expect(lastGames.progress).toBeGreaterThan(firstGames.progress);

    for (const idc of ['chart-wonders', 'chart-stages', 'chart-cards']) {
      const c = await chartData(page, idc);
      expect(c, idc).not.toBeNull();
      expect(c.labels.length, `${idc} labels`).toBeGreaterThan(0);
      expect(c.datasets.length, `${idc} datasets`).toBe(pooled.size);
    }

    // Every number: a row per (cell, label) with the API's games and wins.
    const all = await tableRows(page, '#numbers');
    const rows = all.filter((r) => !r[1].endsWith(', paired') && !r[1].includes("(the spec's seat"));
    expect(rows.length).toBe(boxes.length);
    // 'rulebased' sits in seats 1 and 2: each seat's agent also gets a row of its own.
    for (const cell of d.cells) {
      for (const r of cell.roles) {
        const row = all.find((x) => x[0].startsWith(`${cell.index}:`) && x[1] === `${d.names[r.agent]} (the spec's seat ${r.seat} alone)`);
        expect(row, `role row for cell ${cell.index}, seat ${r.seat}`).toBeDefined();
        expect(row![2]).toBe(String(r.games));
        expect(row![3]).toBe(String(r.wins));
      }
    }
    for (const cell of d.cells) {
      for (const l of cell.labels) {
        // The agent by its canonical spec, the spec as submitted on a second line where it differs.
        const shownAs = l.config === l.label ? l.label : `${l.config}${l.label}`;
        const row = rows.find((r) => r[0].startsWith(`${cell.index}:`) && r[1] === shownAs);
        expect(row, `numbers row for cell ${cell.index}, ${l.label}`).toBeDefined();
        expect(row![2]).toBe(String(l.games));
        expect(row![3]).toBe(String(l.wins));
        expect(row![6]).toBe(`${pct(l.winRate)} ± ${pct(l.halfWidth)}`);
      }
    }
    // Progress per cell: a row per cell with the API's counts (games are queued across cells, so both advanced together).
    const cellRows = await tableRows(page, '#cell-progress');
    expect(cellRows.map((r) => [r[0].split(':')[0], r[2], r[4], r[5]])).toEqual(d.cellProgress.map((c: any) => [String(c.index), `${c.done} / ${c.total}`, String(c.failed), String(c.queued)]));
    expect(d.cellProgress.map((c: any) => c.done)).toEqual(d.cells.map((c: any) => c.games));
    expect(await page.textContent('#rate')).toMatch(/games\/s over its running time/);
    await shot(page, 'sweep-done');
  }, 75_000);

  test('2. a matchup sweep shows its win-rate matrix', async () => {
    const res = await api(lab.url, '/api/sweeps', { method: 'POST', json: MATCHUP_SPEC });
    expect(res.status).toBe(201);
    const id = res.body.id as string;
    const d = await waitForSweep(lab, id, 30_000);
    expect(d.status).toBe('done');
    const games = (await api(lab.url, `/api/sweeps/${id}/games?offset=0&limit=${d.counts.total}`)).body.items;
    expect(games.length).toBe(d.counts.total);

    const page = await newPage();
    await page.goto(`${lab.url}/sweeps/${id}`);
    await page.waitForFunction(() => document.getElementById('status')!.textContent === 'done');
    await page.waitForSelector('#matchup-matrix tbody tr');
    expect(await page.isVisible('#matchup')).toBe(true);
    expect(await page.$$('#params canvas')).toHaveLength(0);

    const specs = MATCHUP_SPEC.matchup.specs;
    const [a, b] = MATCHUP_SPEC.matchup.seats;
    // The matrix names each agent by its canonical spec (`mcts(it=10)` for `mcts:10`), the spec as submitted on hover.
    const names = (await api(lab.url, `/api/sweeps/${id}`)).body.names as Record<string, string>;
    expect(names['mcts:10']).toBe('mcts(it=10)');
    const header = await page.$$eval('#matchup-matrix thead th', (ths) => ths.map((th) => th.textContent));
    expect(header.slice(1)).toEqual(specs.map((s) => names[s]));
    expect(await page.$$eval('#matchup-matrix thead th', (ths) => ths.map((th) => th.getAttribute('title')))).toEqual([null, null, null, 'as submitted: mcts:10']);
    const matrix = await page.$$eval('#matchup-matrix tbody tr', (trs) =>
      trs.map((tr) => ({
        head: tr.querySelector('th')?.textContent,
        cells: [...tr.querySelectorAll('td')].map((td) => ({ row: td.getAttribute('data-row'), col: td.getAttribute('data-col'), title: td.getAttribute('title'), text: td.textContent })),
      })),
    );
    expect(matrix.length).toBe(3);
    const problems: string[] = [];
    matrix.forEach((r, i) => {
      expect(r.head).toBe(names[specs[i]]);
      expect(r.cells.length).toBe(3);
      r.cells.forEach((c, j) => {
        if (i === j) {
          expect(c.row, 'diagonal cell').toBeNull();
          expect(c.title).toBeNull();
          expect(c.text).toBe('—');
          return;
        }
        expect(c.row).toBe(specs[i]);
        expect(c.col).toBe(specs[j]);
        // The row agent's games and wins in its matchup seat against the column agent, from the games.
        const played = games.filter((g: any) => g.summary.players[a].agent === specs[i] && g.summary.players[b].agent === specs[j]);
        const wins = played.filter((g: any) => g.summary.players[a].winner).length;
        expect(played.length).toBe(d.counts.total / (specs.length * (specs.length - 1)));
        const expected = `${names[specs[i]]} against ${names[specs[j]]}: ${pct(wins / played.length)} %`;
        if (!c.title?.startsWith(expected) || !c.title.endsWith(`, ${played.length} games`)) {
          problems.push(`[${specs[i]} vs ${specs[j]}] title "${c.title}", expected "${expected} … , ${played.length} games" (${wins} wins of ${played.length} games in seat ${a})`);
        }
      });
    });
    await shot(page, 'matchup');
    expect(problems, 'matchup matrix cells that disagree with the games').toEqual([]);

    // Beside it, the head-to-head matrix and the ratings ladder, as the API computes them.
    const versus = (await api(lab.url, `/api/sweeps/${id}/ratings`)).body;
    expect(versus.headToHead.configs).toEqual(['random', 'rulebased', 'mcts:10']);
    expect(await page.isVisible('#versus')).toBe(true);
    const h2h = await page.$$eval('#h2h-matrix tbody tr', (trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => ({ title: td.getAttribute('title'), text: td.textContent, fill: (td as HTMLElement).style.background }))));
    versus.headToHead.rows.forEach((row: any[], i: number) =>
      row.forEach((c: any, j: number) => {
        if (!c) return expect(h2h[i][j].text).toBe('—');
        expect(h2h[i][j].text).toBe(`${pct(c.score)} %`);
        expect(h2h[i][j].title).toContain(`in ${pct(c.score)} % of ${c.games} games`);
        expect(h2h[i][j].title).toContain(`Wilson 95 % ${pct(c.interval.low)}–${pct(c.interval.high)}`);
        expect(h2h[i][j].fill).not.toBe('');
      }),
    );
    // Both matrices have a colour key: 11 swatches, the ends and the middle labelled.
    for (const key of ['#h2h-key', '#matchup-key']) {
      expect(await page.$$eval(`${key} span`, (ss) => ss.map((x) => x.textContent))).toEqual(['0 %', '', '', '', '', '50 %', '', '', '', '', '100 %']);
      expect(await page.getAttribute(key, 'aria-label')).toMatch(/Colour key/);
    }
    const ladder = await chartData(page, 'chart-ratings');
    // The configurations by their display names (the canonical spec; `mcts(it=10)` for `mcts:10`).
    const shown = (config: string) => names[config] ?? config;
    expect(ladder.labels).toEqual(versus.ratings.ratings.map((r: any) => shown(r.config)));
    expect(ladder.datasets[0].data).toEqual(versus.ratings.ratings.map((r: any) => [r.low, r.high]));
    expect(ladder.datasets[1].data.map((p: any) => p.x)).toEqual(versus.ratings.ratings.map((r: any) => r.elo));
    const ratingRows = await tableRows(page, '#ratings-table');
    expect(ratingRows.map((r) => r.slice(0, 4))).toEqual(versus.ratings.ratings.map((r: any) => [shown(r.config) === r.config ? r.config : `${shown(r.config)}${r.config}`, r.elo.toFixed(0), `[${r.low.toFixed(0)}, ${r.high.toFixed(0)}]`, String(r.games)]));
    await page.$eval('#versus', (e) => e.scrollIntoView());
    await shot(page, 'ratings-and-head-to-head');
  }, 45_000);

  test('3. the game page shows the final scores and every recorded step', async () => {
    const id = await ensureMainSweep();
    const page = await newPage();
    await page.goto(`${lab.url}/sweeps/${id}`);
    await page.waitForFunction(() => document.getElementById('status')!.textContent === 'done');
    await page.waitForSelector('#games tbody tr a');
    const firstListed = (await api(lab.url, `/api/sweeps/${id}/games?offset=0&limit=1`)).body.items[0];
    const link = page.locator('#games tbody tr a').first();
    expect(await link.textContent()).toBe(firstListed.id);
    await link.click();
    await page.waitForURL(/\/sweeps\/[^/]+\/games\/[^/]+$/);
    const gameId = decodeURIComponent(new URL(page.url()).pathname.split('/')[4]);
    expect(gameId).toBe(firstListed.id);

    const game = (await api(lab.url, `/api/sweeps/${id}/games/${gameId}`)).body;
    const timeline = await api(lab.url, `/api/sweeps/${id}/games/${gameId}/timeline`);
    expect(timeline.status).toBe(200);
    const steps = timeline.body.steps;
    await page.waitForSelector('#turns tbody tr');
    expect(await page.getAttribute('#back', 'href')).toBe(`/sweeps/${id}`);
    expect(await page.textContent('#summary')).toContain(`Seed ${game.seed}`);

    const final = await tableRows(page, '#final');
    expect(final.length).toBe(game.players.length);
    game.players.forEach((p: any, i: number) => {
      const row = final[i];
      expect(row[0]).toBe(String(p.seat));
      // The agent by its canonical spec, the spec as submitted on a second line where it differs.
      expect(row[1]).toBe(p.canonical === p.agent ? p.agent : `${p.canonical}${p.agent}`);
      expect(row[2]).toBe(`${p.city} ${p.side}`);
      CATEGORIES.forEach((c, k) => expect(row[3 + k], `${c} of seat ${p.seat}`).toBe(String(p.score[c])));
      expect(row[10]).toBe(p.winner ? `${p.score.total} ★` : String(p.score.total));
      expect(row.slice(11)).toEqual([String(p.coins), String(p.stages), String(p.rank)]);
    });

    const turns = await tableRows(page, '#turns');
    expect(steps.filter((s: any) => s.phase === 'turn').length).toBe(18);
    expect(turns.length).toBe(steps.length);
    steps.forEach((s: any, i: number) => {
      if (s.phase === 'turn') expect(turns[i][0]).toBe(`Age ${ROMAN[s.age]}, turn ${s.turn}`);
      else expect(turns[i][0]).toMatch(new RegExp(`^Age ${ROMAN[s.age]}, `));
    });
    await shot(page, 'game');
  }, 60_000);

  test('3b. the game page describes every kind of move in words', async () => {
    const id = await ensureMainSweep();
    const items = (await api(lab.url, `/api/sweeps/${id}/games?offset=0&limit=100`)).body.items as any[];
    // A game with moves other than build, stage and discard (Halikarnassos' build from the
    // discard pile, Olympia's free build), found through the API.
    let found: { gameId: string; steps: any[] } | undefined;
    for (const g of items) {
      const { body } = await api(lab.url, `/api/sweeps/${id}/games/${g.id}/timeline`);
      if (body.steps.some((s: any) => s.moves.some((m: any) => !['build', 'stage', 'discard'].includes(m.action)))) {
        found = { gameId: g.id, steps: body.steps };
        break;
      }
    }
    expect(found, `no game of sweep ${id} has a free build or a build from the discard pile`).toBeDefined();
    const { gameId, steps } = found!;
    const game = (await api(lab.url, `/api/sweeps/${id}/games/${gameId}`)).body;
    const page = await newPage();
    await page.goto(`${lab.url}/sweeps/${id}/games/${gameId}`);
    await page.waitForSelector('#turns tbody tr');
    const moveTexts = await page.$$eval('#turns tbody tr', (trs) => trs.map((tr) => [...tr.querySelectorAll('td.seat-cell')].map((td) => td.firstElementChild?.textContent ?? '')));
    expect(moveTexts.length).toBe(steps.length);
    const unreadable: string[] = [];
    steps.forEach((s: any, i: number) => {
      game.players.forEach((p: any, q: number) => {
        const move = s.moves.find((m: any) => m.seat === p.seat);
        const text = moveTexts[i][q];
        if (!move) {
          expect(text).toBe('—');
          return;
        }
        expect(text, `step ${i}, seat ${p.seat}`).toContain(move.card);
        if (!/^(builds|discards) /.test(text) || text.includes(move.action + ' ') && !['build', 'stage', 'discard'].includes(move.action)) {
          unreadable.push(`step ${i} (${s.phase}), seat ${p.seat}: action '${move.action}' shown as "${text}"`);
        }
      });
    });
    await shot(page, 'game-special-moves');
    expect(unreadable, 'moves shown as raw action names').toEqual([]);
  }, 60_000);

  test('4. the submit form shows validation errors at their fields and will not submit an invalid spec', async () => {
    const page = await newPage();
    await page.goto(`${lab.url}/submit`);
    await page.waitForSelector('#f-seats-2');
    const before = await sweepIds(lab);

    // A bad agent in seat 1: an error next to that input within a second.
    await page.fill('#f-seats-1', 'mcts(it=abc)');
    await page.waitForSelector('.field-error[data-error-for="seats.1"]', { timeout: 1000 });
    expect(await page.getAttribute('#f-seats-1', 'aria-invalid')).toBe('true');
    expect(await page.getAttribute('#f-seats-1', 'class')).toContain('invalid');
    const seatError = await api(lab.url, '/api/sweeps/validate', { method: 'POST', json: JSON.parse(await page.inputValue('#f-json')) });
    expect(seatError.body.field).toBe('seats.1');
    expect(await page.textContent('.field-error[data-error-for="seats.1"]')).toBe(seatError.body.error);
    expect(await page.isVisible('#errors')).toBe(true);
    // The message sits in the seat's own field box.
    expect(await page.$eval('.field-error[data-error-for="seats.1"]', (n) => n.parentElement?.getAttribute('data-field'))).toBe('seats.1');
    await shot(page, 'submit-validation-error');

    // Fixed: the errors go away and the spec is valid.
    await page.fill('#f-seats-1', 'rulebased');
    await page.waitForSelector('.field-error', { state: 'detached', timeout: 2000 });
    await page.waitForFunction(() => /^Valid/.test(document.getElementById('validation')!.textContent ?? ''), undefined, { timeout: 2000 });
    expect(await page.getAttribute('#f-seats-1', 'aria-invalid')).toBeNull();
    expect(await page.isHidden('#errors')).toBe(true);

    // Too many players.
    await page.fill('#f-players', '9');
    await page.waitForSelector('.field-error[data-error-for="players"]', { timeout: 2000 });
    expect(await page.getAttribute('#f-players', 'aria-invalid')).toBe('true');
    await page.fill('#f-players', '3');
    await page.waitForSelector('.field-error', { state: 'detached', timeout: 2000 });
    const valid = await api(lab.url, '/api/sweeps/validate', { method: 'POST', json: JSON.parse(await page.inputValue('#f-json')) });
    expect(valid.status).toBe(200);
    const validText = `Valid: ${valid.body.games} games in ${valid.body.cells} cell${valid.body.cells === 1 ? '' : 's'} of ${valid.body.gamesPerCell}, about `;
    await page.waitForFunction((t) => (document.getElementById('validation')!.textContent ?? '').startsWith(t), validText, { timeout: 2000 });
    // The estimated CPU time, in the unit that reads best.
    expect(await page.textContent('#validation')).toMatch(/, about \d+(\.\d)? (s|min|h) of CPU\.$/);
    expect(await page.getAttribute('#f-players', 'aria-invalid')).toBeNull();
    // Changing the players changed the players only: the three seats are still there.
    expect(await page.$$('[data-field="seats"] > .list-item')).toHaveLength(3);

    // No deals, then submit anyway: the page stays, shows the error, and nothing is created.
    await page.fill('#f-deals-count', '0');
    await page.waitForSelector('.field-error[data-error-for="deals.count"]', { timeout: 2000 });
    expect(await page.getAttribute('#f-deals-count', 'aria-invalid')).toBe('true');
    const url = page.url();
    const answer = page.waitForResponse((r) => r.url() === `${lab.url}/api/sweeps` && r.request().method() === 'POST');
    await page.click('#submit');
    expect((await answer).status()).toBe(400);
    await page.waitForSelector('.field-error[data-error-for="deals.count"]');
    await sleep(300);
    expect(page.url()).toBe(url);
    expect(await sweepIds(lab)).toEqual(before);
  }, 30_000);

  test('4b. the submit page lists every MCTS option from the parameter table, and seats suggest the agent kinds', async () => {
    const page = await newPage();
    await page.goto(`${lab.url}/submit`);
    await page.waitForSelector('#agent-options-table tbody tr', { state: 'attached' });
    const catalog = agentCatalog();
    const named = catalog.kinds.filter((k) => k.mcts).map((k) => k.kind);
    const rows = await page.$$eval('#agent-options-table tbody tr', (trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent)));
    // The meaning's `code` spans are drawn as code: its text without the backticks.
    expect(rows).toEqual(catalog.parameters.map((p) => [p.key, p.range, ...named.map((k) => p.defaults[k as keyof typeof p.defaults]), p.meaning.replaceAll('`', '')]));
    const header = await page.$$eval('#agent-options-table thead th', (ths) => ths.map((th) => th.textContent));
    expect(header).toEqual(['key', 'range', ...named, 'meaning']);
    // The kinds, then each outside agent installed (the repository's agents/ here) as the spec that plays it.
    const outside = listAgents().agents.map((a) => `ext(name=${a.manifest.name})`);
    expect(outside.length).toBeGreaterThan(0);
    expect(await page.$$eval('#agent-kinds option', (os) => os.map((o) => (o as HTMLOptionElement).value))).toEqual([...catalog.kinds.map((k) => k.kind), ...outside]);
    expect(await page.getAttribute('#f-seats-0', 'list')).toBe('agent-kinds');
    expect(await page.textContent('#bury-rule')).toContain(catalog.buryRule);
  }, 30_000);

  test('5. a lab with an API token: the page asks for it, then submits with it', async () => {
    const secured = await startLab({ workers: 0, apiToken: 'secret' });
    try {
      const page = await newPage();
      await page.goto(`${secured.url}/submit`);
      await page.waitForSelector('#f-seats-2');
      await page.fill('#f-name', 'Browser test: token');
      await page.fill('#f-deals-count', '2');
      let answer = page.waitForResponse((r) => r.url() === `${secured.url}/api/sweeps` && r.request().method() === 'POST');
      await page.click('#submit');
      expect((await answer).status()).toBe(401);
      await page.waitForSelector('#errors:not([hidden])');
      expect(await page.textContent('#errors')).toMatch(/API token/);
      expect(await page.getAttribute('#token', 'class')).toContain('invalid');
      expect(new URL(page.url()).pathname).toBe('/submit');
      expect(await sweepIds(secured)).toEqual([]);

      await page.fill('#token', 'secret');
      answer = page.waitForResponse((r) => r.url() === `${secured.url}/api/sweeps` && r.request().method() === 'POST');
      await page.click('#submit');
      expect((await answer).status()).toBe(201);
      await page.waitForURL(/\/sweeps\/[^/]+$/);
      const id = decodeURIComponent(new URL(page.url()).pathname.split('/')[2]);
      expect(await sweepIds(secured)).toEqual([id]);
      expect((await detail(secured, id)).name).toBe('Browser test: token');
      await page.close();
    } finally {
      await secured.close();
    }
  }, 30_000);

  test('6. the sweeps list shows every sweep with its progress and status', async () => {
    await ensureMainSweep();
    const list = (await api(lab.url, '/api/sweeps')).body as any[];
    expect(list.length).toBeGreaterThanOrEqual(1);
    const page = await newPage();
    await page.goto(`${lab.url}/`);
    await page.waitForSelector('#sweeps tbody tr[data-sweep]');
    const rows = await page.$$eval('#sweeps tbody tr[data-sweep]', (trs) =>
      trs.map((tr) => ({
        id: tr.getAttribute('data-sweep'),
        name: tr.querySelector('td a')?.textContent,
        href: tr.querySelector('td a')?.getAttribute('href'),
        status: tr.querySelector('td.status')?.textContent,
        progress: (tr.querySelector('progress') as HTMLProgressElement | null)?.value ?? null,
      })),
    );
    expect(rows.map((r) => r.id).sort()).toEqual(list.map((s) => s.id).sort());
    for (const s of list) {
      const row = rows.find((r) => r.id === s.id)!;
      expect(row.name).toBe(s.name);
      expect(row.href).toBe(`/sweeps/${s.id}`);
      expect(row.status).toBe(s.status);
      expect(row.progress).toBeCloseTo(s.progress, 9);
    }
    expect(await page.isHidden('#empty')).toBe(true);
    await shot(page, 'sweeps-list');
  }, 60_000);

  test('7. on a phone (390×844) the sweep page does not overflow sideways and the charts have a size', async () => {
    const id = await ensureMainSweep();
    const page = await newPage({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
    await page.goto(`${lab.url}/sweeps/${id}`);
    await page.waitForFunction(() => document.getElementById('status')!.textContent === 'done');
    await page.waitForSelector('#games tbody tr');
    // Charts of sections this sweep does not show (a stopping rule's, for one) are hidden, and have no size.
    const sizes = await page.$$eval('canvas', (cs) => cs.filter((c) => !c.closest('[hidden]')).map((c) => ({ id: c.id, width: c.getBoundingClientRect().width, height: c.getBoundingClientRect().height })));
    expect(sizes.map((s) => s.id)).toEqual(expect.arrayContaining(['chart-vp', 'chart-breakdown', 'chart-wonders', 'chart-stages', 'chart-cards', 'chart-progress', 'param-seats-0-c']));
    for (const s of sizes) {
      expect(s.width, `${s.id} width`).toBeGreaterThan(0);
      expect(s.height, `${s.id} height`).toBeGreaterThan(0);
      expect(s.width, `${s.id} width`).toBeLessThanOrEqual(390);
    }
    const widths = await page.evaluate(() => ({ document: document.documentElement.scrollWidth, body: document.body.scrollWidth, inner: window.innerWidth }));
    expect(widths.inner).toBe(390);
    expect(widths.document, 'sweep page: document wider than the phone').toBeLessThanOrEqual(393);
    expect(widths.body, 'sweep page: body wider than the phone').toBeLessThanOrEqual(393);
    // Wide tables scroll inside their wrapper instead of widening the page.
    const numbersWrap = await page.$eval('#numbers', (t) => ({ wrapped: t.parentElement!.classList.contains('table-wrap'), table: t.scrollWidth, wrap: t.parentElement!.clientWidth }));
    expect(numbersWrap.wrapped).toBe(true);
    expect(numbersWrap.wrap).toBeLessThanOrEqual(390);
    await shot(page, 'phone-sweep');
  }, 60_000);

  test('7b. on a phone (390×844) the list, game and submit pages do not overflow sideways either', async () => {
    const id = await ensureMainSweep();
    const page = await newPage({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
    const gameId = (await api(lab.url, `/api/sweeps/${id}/games?offset=0&limit=1`)).body.items[0].id;
    const overflow: string[] = [];
    for (const [path, ready] of [
      ['/', '#sweeps tbody tr'],
      ['/submit', '#f-seats-2'],
      [`/sweeps/${id}/games/${gameId}`, '#turns tbody tr'],
    ]) {
      await page.goto(`${lab.url}${path}`);
      await page.waitForSelector(ready);
      const w = await page.evaluate(() => document.documentElement.scrollWidth);
      // What sticks out: the outermost elements whose right edge passes the viewport.
      const culprits = await page.evaluate(() =>
        [...document.querySelectorAll('main *')]
          .filter((e) => e.getBoundingClientRect().right > 393 && !(e.parentElement && e.parentElement.getBoundingClientRect().right > 393 && e.parentElement.tagName !== 'MAIN') && !e.closest('.table-wrap'))
          .map((e) => `<${e.tagName.toLowerCase()}${e.id ? '#' + e.id : ''}${e.className ? '.' + e.className : ''}> ${Math.round(e.getBoundingClientRect().width)} px wide`),
      );
      if (w > 393) overflow.push(`${path}: scrollWidth ${w} (${culprits.join(', ')})`);
      await shot(page, `phone-${path === '/' ? 'list' : path.split('/')[1] === 'sweeps' ? 'game' : 'submit'}`);
    }
    expect(overflow).toEqual([]);
  }, 60_000);

  test('8. no uncaught errors in any page', async () => {
    // The listener itself works: an error thrown in a page is caught...
    const probe = await newPage();
    await probe.goto(`${lab.url}/`);
    await probe.evaluate(() => setTimeout(() => { throw new Error('probe error'); }, 0));
    await sleep(200);
    const caught = pageErrors.findIndex((e) => e.includes('probe error'));
    expect(caught, 'page errors are not being recorded').toBeGreaterThanOrEqual(0);
    pageErrors.splice(caught, 1);
    // ...and none came from the dashboard during the tests above.
    expect(pagesOpened).toBeGreaterThanOrEqual(9);
    expect(pageErrors).toEqual([]);
  });
});
