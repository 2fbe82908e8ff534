/**
 * Comparing sweeps and reading how one was made, in a real browser (Debian's chromium, see
 * dashboard.test.ts) against a real lab: two sweeps ticked in the list open the compare view,
 * whose curves, pooled agents and summary rows are the API's; a sweep's page shows its provenance.
 * Screenshots go to test-artifacts/compare/.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { api, waitForSweep, type TestLab } from '../../coordinator/test/harness.js';
import { BrowserTests, submitSweep } from './browser.js';

const browser = new BrowserTests('compare');
const ARTIFACTS = browser.artifacts;
const pageErrors = browser.pageErrors;
const pct = (x: number | null) => (x !== null && Number.isFinite(x) ? (100 * x).toFixed(1) : '–');

const A = { name: 'Compare A', players: 3, seats: [{ agent: 'mcts', params: { it: [5, 10] } }, 'random', 'random'], deals: { count: 4 } };
/** Unevenly spaced values: a category axis would draw 5, 10 and 25 equally far apart. */
const B = { name: 'Compare B', players: 3, seats: [{ agent: 'mcts', params: { it: [5, 10, 25] } }, 'rulebased', 'random'], deals: { count: 3 } };

let lab: TestLab;
const ids: string[] = [];

beforeAll(
  () =>
    browser.start(async () => {
      lab = await browser.startLab({ workers: 1, slots: 2 });
      for (const spec of [A, B]) ids.push(await submitSweep(lab, spec));
      for (const id of ids) await waitForSweep(lab, id, 60_000);
    }),
  90_000,
);

afterAll(() => browser.close(), 30_000);

const newPage = () => browser.newPage();

test('two sweeps ticked in the list open the compare view: curves, pooled agents and summary rows as the API gives them', async () => {
  const page = await newPage();
  await page.goto(`${lab.url}/`);
  await page.waitForSelector(`#sweeps input[data-compare="${ids[1]}"]`);
  expect(await page.isDisabled('#compare')).toBe(true);
  await page.check(`#sweeps input[data-compare="${ids[0]}"]`);
  await page.check(`#sweeps input[data-compare="${ids[1]}"]`);
  await page.click('#compare');
  await page.waitForURL(/\/compare\?ids=/);
  expect(new URL(page.url()).searchParams.get('ids')).toBe(ids.join(','));
  await page.waitForSelector('body[data-ready]');

  const details = await Promise.all(ids.map(async (id) => (await api(lab.url, `/api/sweeps/${id}`)).body));
  const rows = await Promise.all(ids.map(async (id) => (await api(lab.url, `/api/sweeps/${id}/summary`)).body as any[]));
  // One chart for the parameter both sweep, one line per sweep, each point where its value lies.
  const chart = await page.evaluate(() => {
    const c = (window as any).Chart.getChart(document.getElementById('compare-seats-0-it'));
    if (!c) return null;
    const x = c.scales.x;
    return JSON.parse(
      JSON.stringify({
        xType: x.type,
        datasets: c.data.datasets.map((d: any, i: number) => ({ label: d.label, data: d.data, errorBars: d.errorBars, pixels: c.getDatasetMeta(i).data.map((p: any) => p.x) })),
        at: Object.fromEntries([5, 10, 25].map((v) => [v, x.getPixelForValue(v)])),
      }),
    );
  });
  expect(chart).not.toBeNull();
  expect(chart.datasets.map((d: any) => d.label)).toEqual(details.map((d) => `${d.name} (${d.id})`));
  details.forEach((d, i) => {
    const points = d.parameters.find((p: any) => p.key === 'seats.0.it').points;
    expect(chart.datasets[i].data).toEqual(points.map((p: any) => ({ x: p.value, y: 100 * p.winRate })));
    expect(chart.datasets[i].errorBars).toEqual(points.map((p: any) => [100 * p.wilson.low, 100 * p.wilson.high]));
    // Each point drawn at its value's place on the axis.
    chart.datasets[i].pixels.forEach((px: number, j: number) => expect(px).toBeCloseTo(chart.at[points[j].value], 6));
  });
  // A numeric axis (the sweep page's: linear below a decade): distances proportional to the values.
  expect(chart.xType).toBe('linear');
  expect((chart.at[10] - chart.at[5]) / (chart.at[25] - chart.at[5])).toBeCloseTo((10 - 5) / (25 - 5), 6);

  const pooled = await page.$$eval('#compare-pooled tbody tr', (trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent)));
  expect(pooled.map((r) => r.slice(0, 6))).toEqual(details.flatMap((d) => d.pooled.map((p: any) => [d.name, p.label, String(p.cells), String(p.games), String(p.wins), pct(p.winRate)])));
  const table = await page.$$eval('#compare-rows tbody tr', (trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent)));
  const all = rows.flatMap((r, i) => r.map((row) => ({ name: details[i].name, row })));
  expect(table.length).toBe(all.length);
  table.forEach((cols, k) => {
    const { name, row } = all[k];
    expect([cols[0], cols[1], cols[2], cols[3], cols[4], cols[5], cols[6]]).toEqual([name, String(row.cell), String(row['seats.0.it']), row.agent, String(row.games), String(row.wins), pct(row.win_rate)]);
  });
  const provenance = await page.$$eval('#compare-provenance tbody tr', (trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent)));
  expect(provenance.map((r) => r[0])).toEqual(details.map((d) => d.name));
  provenance.forEach((r, i) => expect(r[1]).toContain(details[i].provenance.code.version));
  await page.screenshot({ path: `${ARTIFACTS}compare.png`, fullPage: true });
  expect(pageErrors).toEqual([]);
}, 60_000);

test("a sweep's page says how it was made: code version, times, CPU time, the workers and their games", async () => {
  const page = await newPage();
  const d = (await api(lab.url, `/api/sweeps/${ids[0]}`)).body;
  await page.goto(`${lab.url}/sweeps/${ids[0]}`);
  await page.waitForFunction(() => document.getElementById('status')!.textContent === 'done');
  await page.click('#provenance-box summary');
  const rows = await page.$$eval('#provenance tbody tr', (trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent ?? '')));
  const value = (label: string) => rows.find((r) => r[0] === label)?.[1];
  const code = d.provenance.code;
  expect(value('code that created it')).toContain(`${code.package} ${code.version}`);
  if (code.commit) expect(value('code that created it')).toContain(code.commit.slice(0, 12));
  expect(value('CPU time of its games')).toBe(`${d.provenance.cpuSeconds.toFixed(1)} s`);
  const workers = rows.filter((r, i) => r[0] === 'workers (games stored)' || (i > 0 && r[0] === '' && rows.findIndex((x) => x[0] === 'workers (games stored)') < i));
  expect(workers.map((r) => r[1])).toEqual(d.provenance.workers.map((w: any) => expect.stringContaining(`pid ${w.pid}`)));
  expect(d.provenance.workers.reduce((s: number, w: any) => s + w.games, 0)).toBe(d.counts.done);
  expect(await page.getAttribute('#summary-csv', 'href')).toBe(`/api/sweeps/${ids[0]}/summary?format=csv`);
  await page.screenshot({ path: `${ARTIFACTS}provenance.png`, fullPage: false });
  expect(pageErrors).toEqual([]);
}, 60_000);
