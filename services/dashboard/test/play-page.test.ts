/**
 * The play page in a real browser (Debian's chromium driven by playwright-core), and its API from
 * outside: a whole 3-player game played by clicking only, whose downloaded record replays with
 * `wonderlab replay`; an MCTS opponent's root statistics in the "why" panel; the hand in the first
 * screen of a laptop and nothing overlapping on a phone; crafted requests refused without changing
 * the game. Screenshots go to test-artifacts/play-page/.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { api, type TestLab } from '../../coordinator/test/harness.js';
import { BrowserTests } from './browser.js';

const browser = new BrowserTests('play-page', { pageTimeout: 30_000 });
const BIN = fileURLToPath(new URL('../../../bin/wonderlab.mjs', import.meta.url));
let lab: TestLab;

beforeAll(
  () =>
    browser.start(async () => {
      lab = await browser.startLab({ workers: 0 });
    }),
  30_000,
);
afterAll(() => browser.close(), 30_000);

async function open(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.waitForSelector('body[data-ready]');
}

/** Sets up a 3-player game from the page's form, seat 0 yours; resolves on the game's page. */
async function startGame(page: Page, agents: [string, string], seed: number): Promise<string> {
  await open(page, `${lab.url}/play`);
  // The same agent help as New sweep's: every MCTS option and every minimax option.
  expect(await page.$$eval('#agent-options-table tbody tr', (trs) => trs.length)).toBeGreaterThan(20);
  expect(await page.$$eval('#minimax-options-table tbody tr', (trs) => trs.map((tr) => tr.getAttribute('data-key')))).toEqual(['depth', 'worlds', 'eval', 'search', 'keep', 'time']);
  await page.fill('#f-agent-1', agents[0]);
  await page.fill('#f-agent-2', agents[1]);
  await page.fill('#f-seed', String(seed));
  await Promise.all([page.waitForURL(/\/play\/[a-z0-9]+$/), page.click('#start')]);
  await page.waitForSelector('body[data-ready]');
  await page.waitForSelector('#hand button');
  return new URL(page.url()).pathname.split('/')[2];
}

/** Clicks the first move of the hand and waits for the next view. */
async function clickMove(page: Page): Promise<void> {
  const before = await page.getAttribute('body', 'data-turn');
  await page.click('#hand button >> nth=0');
  await page.waitForFunction((b) => document.body.dataset.turn !== b, before);
}

/** Pairs of the given elements whose boxes overlap (each a rectangle of the page). */
async function overlaps(page: Page, selector: string): Promise<string[]> {
  return page.$$eval(selector, (els) => {
    const boxes = els.map((e) => ({ name: (e as HTMLElement).dataset.card ?? (e as HTMLElement).dataset.seat ?? e.textContent!.slice(0, 20), r: e.getBoundingClientRect() }));
    const out: string[] = [];
    for (let i = 0; i < boxes.length; i++) {
      for (let j = i + 1; j < boxes.length; j++) {
        const a = boxes[i].r;
        const b = boxes[j].r;
        if (a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5) out.push(`${boxes[i].name} / ${boxes[j].name}`);
      }
    }
    return out;
  });
}

