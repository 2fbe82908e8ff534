/**
 * The play page's API under the probe's cases (issue 57): an agent that would hold a person (and,
 * before, every other game) for minutes is refused, at creation and as a hint; one game's agents
 * thinking hold up no other game; new games are rate-limited and capped; a stale move is a 409 and
 * a save is compare-and-set, so that no game forks.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { PlaySaveError, PlayStore, type StoredPlay } from '@wonderlab/shared/store';
import { api, startLab, type TestLab } from './harness.js';

let lab: TestLab;
beforeAll(async () => {
  lab = await startLab({ workers: 0, env: { PLAY_MAX_GAMES: '4', PLAY_NEW_PER_MINUTE: '10', PLAY_MOVE_SECONDS: '10', PLAY_THREADS: '2' } });
});
afterAll(async () => {
  await lab?.close();
});

const post = (path: string, json: unknown, token?: string) => api(lab.url, path, { method: 'POST', json, headers: token ? { 'x-play-token': token } : {} });
const get = (path: string, token?: string) => api(lab.url, path, { headers: token ? { 'x-play-token': token } : {} });
const firstMove = (view: any): number => view.hand[0].moves[0].move;
/** A game the tests play on. */
let kept: { id: string; token: string };

describe('the play page under the probe\'s cases', () => {
  test('an agent that would make a person wait past PLAY_MOVE_SECONDS is refused at creation and as a hint, naming it', async () => {
    // The probe's: estimated at 211,583,251 s a game by the sweep's check, it held the play thread for 110 s.
    const minimax = 'minimax(time=0,depth=12,worlds=1000,keep=64,search=maxn)';
    const refused = await post('/api/play', { players: 3, seat: 0, agents: ['human', minimax, 'random'] });
    expect(refused.status).toBe(400);
    expect(refused.body.field).toBe('body.agents.1');
    expect(refused.body.error).toMatch(/PLAY_MOVE_SECONDS/);
    // Six mcts-strong(it=50000) took 24 s for one 7-player move: each alone is within MAX_MOVE_*, together not.
    const six = await post('/api/play', { players: 7, seat: 0, agents: ['human', ...Array(6).fill('mcts-strong(it=50000)')] });
    expect(six.status).toBe(400);
    expect(six.body.error).toMatch(/the 6 agents of a step together .* over this lab's limit of 10 s \(PLAY_MOVE_SECONDS\)/);
    // A time cap makes it a wait the person can have.
    const capped = await post('/api/play', { players: 3, seat: 0, agents: ['human', 'minimax(time=2,depth=12,worlds=1000,keep=64,search=maxn)', 'random'] });
    expect(capped.status).toBe(201);
    const hint = await post(`/api/play/${capped.body.id}/hint`, { agent: minimax }, capped.body.token);
    expect(hint.status).toBe(400);
    expect(hint.body.field).toBe('body.agent');
    expect(hint.body.error).toMatch(/PLAY_MOVE_SECONDS/);
  });

  test('while one game\'s agents think, another game\'s view and moves are answered', async () => {
    const slow = (await post('/api/play', { players: 3, seat: 0, agents: ['human', 'mcts(it=50000,time=2)', 'mcts(it=50000,time=2)'], seed: 3 })).body;
    const quick = (await post('/api/play', { players: 3, seat: 0, agents: ['human', 'random', 'rulebased'], seed: 4 })).body;
    const order: string[] = [];
    const thinking = post(`/api/play/${slow.id}/move`, { move: firstMove(slow.view) }, slow.token).then((r) => order.push(`slow move ${r.status}`));
    await new Promise((r) => setTimeout(r, 300));
    await get(`/api/play/${quick.id}`, quick.token).then((r) => order.push(`other view ${r.status}`));
    await post(`/api/play/${quick.id}/move`, { move: firstMove(quick.view) }, quick.token).then((r) => order.push(`other move ${r.status}`));
    await thinking;
    expect(order).toEqual(['other view 200', 'other move 200', 'slow move 200']);
  });

  test('a move for an older view is a 409 naming its version; a save is compare-and-set', async () => {
    const { id, token, view } = (await post('/api/play', { players: 3, seat: 0, agents: ['human', 'random', 'random'], seed: 8 })).body;
    kept = { id, token };
    expect(view.version).toBe(0);
    const moved = await post(`/api/play/${id}/move`, { move: firstMove(view), version: 0 }, token);
    expect(moved.status).toBe(200);
    expect(moved.body.version).toBe(3);
    // The same request again (a second tab, a retry after a lost answer): refused, not applied again.
    const again = await post(`/api/play/${id}/move`, { move: firstMove(view), version: 0 }, token);
    expect(again.status).toBe(409);
    expect(again.body.field).toBe('body.version');
    expect((await get(`/api/play/${id}`, token)).body.version).toBe(3);

    // Another coordinator saving a game it read before this one's move: refused, the game unchanged.
    const plays = new PlayStore(lab.redis, lab.store.keys, 3600);
    const stored = (await plays.load(id))!;
    const stale: StoredPlay = { ...stored, log: { ...stored.log!, moves: stored.log!.moves.slice(0, 0) }, updated: Date.now() };
    await expect(plays.save(stale, 0)).rejects.toMatchObject({ reason: 'moved' });
    await expect(plays.save({ ...stored, id: 'never-stored' }, 3)).rejects.toBeInstanceOf(PlaySaveError);
    expect((await plays.load(id))!.log!.moves).toEqual(stored.log!.moves);
  });

  test('new games: past PLAY_MAX_GAMES in progress a 429 naming it, a finished game frees its place, past PLAY_NEW_PER_MINUTE a 429 with Retry-After', async () => {
    const setup = { players: 3, seat: 0, agents: ['human', 'random', 'random'] };
    // The tests before left 4 games in progress (the refused setups made none), the lab's limit.
    const full = await post('/api/play', setup);
    expect(full.status).toBe(429);
    expect(full.body.error).toMatch(/4 play games in progress, its limit \(PLAY_MAX_GAMES\)/);
    expect(await lab.redis.zcard(`${lab.prefix}:plays-live`)).toBe(4);

    // The last test's game played to its end: its place is free again.
    let view = (await get(`/api/play/${kept.id}`, kept.token)).body;
    while (!view.over) view = (await post(`/api/play/${kept.id}/move`, { move: view.hand.at(-1).moves.at(-1).move, version: view.version }, kept.token)).body;
    expect(await lab.redis.zcard(`${lab.prefix}:plays-live`)).toBe(3);
    expect((await post('/api/play', setup)).status).toBe(201);

    // One client's new games, refused or not, count against its rate: the limiter answers before long.
    let limited: Awaited<ReturnType<typeof post>> | undefined;
    for (let i = 0; i < 20 && !limited; i++) {
      const r = await post('/api/play', setup);
      expect(r.status).toBe(429);
      if (/PLAY_NEW_PER_MINUTE/.test(r.body.error)) limited = r;
      else expect(r.body.error).toMatch(/PLAY_MAX_GAMES/);
    }
    expect(limited).toBeDefined();
    expect(Number(limited!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await lab.redis.zcard(`${lab.prefix}:plays-live`)).toBe(4);
  });
});
