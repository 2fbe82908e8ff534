/**
 * Batched queue jobs in the store, on a real Redis under a key prefix of its own: a batched sweep's
 * claims come as whole batches of positions in the sweep's order; a batch of games stored in one
 * script call leaves exactly the results, records and aggregates that storing them one by one
 * leaves, whether the games were deflated and counted here or on the game threads (the pool runs
 * the compiled game-thread: `npx tsc -b` first); a batch delivered again stores each game once; a
 * whole delta to a counter that holds a fraction is added, not refused.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import type { Redis } from 'ioredis';
import { GamePool, type PlayedPart } from '@wonderlab/shared';
import { IncrementSum, Sweep, parseSweepSpec, placementOf, playGame, type GameSummary } from '../src/lab/index.js';
import { RECORD_RESULT, type SweepStore } from '../src/store/index.js';
import { claim, recordBatch, storeForTests } from './store-support.js';

const opened = storeForTests('batch');
let redis: Redis;
let store: SweepStore;
beforeAll(() => {
  [redis, store] = [opened.redis(), opened.store()];
});

/** Cheap games in a paired design (swapped seats), three cells, with records. */
const spec = parseSweepSpec({ name: 'batches', players: 3, seats: [{ agent: 'mcts', params: { it: [2, 3, 4], depth: 1 } }, 'rulebased', 'random'], seating: 'swap', deals: { count: 30 } });

describe('claims in batches', () => {
  test('whole batches of positions in the order of Sweep.indexAt, handed-back games as single jobs, at least one batch', async () => {
    const sweep = new Sweep(spec);
    const meta = await store.ledger.create(sweep, { batch: 5 });
    expect(meta.batch).toBe(5);
    // A window of 3 games takes a whole batch of 5; one of 12, three batches.
    const first = await store.ledger.claimJobs(meta.id, 3);
    expect(first.singles).toEqual([]);
    expect(first.batches).toEqual([{ p: 0, n: 5 }]);
    expect(await store.reads.outstanding(meta.id)).toHaveLength(5);
    const more = await store.ledger.claimJobs(meta.id, 12);
    expect(more.batches).toEqual([{ p: 5, n: 5 }, { p: 10, n: 5 }]);
    expect(await store.reads.outstanding(meta.id)).toHaveLength(15);
    // Two games handed back come first, each as a job of its own; the cursor goes on in whole batches.
    const back = [sweep.indexAt(7), sweep.indexAt(12)];
    await store.ledger.handBack(meta.id, back);
    await store.ledger.dropOutstanding(meta.id, (await store.reads.outstanding(meta.id)).filter((k) => !back.includes(k)));
    const second = await store.ledger.claimJobs(meta.id, 3);
    expect(second.singles).toEqual(back);
    expect(second.batches[0]).toEqual({ p: 15, n: 5 });
    // The last batch stops at the sweep's end.
    const all = [first, more, second];
    await store.ledger.dropOutstanding(meta.id, await store.reads.outstanding(meta.id));
    for (let got = await store.ledger.claimJobs(meta.id, 3); got.batches.length || got.singles.length; got = await store.ledger.claimJobs(meta.id, 3)) {
      all.push(got);
      await store.ledger.dropOutstanding(meta.id, await store.reads.outstanding(meta.id));
    }
    const batches = all.flatMap((c) => c.batches);
    expect(batches.map((b) => b.p)).toEqual(Array.from({ length: Math.ceil(sweep.size / 5) }, (_, i) => 5 * i));
    expect(batches.at(-1)!.p + batches.at(-1)!.n).toBe(sweep.size);
    expect(batches.slice(0, -1).every((b) => b.n === 5)).toBe(true);
  });

  test('a sweep of batch 1 claims single games exactly as before', async () => {
    const meta = await store.ledger.create(new Sweep(spec));
    expect(meta.batch).toBe(1);
    const got = await store.ledger.claimJobs(meta.id, 4);
    expect(got).toEqual({ singles: [0, 1, 2, 3].map((p) => new Sweep(spec).indexAt(p)), batches: [] });
  });
});

/** Every field of a sweep's aggregate table, as numbers. */
async function aggregates(id: string): Promise<Map<string, number>> {
  return new Map(Object.entries(await store.reads.aggregateTable(id)).map(([k, v]) => [k, Number(v)]));
}

