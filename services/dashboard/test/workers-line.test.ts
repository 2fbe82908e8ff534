/**
 * Lost capacity on the dashboard, in a real browser against a real lab: the sweeps page says how
 * many workers (and game slots) were heard from in the last minute, and warns of workers that went
 * silent without stopping (killed, crashed or cut off), until they come back or leave. Values come
 * from the lab's own roster (GET /api/workers), never pasted. Screenshots go to
 * test-artifacts/workers-line/.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { SEEN_WINDOW_MS, WorkerRoster } from '@wonderlab/shared/store';
import { type TestLab } from '../../coordinator/test/harness.js';
import { BrowserTests } from './browser.js';

const browser = new BrowserTests('workers-line');
let lab: TestLab;

beforeAll(
  () =>
    browser.start(async () => {
      // One in-process worker of two slots: it reports itself when it starts.
      lab = await browser.startLab({ workers: 1, slots: 2 });
    }),
  60_000,
);

afterAll(() => browser.close(), 30_000);

test('the sweeps page shows the workers seen and warns of one gone silent, until it is back', async () => {
  const roster = new WorkerRoster(lab.redis, lab.store.keys);
  const lost = { host: 'worker-b41d', pid: 1, slots: 3 };
  const lastHeard = Date.now() - 2 * SEEN_WINDOW_MS;
  await roster.report(lost, lastHeard);

  const page = await browser.newPage();
  await page.goto(`${lab.url}/`);
  const line = page.locator('#workers');
  const alert = page.locator('#workers-lost');
  await expect.poll(() => line.textContent()).toBe('Workers: 1 worker seen in the last 60 s, 2 game slots.');
  await expect.poll(() => alert.isVisible()).toBe(true);
  const warning = (await alert.textContent()) ?? '';
  expect(warning).toContain(`1 worker silent since ${await page.evaluate((t) => new Date(t).toLocaleTimeString(), lastHeard)}`);
  expect(warning).toContain('3 game slots lost until it comes back');
  expect(await alert.getAttribute('role')).toBe('alert');
  await page.screenshot({ path: `${browser.artifacts}silent-worker.png` });

  // It reports again: the page (refreshed every 5 s) drops the warning.
  await roster.report(lost);
  await expect.poll(() => alert.isVisible(), { timeout: 10_000 }).toBe(false);
  await expect.poll(() => line.textContent(), { timeout: 10_000 }).toBe('Workers: 2 workers seen in the last 60 s, 5 game slots.');
  await page.close();
  expect(browser.pageErrors).toEqual([]);
}, 60_000);
