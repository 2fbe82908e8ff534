/**
 * The store's queue order and clock on a real Redis (REDIS_URL), under a key prefix of its own:
 * a claim hands out games in exactly the order lab/plan/schedule.ts defines (a sweep stored
 * before that order keeps its sequential cursor: schema.test.ts), and the active clock leaves paused time out of
 * a sweep's rate.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import type { Redis } from 'ioredis';
import { RATE_BUCKET_MS, Sweep, parseSweepSpec, playGame, throughput } from '../src/lab/index.js';
import { CLAIM_GAMES, claimOffer, type SweepStore } from '../src/store/index.js';
import { claim, storeForTests } from './store-support.js';

const opened = storeForTests('store');
let redis: Redis;
let store: SweepStore;
beforeAll(() => {
  [redis, store] = [opened.redis(), opened.store()];
});

const specOf = (over: object) => parseSweepSpec({ name: 'order', players: 3, seats: [{ agent: 'mcts', params: { it: [10, 20, 30] } }, 'random', 'random'], deals: { count: 5 }, ...over });

describe('queue order', () => {
  test.each([
    ['random boards, fixed seating', {}],
    ['thesis board sets, swapped seats', { wonders: { mode: 'thesis' }, seating: 'swap' }],
    ['rotated seats', { seating: 'rotate' }],
  ])('%s: the claim script hands out the games in the order of Sweep.indexAt', async (_, over) => {
    const spec = specOf(over);
    const sweep = new Sweep(spec);
    const meta = await store.ledger.create(sweep);
    expect(meta.schedule).toBe('interleaved');
    const claimed: number[] = [];
    // Claimed a few at a time, as the feeder does with its window.
    for (let got = await claim(store, meta.id, 7); got.length; got = await claim(store, meta.id, 7)) {
      claimed.push(...got);
      await store.ledger.dropOutstanding(meta.id, got);
    }
    expect(claimed).toEqual(Array.from({ length: sweep.size }, (_, p) => sweep.indexAt(p)));
    expect(new Set(claimed).size).toBe(sweep.size);
    expect((await store.reads.meta(meta.id))!.startedAt).toBeGreaterThanOrEqual(meta.created);
  });
});

describe('the claim offers, the script takes', () => {
  test('with decided cells the offer leaves their games out and says where each game and the scan are', () => {
    const sweep = new Sweep(specOf({}));
    // 3 cells of 5 games: position p is cell p mod 3 (one seat order), deal ⌊p / 3⌋.
    expect(sweep.shape).toEqual({ cells: 3, sets: 1, deals: 5, orders: 1 });
    const offer = claimOffer(sweep, 2, 3, 1, new Set([1]));
    expect(offer.positions).toEqual([2, 3, 5]);
    expect(offer.games).toEqual(offer.positions.map((p) => sweep.indexAt(p)));
    expect(offer.games.map((k) => sweep.cellOf(k))).toEqual([2, 0, 2]);
    expect(offer.scanEnd).toBe(6);
    // Every cell decided: nothing offered, the scan goes to the end.
    expect(claimOffer(sweep, 2, 3, 1, new Set([0, 1, 2]))).toEqual({ games: [], positions: [], scanEnd: 15 });
    // No decided cell: whole batches of consecutive positions.
    expect(claimOffer(sweep, 4, 5, 4, new Set()).games).toEqual([4, 5, 6, 7, 8, 9, 10, 11].map((p) => sweep.indexAt(p)));
  });

  test('an offer made at a cursor that has moved since takes nothing from the order', async () => {
    const spec = specOf({});
    const meta = await store.ledger.create(new Sweep(spec));
    const k = store.keys.sweep(meta.id);
    const keys = { meta: k.meta, out: k.out, requeue: k.requeue, stopped: k.stopped, active: store.keys.active };
    const args = { window: 4, now: Date.now(), sweepId: meta.id, decided: 0, games: JSON.stringify(['0', '5', '10', '1']), positions: '[]', scanEnd: 4 };
    expect(await CLAIM_GAMES.run(redis, keys, { ...args, cursor: 1 })).toEqual([[], 0, 0]);
    expect((await store.reads.meta(meta.id))!.cursor).toBe(0);
    expect(await redis.scard(k.out)).toBe(0);
    // Offered at the cursor it is, the same offer is taken.
    expect(await CLAIM_GAMES.run(redis, keys, { ...args, cursor: 0 })).toEqual([['0', '5', '10', '1'], 0, 4]);
    expect((await store.reads.meta(meta.id))!.cursor).toBe(4);
  });

  test('a stopping sweep: positions of decided cells are skipped and counted, the cursor moves past them', async () => {
    const spec = specOf({});
    const sweep = new Sweep(spec);
    const meta = await store.ledger.create(sweep);
    await redis.sadd(store.keys.sweep(meta.id).stopped, '1');
    const got = await claim(store, meta.id, 3);
    expect(got).toEqual([0, 2, 3].map((p) => sweep.indexAt(p)));
    const m = (await store.reads.meta(meta.id))!;
    expect(m.cursor).toBe(4);
    expect(m.skipped).toBe(1);
  });
});

describe('active clock', () => {
  test('paused time is not running time: the rate and the first-to-last span leave it out', async () => {
    const spec = parseSweepSpec({ name: 'clock', players: 3, seats: ['random', 'random', 'random'], deals: { count: 6 } });
    const t0 = 1_000_000_000_000;
    const meta = await store.ledger.create(new Sweep(spec), { now: t0 });
    const loaded = (await store.reads.load(meta.id))!;
    const game = (k: number) => playGame(loaded.sweep.game(loaded.sweep.indexAt(k)));
    // Two games 1 s apart, a pause of an hour, then two more 1 s apart.
    await store.ledger.recordResult(loaded, game(0), t0 + 1000);
    await store.ledger.recordResult(loaded, game(1), t0 + 2000);
    expect(await store.ledger.transition(meta.id, ['running'], 'paused', 1, t0 + 2500)).toBe('running');
    expect(await store.ledger.transition(meta.id, ['paused'], 'running', 1, t0 + 3_602_500)).toBe('paused');
    await store.ledger.recordResult(loaded, game(2), t0 + 3_603_000);
    await store.ledger.recordResult(loaded, game(3), t0 + 3_604_000);
    const m = (await store.reads.meta(meta.id))!;
    expect(m.firstDoneActive).toBe(1000);
    // 2000 ms before the pause, 500 ms between the last game and the pause, 1500 ms after it.
    expect(m.lastDoneActive).toBe(4000);
    const ring = await store.reads.rateRing(meta.id);
    expect(ring.reduce((s, b) => s + b.games, 0)).toBe(4);
    // Three games after the first over 3 s of running time: 1 game/s, not 3 games an hour.
    const now = t0 + 3_604_000;
    const rate = throughput(m, ring, now);
    expect(rate.basis).toBe('recent');
    expect(rate.gamesPerSecond).toBeCloseTo(1, 9);
    expect(rate.etaSeconds).toBeCloseTo(2, 9);
    expect(rate.activeSeconds).toBeCloseTo(4, 9);
    // Paused: the clock stops, so does the ETA.
    await store.ledger.transition(meta.id, ['running'], 'paused', 1, now + 10_000);
    const paused = throughput((await store.reads.meta(meta.id))!, ring, now + 500_000);
    expect(paused.activeSeconds).toBeCloseTo(14, 9);
    expect(paused.etaSeconds).toBeNull();
    // Resumed and finished: the rate is over the running time from the first game to the last.
    await store.ledger.transition(meta.id, ['paused'], 'running', 1, now + 600_000);
    await store.ledger.recordResult(loaded, game(4), now + 601_000);
    await store.ledger.recordResult(loaded, game(5), now + 602_000);
    const done = (await store.reads.meta(meta.id))!;
    expect(done.status).toBe('done');
    expect(done.finishedAt).toBe(now + 602_000);
    expect(done.runningSince).toBeUndefined();
    const whole = throughput(done, await store.reads.rateRing(meta.id), now + 900_000);
    expect(whole.basis).toBe('whole');
    // From the first game (active 1 s) to the last (active 16 s): 5 games in 15 s.
    expect(whole.gamesPerSecond).toBeCloseTo(5 / 15, 9);
    expect(whole.activeSeconds).toBeCloseTo(16, 9);
  });

  test('the recent rate forgets games older than the ring', async () => {
    const spec = parseSweepSpec({ name: 'ring', players: 3, seats: ['random', 'random', 'random'], deals: { count: 400 } });
    const t0 = 2_000_000_000_000;
    const meta = await store.ledger.create(new Sweep(spec), { now: t0 });
    const loaded = (await store.reads.load(meta.id))!;
    const g = playGame(loaded.sweep.game(0));
    // 100 games in the first second, then one game every 10 s for 20 minutes.
    for (let i = 0; i < 100; i++) await store.ledger.recordResult(loaded, { ...g, id: `c0-d${i}-o0`, index: i }, t0 + 10 * i);
    let t = t0 + 1000;
    for (let i = 100; i < 220; i++) await store.ledger.recordResult(loaded, { ...g, id: `c0-d${i}-o0`, index: i }, (t += RATE_BUCKET_MS));
    const rate = throughput((await store.reads.meta(meta.id))!, await store.reads.rateRing(meta.id), t);
    // About 0.1 games/s now, whatever the burst at the start.
    expect(rate.gamesPerSecond).toBeGreaterThan(0.09);
    expect(rate.gamesPerSecond).toBeLessThan(0.11);
  });
});
