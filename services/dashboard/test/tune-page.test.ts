/**
 * A racing tune's page in a real browser: the arms with their state, the race chart (an arm's line
 * ends where it left), the recommendation as a spec and its confirmation, all as the API has them.
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