describe('the play page', () => {
  test('a whole 3-player game by clicking only: the end screen, and a record that replays', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, acceptDownloads: true });
    try {
      const id = await startGame(page, ['random', 'rulebased'], 4);
      // On a laptop's screen the hand and every one of its moves are in view without scrolling.
      const below = await page.$$eval('#hand button', (bs) => bs.filter((b) => b.getBoundingClientRect().bottom > window.innerHeight).length);
      expect(below).toBe(0);
      await page.screenshot({ path: `${browser.artifacts}desktop.png` });
      let clicks = 0;
      while (await page.isHidden('#end')) {
        await clickMove(page);
        clicks++;
        expect(clicks).toBeLessThan(40);
      }
      expect(clicks).toBeGreaterThanOrEqual(18);
      const rows = await page.$$eval('#final tbody tr', (trs) => trs.map((tr) => tr.textContent));
      expect(rows).toHaveLength(3);
      expect(rows[0]).toContain('you');
      await page.screenshot({ path: `${browser.artifacts}end.png`, fullPage: true });
      const [download] = await Promise.all([page.waitForEvent('download'), page.click('#download')]);
      const file = `${browser.artifacts}record-${id}.json`;
      await download.saveAs(file);
      expect(JSON.parse(readFileSync(file, 'utf8')).config.seed).toBe(4);
      const replayed = spawnSync(process.execPath, [BIN, 'replay', file], { encoding: 'utf8' });
      expect(replayed.stderr).toBe('');
      expect(replayed.status).toBe(0);
      // The replay page opens the same game, the person's seat named `human`.
      await Promise.all([page.waitForURL(/\/replay$/), page.click('#replay')]);
      await page.waitForSelector('#turns tbody tr');
      expect(await page.textContent('#final')).toContain('human');
      expect(await page.$$eval('#turns tbody tr', (trs) => trs.length)).toBeGreaterThanOrEqual(18);
      // The debugger: arrow keys step through; a seat's point of view shows only what it knew.
      await page.waitForSelector('#debugger:not([hidden]) #step-view .city');
      expect(await page.textContent('#step-at')).toMatch(/^step 1 of \d+: Age I, turn 1$/);
      for (let k = 0; k < 3; k++) await page.keyboard.press('ArrowRight');
      await page.waitForFunction(() => document.querySelector('#step-at')!.textContent!.startsWith('step 4 of'));
      expect(page.url()).toMatch(/#step=3$/);
      expect(await page.textContent('#step-view [data-seat="1"]')).toContain('hand: ');
      await page.selectOption('#pov', '0');
      await page.waitForFunction(() => document.querySelector('#step-view [data-seat="1"]')!.textContent!.includes('cards in hand'));
      expect(await page.textContent('#step-view [data-seat="0"]')).toContain('hand: ');
      // At turn 4 each hand has 4 cards; seat 0 has seen the hand one of its neighbours holds (the one it passed).
      const others = (await page.$$eval('#step-view [data-seat="1"], #step-view [data-seat="2"]', (els) => els.map((e) => e.textContent))).join(' | ');
      expect(others).toMatch(/4 cards in hand; it may hold: /);
      expect(others).not.toContain('hand: ');
      expect(page.url()).toMatch(/#step=3&seat=0$/);
      await page.keyboard.press('End');
      await page.waitForFunction(() => /^step (\d+) of \1:/.test(document.querySelector('#step-at')!.textContent!));
      expect(browser.pageErrors).toEqual([]);
    } finally {
      await page.close();
    }
  }, 120_000);

  test('the "why" panel shows an MCTS opponent\'s effort and played move (its hand once the game is over), and a hint its whole search', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    try {
      await startGame(page, ['mcts:100', 'random'], 9);
      await clickMove(page);
      const why = await page.textContent('#why');
      expect(why).toContain('seat 1 (mcts:100)');
      expect(why).toContain('100 iterations');
      // The other moves it weighed are cards of its hand: not while the game is on.
      expect(await page.$$eval('#why li', (lis) => lis.length)).toBe(1);
      expect(why).toContain('shown when the game is over');
      await page.fill('#hint-agent', 'minimax(depth=2)');
      await page.click('#hint');
      await page.waitForSelector('#hint-result .search');
      expect(await page.textContent('#hint-result')).toMatch(/minimax\(depth=2\) would play: .* from your information only[\s\S]*minimax: depth 2/);
      expect(browser.pageErrors).toEqual([]);
    } finally {
      await page.close();
    }
  }, 60_000);

  test('on a phone (390×844) nothing overlaps and nothing sticks out sideways', async () => {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
    try {
      await startGame(page, ['rulebased', 'random'], 11);
      await clickMove(page);
      await page.screenshot({ path: `${browser.artifacts}phone.png`, fullPage: true });
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(393);
      expect(await overlaps(page, '.play-card')).toEqual([]);
      expect(await overlaps(page, '.city')).toEqual([]);
      expect(await overlaps(page, '#hand button')).toEqual([]);
      expect(await overlaps(page, '#status, #hand-card, #cities, #log')).toEqual([]);
    } finally {
      await page.close();
    }
  }, 60_000);
});

