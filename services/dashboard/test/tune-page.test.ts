/**
 * A tune's page in a real browser. Racing: the arms with their state, the race chart (an arm's line
 * ends where it left), the recommendation as a spec and its confirmation. SPSA: each option's
 * trajectory with its c_k band; NTBEA: each option value's estimate. All as the API has them.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { api, waitFor, waitForSweep, type TestLab } from '../../coordinator/test/harness.js';
import { BrowserTests } from './browser.js';

const browser = new BrowserTests('tune-page', { pageTimeout: 30_000 });
let lab: TestLab;

beforeAll(
  () =>
    browser.start(async () => {
      lab = await browser.startLab({ workers: 1, slots: 2 });
    }),
  30_000,
);
afterAll(() => browser.close(), 30_000);

const RACE = {
  name: 'race on the page',
  players: 3,
  seats: [{ agent: 'mcts', params: { it: [1, 8, 60], depth: 3 } }, 'random', 'random'],
  seating: 'rotate',
  deals: { firstSeed: 300, count: 60 },
  tune: { method: 'racing', delta: 0.2, epsilon: 0.45, roundDeals: 5, confirm: { firstSeed: 60_000, deals: 4 } },
};

describe('a racing tune on its page', () => {
  test('shows its arms, the race over the looks, the recommendation and its confirmation', async () => {
    const created = await api(lab.url, '/api/sweeps', { method: 'POST', json: RACE });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    await waitForSweep(lab, id, 120_000);
    const d = await waitFor(async () => {
      const body = (await api(lab.url, `/api/sweeps/${id}`)).body;
      return body.tune.confirmation ? body : undefined;
    }, 'the confirmation', 30_000);
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    try {
      await page.goto(`${lab.url}/sweeps/${id}`);
      await page.waitForFunction(() => document.getElementById('status')!.textContent === 'done');
      await page.waitForFunction(() => (window as any).Chart?.getChart(document.getElementById('chart-race')));
      expect(await page.textContent('#tune-spec')).toBe(d.tune.recommendation);
      expect(await page.isVisible('#chart-vp')).toBe(true);
      expect(await page.textContent('#tune-summary')).toMatch(/3 arms in seat 0, the objective: wins at its table; δ = 0\.2, ε = 0\.45, a look every 5 deals: decided at look \d+/);
      const rows = await page.$$eval('#tune-arms tbody tr', (trs) => trs.map((tr) => [...tr.children].map((c) => (c.textContent ?? '').trim())));
      expect(rows.map((r) => r[0])).toEqual(d.tune.race.arms.map((a: any) => a.agent));
      rows.forEach((r, i) => {
        const arm = d.tune.race.arms[i];
        expect(r[3]).toBe(arm.alive ? (d.tune.race.decided.cell === arm.cell ? 'returned' : 'racing') : `left at look ${arm.eliminatedAt}`);
      });
      expect(await page.textContent('#tune-confirmation')).toContain(`Confirmation on held-out deals: ${d.tune.confirmation.sweep}`);
      // The chart: an arm per line, a point at every look it was racing, with its ± radius bar.
      const chart = await page.evaluate(() => {
        const c = (window as any).Chart.getChart(document.getElementById('chart-race'));
        return c.data.datasets.map((ds: any) => ({ label: ds.label, points: ds.data.length, bars: ds.errorBars.length }));
      });
      const history = d.tune.race.history;
      d.tune.race.arms.forEach((arm: any, i: number) => {
        const racing = history.filter((h: any) => h.means[arm.cell] !== null).length;
        expect(chart[i].points).toBe(racing);
        expect(chart[i].bars).toBe(racing);
        if (arm.eliminatedAt !== undefined) expect(chart[i].label).toContain(`left at look ${arm.eliminatedAt}`);
      });
      await page.screenshot({ path: `${browser.artifacts}tune-race.png`, fullPage: true });
      expect(browser.pageErrors).toEqual([]);
    } finally {
      await page.close();
    }
  }, 240_000);
});

const SPSA = {
  name: 'spsa on the page',
  players: 3,
  seats: ['mcts(it=12,depth=2)', 'random', 'random'],
  deals: { firstSeed: 900, count: 1 },
  tune: { method: 'spsa', params: [{ key: 'c', min: 0.1, max: 2, scale: 'log' }, { key: 'it', min: 4, max: 24 }], steps: 6, inFlight: 2 },
};

const NTBEA = {
  name: 'ntbea on the page',
  players: 3,
  seats: ['mcts(it=12,depth=2)', 'mcts(it=12,depth=2)', 'random'],
  deals: { firstSeed: 950, count: 1 },
  tune: { method: 'ntbea', params: [{ key: 'it', values: [2, 12, 30] }], steps: 4, dealsPerStep: 1 },
};

describe('SPSA and NTBEA tunes on their page', () => {
  test('SPSA: the options, their trajectory with the c_k band, the recommendation; NTBEA: each value estimated', async () => {
    const ids: string[] = [];
    for (const spec of [SPSA, NTBEA]) {
      const created = await api(lab.url, '/api/sweeps', { method: 'POST', json: spec });
      expect(created.status).toBe(201);
      ids.push(created.body.id);
    }
    const [spsa, ntbea] = await Promise.all(ids.map((id) => waitForSweep(lab, id, 120_000)));
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    try {
      await page.goto(`${lab.url}/sweeps/${ids[0]}`);
      await page.waitForFunction(() => (window as any).Chart?.getChart(document.getElementById('chart-search')));
      expect(await page.isHidden('#tune')).toBe(true);
      // Its own (empty) per-agent charts, numbers and games are left out; the first step is linked.
      for (const own of ['#headline-agents', '#chart-vp', '#numbers', '#games', '#scope']) expect(await page.isHidden(own)).toBe(true);
      expect(await page.getAttribute('#search-first-step', 'href')).toBe(`/sweeps/${ids[0]}s0`);
      expect(await page.textContent('#search-title')).toBe('Tune: SPSA over the options');
      expect(await page.textContent('#search-summary')).toBe('c, it searched: θ + c_k·δ in seat 0 against θ − c_k·δ in seat 1, a deal a step, seats swapped; 6 of 6 steps applied, 0 playing.');
      expect(await page.textContent('#search-spec')).toBe(spsa.tune.recommendation);
      expect(await page.textContent('#search-confirmation')).toMatch(/no confirmation/);
      const rows = await page.$$eval('#search-table tbody tr', (trs) => trs.map((tr) => [...tr.children].map((c) => (c.textContent ?? '').trim())));
      expect(rows.map((r) => r.slice(0, 2))).toEqual([['c', 'log'], ['it', 'integer']]);
      const chart = await page.evaluate(() => {
        const c = (window as any).Chart.getChart(document.getElementById('chart-search'));
        return c.data.datasets.map((ds: any) => ({ label: ds.label, ys: ds.data.map((p: any) => p.y), bars: ds.errorBars }));
      });
      expect(chart.map((c: any) => c.label)).toEqual(['c', 'it']);
      for (const c of chart) {
        expect(c.ys).toHaveLength(6);
        c.ys.forEach((y: number, i: number) => {
          expect(y).toBeGreaterThanOrEqual(0);
          expect(y).toBeLessThanOrEqual(100);
          expect(c.bars[i][0]).toBeLessThanOrEqual(y + 1e-9);
          expect(c.bars[i][1]).toBeGreaterThanOrEqual(y - 1e-9);
        });
      }
      await page.screenshot({ path: `${browser.artifacts}tune-spsa.png`, fullPage: true });

      await page.goto(`${lab.url}/sweeps/${ids[1]}`);
      await page.waitForFunction(() => (window as any).Chart?.getChart(document.getElementById('chart-search')));
      expect(await page.textContent('#search-title')).toBe('Tune: NTBEA over the options');
      const estimates = await page.$$eval('#search-table tbody tr', (trs) => trs.map((tr) => [...tr.children].map((c) => (c.textContent ?? '').trim())));
      expect(estimates.map((r) => r[0])).toEqual(['it = 2', 'it = 12', 'it = 30']);
      expect(estimates.reduce((n, r) => n + Number(r[1]), 0)).toBe(ntbea.tune.applied);
      const bars = await page.evaluate(() => (window as any).Chart.getChart(document.getElementById('chart-search')).data.labels);
      expect(bars).toEqual(ntbea.tune.estimates[0].values.map((v: any) => `it = ${v.value} (${v.n})`));
      await page.screenshot({ path: `${browser.artifacts}tune-ntbea.png`, fullPage: true });
      expect(browser.pageErrors).toEqual([]);
    } finally {
      await page.close();
    }
  }, 240_000);
});
