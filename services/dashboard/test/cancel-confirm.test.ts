/**
 * The dashboard under its Content-Security-Policy, in a real browser (Debian's chromium with
 * playwright-core) against a real lab: the policy is enforced (an injected inline script is
 * refused, and the refusal is recorded), every page loads without a refusal, another origin cannot
 * frame a page, and Cancel asks first: dismissing the question sends nothing and the sweep runs on,
 * accepting it cancels. Screenshots go to test-artifacts/cancel-confirm/ (not committed).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { api, type TestLab } from '../../coordinator/test/harness.js';
import { BrowserTests, submitSweep } from './browser.js';

const browser = new BrowserTests('cancel-confirm');
let lab: TestLab;
let sweepId: string;

beforeAll(
  () =>
    browser.start(async () => {
      // No worker: the sweep stays running until the test cancels it.
      lab = await browser.startLab({ workers: 0 });
      sweepId = await submitSweep(lab, { name: 'Browser test: cancel', players: 3, seats: ['random', 'random', 'rulebased'], deals: { count: 30 } });
    }),
  60_000,
);

afterAll(() => browser.close(), 30_000);

const statusOf = async () => (await api(lab.url, `/api/sweeps/${sweepId}`)).body.status as string;

/** The sweep page, once it has rendered the sweep (the Cancel button is enabled then). */
async function sweepPage(): Promise<Page> {
  const page = await browser.newPage();
  await page.goto(`${lab.url}/sweeps/${sweepId}`);
  await page.waitForSelector('#cancel:not([disabled])');
  return page;
}

describe('the dashboard under its security policy', () => {
  test('the policy is enforced, and what it blocks is recorded as a page error', async () => {
    const page = await browser.newPage();
    await page.goto(`${lab.url}/`);
    const before = browser.pageErrors.length;
    // An inline script, as an injected one would be: the policy must refuse it.
    await page.evaluate(() => {
      const script = document.createElement('script');
      script.textContent = 'window.injected = true';
      document.head.append(script);
    });
    await page.waitForTimeout(200);
    expect(await page.evaluate(() => (window as unknown as { injected?: boolean }).injected)).toBeUndefined();
    const refused = browser.pageErrors.splice(before);
    expect(refused.join('\n')).toMatch(/Content Security Policy/);
    await page.close();
  });

  test('every page loads with nothing refused: scripts, styles, chart.js and data all from the lab', async () => {
    for (const path of ['/', '/submit', '/compare', '/ladder', `/sweeps/${sweepId}`]) {
      const page = await browser.newPage();
      await page.goto(`${lab.url}${path}`, { waitUntil: 'networkidle' });
      // The page's module script ran (it fills in the page), and chart.js loaded where a page uses it.
      expect(await page.evaluate(() => document.querySelector('script[type=module]') !== null), path).toBe(true);
      if (path === '/ladder' || path.startsWith('/sweeps/') || path === '/compare') expect(await page.evaluate(() => typeof (window as unknown as { Chart?: unknown }).Chart), path).toBe('function');
      await page.screenshot({ path: `${browser.artifacts}${path === '/' ? 'list' : path.split('/')[1]}.png` });
      await page.close();
    }
    expect(browser.pageErrors).toEqual([]);
  });

  test('another origin cannot frame a page', async () => {
    const page = await browser.newPage();
    const before = browser.pageErrors.length;
    // A page of another origin (about:blank's opaque one) framing the sweep page.
    await page.setContent(`<iframe id="f" src="${lab.url}/sweeps/${sweepId}"></iframe>`);
    await page.waitForTimeout(500);
    // Blocked: chromium shows its error page in the frame, never the sweep's buttons.
    const frame = await (await page.$('#f'))!.contentFrame();
    expect(frame).not.toBeNull();
    expect(await frame!.$$('#cancel')).toEqual([]);
    const refused = browser.pageErrors.splice(before);
    expect(refused.join('\n')).toMatch(/frame-ancestors/);
    await page.close();
  });

  test('Cancel asks first: dismissed, nothing is sent and the sweep runs on; accepted, it is cancelled', async () => {
    const page = await sweepPage();
    const posts: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST') posts.push(r.url());
    });
    const questions: string[] = [];

    page.once('dialog', (d) => {
      questions.push(`${d.type()}: ${d.message()}`);
      void d.dismiss();
    });
    await page.click('#cancel');
    await page.waitForFunction(() => /not done/.test(document.getElementById('action-message')?.textContent ?? ''));
    expect(questions).toHaveLength(1);
    expect(questions[0]).toMatch(/^confirm: Cancel the sweep 'Browser test: cancel'\?.*cannot be undone/);
    expect(posts).toEqual([]);
    expect(await statusOf()).toBe('running');
    await page.screenshot({ path: `${browser.artifacts}dismissed.png` });

    page.once('dialog', (d) => {
      questions.push(`${d.type()}: ${d.message()}`);
      void d.accept();
    });
    await page.click('#cancel');
    await page.waitForFunction(() => /cancel: the sweep is cancelled/.test(document.getElementById('action-message')?.textContent ?? ''));
    expect(questions).toHaveLength(2);
    expect(posts).toEqual([`${lab.url}/api/sweeps/${sweepId}/cancel`]);
    expect(await statusOf()).toBe('cancelled');
    await page.screenshot({ path: `${browser.artifacts}accepted.png` });
    expect(browser.pageErrors).toEqual([]);
    await page.close();
  });

  test('pause and resume do not ask (each undoes the other)', async () => {
    const res = await api(lab.url, '/api/sweeps', { method: 'POST', json: { name: 'Browser test: pause', players: 3, seats: ['random', 'random', 'random'], deals: { count: 5 } } });
    expect(res.status).toBe(201);
    const page = await browser.newPage();
    const questions: string[] = [];
    page.on('dialog', (d) => {
      questions.push(d.message());
      void d.dismiss();
    });
    await page.goto(`${lab.url}/sweeps/${res.body.id}`);
    await page.waitForSelector('#pause:not([disabled])');
    await page.click('#pause');
    await page.waitForFunction(() => /pause: the sweep is paused/.test(document.getElementById('action-message')?.textContent ?? ''));
    await page.click('#resume');
    await page.waitForFunction(() => /resume: the sweep is running/.test(document.getElementById('action-message')?.textContent ?? ''));
    expect(questions).toEqual([]);
    expect((await api(lab.url, `/api/sweeps/${res.body.id}`)).body.status).toBe('running');
    expect(browser.pageErrors).toEqual([]);
    await page.close();
  });
});