describe('the play API', () => {
  const post = (path: string, json: unknown, token?: string) => api(lab.url, path, { method: 'POST', json, headers: token ? { 'x-play-token': token } : {} });
  const get = (path: string, token?: string) => api(lab.url, path, { headers: token ? { 'x-play-token': token } : {} });

  test('refuses crafted requests with a clear message and changes nothing', async () => {
    browser.ready();
    const created = await post('/api/play', { players: 3, seat: 1, agents: ['random', 'human', 'rulebased'], seed: 21 });
    expect(created.status).toBe(201);
    const { id, token } = created.body;
    // A game in progress expires when abandoned.
    expect(await lab.redis.ttl(`${lab.prefix}:play:${id}`)).toBeGreaterThan(0);
    const before = await get(`/api/play/${id}`, token);
    expect(before.status).toBe(200);
    const legal: number[] = before.body.hand.flatMap((c: any) => c.moves.map((m: any) => m.move));
    const illegal = [...Array(4096).keys()].find((m) => !legal.includes(m))!;
    const refused = await post(`/api/play/${id}/move`, { move: illegal }, token);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ field: 'move' });
    expect(refused.body.error).toContain('is not one of your legal moves now');
    expect((await post(`/api/play/${id}/move`, { move: legal[0], extra: 1 }, token)).status).toBe(400);
    expect((await post(`/api/play/${id}/move`, { move: 'build' }, token)).body.field).toBe('body.move');
    expect((await post(`/api/play/${id}/move`, { move: legal[0] })).status).toBe(401);
    expect((await post(`/api/play/${id}/move`, { move: legal[0] }, 'not-the-token')).status).toBe(403);
    expect((await get(`/api/play/${id}/record`)).status).toBe(404);
    const tooLong = await post(`/api/play/${id}/hint`, { agent: 'mcts(time=600)' }, token);
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error).toContain("over this lab's limit");
    // Nothing of that changed the game.
    expect((await get(`/api/play/${id}`, token)).body).toEqual(before.body);
    const played = await post(`/api/play/${id}/move`, { move: legal[0] }, token);
    expect(played.status).toBe(200);
    expect(played.body.log).toHaveLength(1);
  });

  test('refuses a setup naming the field', async () => {
    browser.ready();
    const bad = await post('/api/play', { players: 3, seat: 0, agents: ['human', 'mcts(c=x)', 'random'] });
    expect(bad.status).toBe(400);
    expect(bad.body.field).toBe('body.agents.1');
    expect((await post('/api/play', { players: 3, seat: 3, agents: ['human', 'random', 'random'] })).body.field).toBe('body.seat');
    expect((await post('/api/play', { players: 3, seat: 0, agents: ['random', 'random', 'random'] })).body.field).toBe('body.agents.0');
    expect((await post('/api/play', { players: 3, seat: 0, agents: ['human', 'random', 'random'], boards: ['Atlantis', 'Giza', 'Rhodos'] })).body.field).toBe('body.boards');
  });

  test('a finished game is kept for good, listed, served as a sweep\'s game is, and joins the ladder when asked', async () => {
    browser.ready();
    const ladderBefore = JSON.stringify((await get('/api/ratings')).body);
    expect(ladderBefore).not.toContain('"human"');
    const { id, token } = (await post('/api/play', { players: 3, seat: 0, agents: ['human', 'random', 'random'], seed: 2, ladder: true })).body;
    let view = (await get(`/api/play/${id}`, token)).body;
    while (!view.over) view = (await post(`/api/play/${id}/move`, { move: view.hand.at(-1).moves.at(-1).move }, token)).body;
    expect(await lab.redis.ttl(`${lab.prefix}:play:${id}`)).toBe(-1);
    expect((await get('/api/play')).body.games.map((g: any) => g.id)).toContain(id);
    const game = (await get(`/api/play/${id}/game`)).body;
    expect(game.players.map((p: any) => p.agent)).toEqual(['human', 'random', 'random']);
    expect(game.record.result).toEqual(view.result && game.record.result);
    expect((await get(`/api/play/${id}/game/timeline`)).body.steps.length).toBe(game.record.steps.length);
    // The person's finishing order is on the lab's ladder, as `human`, beside the agents'.
    const ladder = (await get('/api/ratings')).body;
    expect(ladder.games).toBeGreaterThanOrEqual(1);
    expect(JSON.stringify(ladder.batch)).toContain('"human"');
  });
});