function expectSameTables(a: Map<string, number>, b: Map<string, number>, ignore?: RegExp): void {
  expect([...a.keys()].sort()).toEqual([...b.keys()].sort());
  for (const [field, x] of a) {
    if (ignore?.test(field)) continue;
    // Float sums (times, paired rates) may differ in the last bits with the order of addition.
    if (Number.isInteger(x) && Number.isInteger(b.get(field))) expect(b.get(field), field).toBe(x);
    else expect(b.get(field)!, field).toBeCloseTo(x, 6);
  }
}

describe('storing a batch', () => {
  const sweep = new Sweep(spec);
  const games: GameSummary[] = Array.from({ length: sweep.size }, (_, p) => playGame(sweep.game(sweep.indexAt(p)), { record: true }));

  test('one call leaves what storing the games one by one leaves: results, records, aggregates, counts; the sweep is done', async () => {
    const one = await store.ledger.create(sweep);
    const batched = await store.ledger.create(sweep, { batch: 7 });
    const loadedOne = (await store.reads.load(one.id))!;
    const loadedBatched = (await store.reads.load(batched.id))!;
    for (let got = await claim(store, one.id, 1000); got.length; got = await claim(store, one.id, 1000));
    for (let got = await store.ledger.claimJobs(batched.id, 1000); got.batches.length; got = await store.ledger.claimJobs(batched.id, 1000));
    for (const g of games) expect(await store.ledger.recordResult(loadedOne, g, 1000, { cpuMs: 1.25 })).toBe(true);
    for (let i = 0; i < games.length; i += 7) {
      const stored = await recordBatch(store, loadedBatched, games.slice(i, i + 7).map((summary) => ({ summary, cpuMs: 1.25 })), 1000);
      expect(stored).toBe(Math.min(7, games.length - i));
    }
    expectSameTables(await aggregates(one.id), await aggregates(batched.id));
    const ids = games.map((g) => g.id);
    expect(await store.reads.results(batched.id, ids)).toEqual(await store.reads.results(one.id, ids));
    for (const id of ids.slice(0, 5)) expect(await store.reads.gameRecord(batched.id, id)).toEqual(await store.reads.gameRecord(one.id, id));
    const [m1, m2] = [(await store.reads.meta(one.id))!, (await store.reads.meta(batched.id))!];
    expect([m2.done, m2.status, m2.cpuMs]).toEqual([m1.done, m1.status, m1.cpuMs]);
    expect(m2.status).toBe('done');
    expect(await store.reads.outstanding(batched.id)).toEqual([]);
    // Every paired group folded: none left half-summed.
    expect(await redis.hlen(store.keys.sweep(batched.id).groups)).toBe(0);
    expect((await aggregates(batched.id)).get('c0|pdn')).toBe(sweep.gamesPerCell / 2);
  });

  test('games made ready for the store on the game threads (deflated, counted) are stored exactly as games made ready here', async () => {
    const here = await store.ledger.create(sweep, { batch: 7 });
    const threads = await store.ledger.create(sweep, { batch: 7 });
    const [loadedHere, loadedThreads] = [(await store.reads.load(here.id))!, (await store.reads.load(threads.id))!];
    const pool = new GamePool(2);
    try {
      const some = Array.from({ length: 24 }, (_, p) => sweep.game(sweep.indexAt(p)));
      const played = await Promise.all(some.map((plan) => pool.playMeasured(plan, true, undefined, placementOf(sweep, plan.index))));
      for (const g of played) {
        expect(g.packed).toBeDefined();
        // Only the game's key comes back with the packed game.
        expect(Object.keys(g.summary).sort()).toEqual(['id', 'index']);
      }
      for (let i = 0; i < some.length; i += 7) {
        await recordBatch(store, loadedThreads, played.slice(i, i + 7), 1000);
        await recordBatch(store, loadedHere, games.filter((g) => some.slice(i, i + 7).some((plan) => plan.id === g.id)).map((summary) => ({ summary })), 1000);
      }
    } finally {
      await pool.close();
    }
    // Games played twice differ only in their decision times (wall-clock measurements).
    expectSameTables(await aggregates(here.id), await aggregates(threads.id), /\|ms$/);
    const ids = games.slice(0, 24).map((g) => g.id);
    // Records alike but for the MCTS decisions' times.
    const timeless = (r: unknown) => JSON.parse(JSON.stringify(r, (key, value) => (key === 'ms' ? undefined : value)));
    for (const id of ids.slice(0, 6)) expect(timeless(await store.reads.gameRecord(threads.id, id))).toEqual(timeless(await store.reads.gameRecord(here.id, id)));
  });

  test('parts of series played on the game threads (their increments summed there) are stored as the games made ready here; parts delivered again store each game once', async () => {
    const here = await store.ledger.create(sweep, { batch: 7 });
    const threads = await store.ledger.create(sweep, { batch: 7 });
    const [loadedHere, loadedThreads] = [(await store.reads.load(here.id))!, (await store.reads.load(threads.id))!];
    const indices = Array.from({ length: 24 }, (_, p) => sweep.indexAt(p));
    const pool = new GamePool(1);
    const parts: PlayedPart[] = [];
    try {
      const lane = await pool.lane();
      // Parts of three games: partMs 0 sends each game alone, so series of three make the parts.
      for (let i = 0; i < indices.length; i += 3) {
        const games: PlayedPart['games'] = [];
        const increments = new IncrementSum();
        await lane.playSeries({ sweep: { id: threads.id, spec: JSON.stringify(spec), schedule: sweep.schedule }, indices: indices.slice(i, i + 3), record: true, partMs: 0 }, (part) => {
          games.push(...part.games);
          increments.addSummed(part.increments);
        });
        parts.push({ games, increments: increments.summed() });
      }
      lane.release();
    } finally {
      await pool.close();
    }
    // A worker that stored the first two parts and died: the batch comes again with all of them.
    expect(await store.ledger.recordParts(loadedThreads, parts.slice(0, 2), 1000)).toBe(6);
    expect(await store.ledger.recordParts(loadedThreads, parts, 1000)).toBe(18);
    expect(await store.ledger.recordParts(loadedThreads, parts, 1000)).toBe(0);
    const mine = games.filter((g) => indices.includes(g.index));
    await recordBatch(store, loadedHere, mine.map((summary) => ({ summary })), 1000);
    // Games played twice differ only in their decision times (wall-clock measurements).
    expectSameTables(await aggregates(here.id), await aggregates(threads.id), /\|ms$/);
    expect((await store.reads.meta(threads.id))!.done).toBe(24);
    const timeless = (r: unknown) => JSON.parse(JSON.stringify(r, (key, value) => (key === 'ms' ? undefined : value)));
    for (const g of mine.slice(0, 6)) expect(timeless(await store.reads.gameRecord(threads.id, g.id))).toEqual(timeless(await store.reads.gameRecord(here.id, g.id)));
  });

  test('a batch delivered again stores only its games not stored yet, each once', async () => {
    const reference = await store.ledger.create(sweep);
    const meta = await store.ledger.create(sweep, { batch: 4 });
    const [loadedRef, loaded] = [(await store.reads.load(reference.id))!, (await store.reads.load(meta.id))!];
    const batch = games.slice(0, 8).map((summary) => ({ summary }));
    // Half of it stored (a worker that died after storing some), then the whole batch again.
    expect(await recordBatch(store, loaded, batch.slice(0, 3))).toBe(3);
    expect(await recordBatch(store, loaded, batch)).toBe(5);
    expect(await recordBatch(store, loaded, batch)).toBe(0);
    for (const { summary } of batch) await store.ledger.recordResult(loadedRef, summary);
    expectSameTables(await aggregates(reference.id), await aggregates(meta.id));
    expect((await store.reads.meta(meta.id))!.done).toBe(8);
  });

  test('a whole delta to a counter holding a fraction is added (HINCRBY would refuse it and leave the game half counted)', async () => {
    const meta = await store.ledger.create(sweep);
    const k = store.keys.sweep(meta.id);
    await redis.hset(k.agg, 'c0|L0|ms', '2.5');
    const stored = await RECORD_RESULT.run(
      redis,
      { meta: k.meta, results: k.results, records: k.records, agg: k.agg, groups: k.groups, out: k.out, active: store.keys.active, stats: store.keys.stats, rate: k.rate, workers: k.workers, epoch: store.keys.epoch },
      { sweepId: meta.id, gameId: 'g', index: 0, summary: 'x', record: '', now: 1, increments: JSON.stringify([['c0|L0|ms', '3'], ['c0|L0|g', '1']]), share: '', rateBucketMs: 1000, rateSlots: 10, cpuMs: '', worker: '' },
    );
    expect(stored).toBe(1);
    expect(Number(await redis.hget(k.agg, 'c0|L0|ms'))).toBe(5.5);
    expect(await redis.hget(k.agg, 'c0|L0|g')).toBe('1');
  });
});
