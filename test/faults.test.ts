/**
 * Redis faults that used to pass silently (issue 40), on a private redis-server (never the
 * machine's: these tests set maxmemory and run FLUSHALL):
 *
 * - Out of memory: a result or claim script is refused whole (nothing half-written); a claim whose
 *   jobs Redis refused is taken back exactly; a lab whose Redis fills up mid-sweep refuses new
 *   sweeps with a 503, shows the sweep degraded (detail, readyz, metric), writes no result past
 *   the limit, and once the limit is lifted finishes every game exactly once.
 * - Data lost: the result scripts refuse a sweep gone from the keyspace or of another epoch (no
 *   orphan keys); a FLUSHALL mid-sweep makes the coordinator not ready with the reason, a metric
 *   and a bounded error log, empties the ladder, and no worker writes afterwards.
 *
 * Needs the build (npx tsc -b) and redis-server on PATH.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { pino, type Logger } from 'pino';
import type { Redis } from 'ioredis';
import { Sweep, parseSweepSpec, playGame, type SweepSpec } from '@wonderlab/shared';
import { CoordinatorEnvSchema, Feeder, startCoordinator, type RunningCoordinator } from '@wonderlab/coordinator';
import { GameWorker } from '@wonderlab/worker';
import { KeyspaceLostError, PlayStore, SCHEMA_VERSION, SweepStore, batchJobId, closeRedis, connectRedis, gameQueue, redisMemory } from '@wonderlab/shared/store';
import { ownRedis } from './support/own-redis.js';
import { request, sleep, waitUntil } from './support/processes.js';
import { claim, gamesDone, recordBatch, resultCount } from '../shared/test/store-support.js';

const silent = pino({ level: 'silent' });
const PREFIX = 'faults';
const QUEUE = 'games';

/** What each test opened, closed after it. */
const opened: (() => Promise<unknown>)[] = [];
const own = ownRedis(async () => {
  for (const close of opened.splice(0).reverse()) await close();
});
const connect = (): Redis => {
  const c = connectRedis(own.redis.url).on('error', () => {});
  opened.push(() => closeRedis(c));
  return c;
};

/** A logger that keeps its lines, for checks on what was logged. */
function recordingLogger(): { logger: Logger; lines: { msg: string; level: number; [k: string]: unknown }[] } {
  const lines: { msg: string; level: number }[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  return { logger, lines };
}

const spec = (over: Partial<Record<string, unknown>> = {}): SweepSpec => parseSweepSpec({ name: 'f', players: 3, seats: ['rulebased', 'random', 'random'], deals: { count: 10 }, ...over });

/** Sets maxmemory below what Redis uses now, so that Redis is out of memory at once. */
async function fillUp(c: Redis): Promise<number> {
  const { used } = await redisMemory(c);
  const max = Math.floor(used * 0.9);
  await c.config('SET', 'maxmemory', String(max));
  return max;
}


describe('Redis out of memory', () => {
  test('the result and claim scripts are refused whole: nothing is written, and they work once memory is back', async () => {
    const c = connect();
    const store = new SweepStore(c, PREFIX);
    const sweepSpec = spec();
    const meta = await store.ledger.create(new Sweep(sweepSpec), { batch: 3 });
    const loaded = (await store.reads.load(meta.id))!;
    // A window of the whole sweep (10 games): four batches.
    expect((await store.ledger.claimJobs(meta.id, 10)).batches).toEqual([{ p: 0, n: 3 }, { p: 3, n: 3 }, { p: 6, n: 3 }, { p: 9, n: 1 }]);
    const games = [0, 1, 2].map((q) => playGame(loaded.sweep.game(loaded.sweep.indexAt(q))));
    const k = store.keys.sweep(meta.id);
    const before = { meta: await c.hgetall(k.meta), out: (await c.smembers(k.out)).sort(), keys: (await c.keys(`${PREFIX}:*`)).sort() };

    await fillUp(c);
    await expect(store.ledger.recordResult(loaded, games[0])).rejects.toThrow(/^OOM /);
    await expect(recordBatch(store, loaded, games.map((summary) => ({ summary })))).rejects.toThrow(/^OOM /);
    await expect(store.ledger.recordFailure(meta.id, games[0].index, games[0].id, 'x')).rejects.toThrow(/^OOM /);
    await expect(store.ledger.claimJobs(meta.id, 20)).rejects.toThrow(/^OOM /);
    // Not even the first, shrinking write (the SREM from the outstanding set) went through.
    expect({ meta: await c.hgetall(k.meta), out: (await c.smembers(k.out)).sort(), keys: (await c.keys(`${PREFIX}:*`)).sort() }).toEqual(before);
    expect(await c.hlen(k.results)).toBe(0);

    // Pauses and cancels are never refused: they are how an operator stops a sweep filling Redis.
    expect(await store.ledger.transition(meta.id, ['running'], 'paused', 1)).toBe('running');
    expect(await store.ledger.transition(meta.id, ['paused'], 'running', 1)).toBe('paused');

    await c.config('SET', 'maxmemory', '0');
    expect(await recordBatch(store, loaded, games.map((summary) => ({ summary })))).toBe(3);
    expect(await store.reads.meta(meta.id)).toMatchObject({ done: 3 });
    expect(await gamesDone(store)).toBe(3);
  });

  test('a claim whose jobs Redis refused part-way is taken back exactly: the cursor rolls back over the tail, gaps go back in line', async () => {
    const c = connect();
    const store = new SweepStore(c, PREFIX);
    const queue = gameQueue(c, store.keys, QUEUE);
    opened.push(() => queue.close());
    const sweepSpec = spec({ deals: { count: 10 }, seating: 'rotate' });
    const sweep = new Sweep(sweepSpec);
    const meta = await store.ledger.create(sweep, { batch: 3 });
    // addBulk as Redis out of memory leaves it: the first and third jobs made, the others refused.
    const real = queue.addBulk.bind(queue);
    queue.addBulk = (async (jobs: Parameters<typeof real>[0]) => {
      await real([jobs[0], jobs[2]]);
      throw new Error("OOM command not allowed when used memory > 'maxmemory'.");
    }) as typeof queue.addBulk;
    const { logger, lines } = recordingLogger();
    const feeder = new Feeder({ store, queue, window: 12, intervalMs: 1000, logger });
    await expect(feeder.feed(meta.id, 12)).rejects.toThrow(/^OOM /);
    // Four batches claimed (a window of 12 games: positions 0, 3, 6, 9): 0 and 6 have jobs; 9 is
    // the tail (the cursor goes back to 9), 3 a gap (its games wait in line one by one).
    const k = store.keys.sweep(meta.id);
    expect(await store.reads.meta(meta.id)).toMatchObject({ cursor: 9 });
    const indices = (from: number, n: number) => Array.from({ length: n }, (_, i) => sweep.indexAt(from + i));
    expect((await c.lrange(k.requeue, 0, -1)).map(Number).sort((a, b) => a - b)).toEqual(indices(3, 3).sort((a, b) => a - b));
    expect((await store.reads.outstanding(meta.id)).sort((a, b) => a - b)).toEqual([...indices(0, 3), ...indices(6, 3)].sort((a, b) => a - b));
    expect(await store.reads.missingJobs(queue.qualifiedName, [batchJobId(meta.id, 0), batchJobId(meta.id, 6)])).toEqual([]);
    expect(lines.filter((l) => l.msg === 'queueing claimed games failed; the games without a job were taken back')).toEqual([expect.objectContaining({ games: 12, takenBack: 6 })]);

    // With addBulk working again the sweep is played to the end, every game once.
    queue.addBulk = real;
    const worker = new GameWorker({ redis: connect(), prefix: PREFIX, queueName: QUEUE, slots: 2, lockDuration: 30_000, stalledInterval: 15_000, logger: silent });
    worker.start();
    opened.push(() => worker.close(1000));
    await waitUntil(async () => (await feeder.feed(meta.id, 12), (await store.reads.meta(meta.id))?.status === 'done'), 'the sweep to finish', 30_000, 100);
    expect(await store.reads.meta(meta.id)).toMatchObject({ done: sweep.size, failed: 0 });
    expect(await resultCount(store, meta.id)).toBe(sweep.size);
    expect(worker.counts).toMatchObject({ stored: sweep.size, duplicate: 0, failed: 0 });
  });

  test('the feeder claims nothing while its gate gives a reason (memory within the headroom), and resumes when it does not', async () => {
    const c = connect();
    const store = new SweepStore(c, PREFIX);
    const queue = gameQueue(c, store.keys, QUEUE);
    opened.push(() => queue.close());
    const meta = await store.ledger.create(new Sweep(spec()));
    let reason: string | undefined = 'Redis is out of memory';
    const feeder = new Feeder({ store, queue, window: 5, intervalMs: 1000, logger: silent, gate: () => reason });
    expect(await feeder.tick()).toBe(0);
    expect(await store.reads.meta(meta.id)).toMatchObject({ cursor: 0 });
    expect(await store.reads.outstanding(meta.id)).toEqual([]);
    // Not even the feeder's lock was taken: a gated round writes nothing.
    expect(await c.exists(store.keys.feederLock)).toBe(0);
    reason = undefined;
    // Open again: the round feeds the sweep its share (no slot busy yet: the few jobs a fresh lab keeps waiting).
    const queued = await feeder.tick();
    expect(queued).toBeGreaterThan(0);
    expect(await store.reads.meta(meta.id)).toMatchObject({ cursor: queued });
    await feeder.stop();
  });
});

interface Lab {
  coordinator: RunningCoordinator;
  url: string;
  worker: GameWorker;
  lines: { msg: string; level: number; [k: string]: unknown }[];
}

async function startLab(env: Record<string, string> = {}): Promise<Lab> {
  const { logger, lines } = recordingLogger();
  const config = CoordinatorEnvSchema.parse({
    REDIS_URL: own.redis.url,
    KEY_PREFIX: PREFIX,
    QUEUE_NAME: QUEUE,
    PORT: '0',
    HOST: '127.0.0.1',
    FEED_INTERVAL_MS: '50',
    LAB_CHECK_INTERVAL_MS: '100',
    OUTAGE_LOG_INTERVAL_MS: '1000',
    LADDER_INTERVAL_MS: '100',
    ...env,
  });
  const coordinator = await startCoordinator(config, logger);
  opened.push(() => coordinator.close());
  const worker = new GameWorker({ redis: connect(), prefix: PREFIX, queueName: QUEUE, slots: 2, lockDuration: 2000, stalledInterval: 1000, logger: silent });
  worker.start();
  opened.push(() => worker.close(1000));
  return { coordinator, url: coordinator.url, worker, lines };
}

describe('a lab whose Redis fills up mid-sweep', () => {
  test('503 on submit, the sweep degraded (detail, readyz, metric), no result past the limit; lifted, every game once', async () => {
    const lab = await startLab({ BATCH_SECONDS: '0', FEED_WINDOW: '40' });
    const c = connect();
    const store = new SweepStore(c, PREFIX);
    const body = { name: 'oom', players: 3, seats: ['rulebased', 'random', 'random'], deals: { count: 150 }, seating: 'rotate' };
    const created = await request(`${lab.url}/api/sweeps`, { method: 'POST', json: body });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    const total = created.body.games as number;
    await waitUntil(async () => ((await store.reads.meta(id))?.done ?? 0) >= 30, '30 games done');

    const max = await fillUp(c);
    const refused = await request(`${lab.url}/api/sweeps`, { method: 'POST', json: body });
    expect(refused.status).toBe(503);
    expect(refused.body.error).toMatch(/^Redis is out of memory: .* used of maxmemory/);
    const detail = await waitUntil(async () => {
      const { body: d } = await request(`${lab.url}/api/sweeps/${id}`);
      return d.degraded ? d : undefined;
    }, 'the sweep to show degraded');
    expect(detail).toMatchObject({ status: 'running', degraded: expect.stringMatching(/out of memory/) });
    expect((await request(`${lab.url}/api/sweeps`)).body[0].degraded).toMatch(/out of memory/);
    const ready = await waitUntil(async () => {
      const r = await request(`${lab.url}/readyz`);
      return r.body.degraded ? r : undefined;
    }, 'readyz to say degraded');
    expect(ready.status).toBe(200);
    expect(ready.body.degraded[0]).toMatch(/out of memory/);
    const metrics = (await request(`${lab.url}/metrics`)).body as string;
    expect(metrics).toMatch(/^wonderlab_redis_memory_full 1$/m);
    expect(metrics).toMatch(new RegExp(`^wonderlab_redis_memory_max_bytes ${max}$`, 'm'));

    // While Redis stays over its limit, no result is stored: the workers' scripts are refused and
    // their jobs wait (no attempt spent, no game failed).
    const stored = await resultCount(store, id);
    await waitUntil(() => lab.worker.memoryRefusals > 0 || undefined, 'a worker to have its results refused', 10_000);
    await sleep(1500);
    const { used } = await redisMemory(c);
    expect(used, 'Redis stayed over its limit through the check').toBeGreaterThan(max);
    expect(await resultCount(store, id)).toBe(stored);
    expect((await store.reads.meta(id))?.failed).toBe(0);

    await c.config('SET', 'maxmemory', '0');
    const done = await waitUntil(async () => {
      const m = await store.reads.meta(id);
      return m?.status === 'done' ? m : undefined;
    }, 'the sweep to finish once memory is back', 60_000, 100);
    expect(done).toMatchObject({ done: total, failed: 0 });
    expect(await resultCount(store, id)).toBe(total);
    expect(await gamesDone(store)).toBe(total);
    expect(Number((await store.reads.aggregateTable(id))['c0|n'])).toBe(total);
    expect(await store.reads.outstanding(id)).toEqual([]);
    expect(lab.worker.counts).toMatchObject({ stored: total, failed: 0, lost: 0 });
    await waitUntil(async () => !(await request(`${lab.url}/readyz`)).body.degraded, 'readyz no longer degraded');
    expect((await request(`${lab.url}/api/sweeps/${id}`)).body.degraded).toBeNull();
    expect(lab.lines.some((l) => l.msg === 'redis memory is available again: games are queued again')).toBe(true);
  }, 120_000);
});

describe('the play page on a full or emptied Redis', () => {
  const setup = { players: 3, seat: 0, agents: ['human', 'random', 'rulebased'] };

  test('full: a new game is a 503 naming Redis\'s memory and nothing is stored; lifted, games are made again', async () => {
    const lab = await startLab();
    const c = connect();
    const playKeys = async () => (await c.keys(`${PREFIX}:play*`)).sort();
    const ok = await request(`${lab.url}/api/play`, { method: 'POST', json: setup });
    expect(ok.status).toBe(201);
    const before = await playKeys();
    // Within the headroom kept for queued results (as the probe's 677 games filled it): no new game.
    await fillUp(c);
    const refused = await request(`${lab.url}/api/play`, { method: 'POST', json: setup });
    expect(refused.status).toBe(503);
    expect(refused.body.error).toMatch(/^no new game now: Redis is out of memory/);
    expect(await playKeys()).toEqual(before);
    await c.config('SET', 'maxmemory', '0');
    expect((await request(`${lab.url}/api/play`, { method: 'POST', json: setup })).status).toBe(201);
  });

  test('FLUSHALL: a new game is a 503 naming the loss, a game in play is gone, and no play key is written into the emptied keyspace', async () => {
    const lab = await startLab();
    const c = connect();
    const { id, token, view } = (await request(`${lab.url}/api/play`, { method: 'POST', json: setup })).body;
    const stored = (await new PlayStore(c, new SweepStore(c, PREFIX).keys, 60).load(id))!;
    await c.flushall();
    await waitUntil(async () => (await request(`${lab.url}/readyz`)).status === 503, 'readyz to report the loss', 5000);
    const refused = await request(`${lab.url}/api/play`, { method: 'POST', json: setup });
    expect(refused.status).toBe(503);
    expect(refused.body.error).toMatch(/lost the lab's data/);
    const move = await request(`${lab.url}/api/play/${id}/move`, { method: 'POST', json: { move: view.hand[0].moves[0].move }, headers: { 'x-play-token': token } });
    expect(move.status).toBe(404);
    // A save in flight at the FLUSHALL (read before it, written after): refused by the epoch, not written.
    const plays = new PlayStore(c, new SweepStore(c, PREFIX).keys, 60);
    expect(lab.coordinator.store.epoch).toBeTruthy();
    plays.epoch = lab.coordinator.store.epoch;
    await expect(plays.save({ ...stored, updated: Date.now() }, 'new')).rejects.toMatchObject({ reason: 'lost' });
    expect(await c.keys(`${PREFIX}:play*`)).toEqual([]);
  });
});

describe('a coordinator starting on a full Redis', () => {
  test('it cannot write its epoch: 503 on submit, one warning a logging interval, then it starts when memory is back', async () => {
    const c = connect();
    await fillUp(c);
    const lab = await startLab();
    const body = { name: 'full', players: 3, seats: ['random', 'random', 'random'], deals: { count: 2 } };
    const refused = await request(`${lab.url}/api/sweeps`, { method: 'POST', json: body });
    expect(refused.status).toBe(503);
    expect(refused.body.error).toMatch(/^Redis is out of memory/);
    // Looks every 100 ms for 1.5 s, the same failure logged at most once a second.
    await sleep(1500);
    const warnings = lab.lines.filter((l) => l.msg === 'checking the state of Redis failed');
    expect(warnings.length).toBeGreaterThanOrEqual(1);
    expect(warnings.length).toBeLessThanOrEqual(2);
    expect(await c.get(`${PREFIX}:epoch`)).toBeNull();

    await c.config('SET', 'maxmemory', '0');
    await waitUntil(() => lab.lines.find((l) => l.msg.startsWith('redis held no lab data')), 'the epoch to be written', 5000);
    expect((await request(`${lab.url}/api/sweeps`, { method: 'POST', json: body })).status).toBe(201);
  });
});

describe('Redis that lost its data', () => {
  test('the result scripts refuse a sweep gone from the keyspace or of another epoch, writing nothing', async () => {
    const c = connect();
    const store = new SweepStore(c, PREFIX);
    store.epoch = 'epoch-a';
    await c.set(store.keys.epoch, 'epoch-a');
    const sweepSpec = spec();
    const meta = await store.ledger.create(new Sweep(sweepSpec));
    const loaded = (await store.reads.load(meta.id))!;
    await claim(store, meta.id, 3);
    const game = playGame(loaded.sweep.game(0));

    // Another epoch (the keyspace was started again under the same sweep id: a restored backup).
    await c.set(store.keys.epoch, 'epoch-b');
    const keys = async () => (await c.keys(`${PREFIX}:*`)).sort();
    const before = await keys();
    await expect(store.ledger.recordResult(loaded, game)).rejects.toThrow(KeyspaceLostError);
    await expect(recordBatch(store, loaded, [{ summary: game }])).rejects.toThrow(KeyspaceLostError);
    expect(await keys()).toEqual(before);
    expect(await store.reads.meta(meta.id)).toMatchObject({ done: 0 });

    // Gone altogether (FLUSHALL): nothing is written, not even the lab's counter.
    await c.flushall();
    await expect(store.ledger.recordResult(loaded, game)).rejects.toThrow(KeyspaceLostError);
    await expect(recordBatch(store, loaded, [{ summary: game }])).rejects.toThrow(KeyspaceLostError);
    await expect(store.ledger.recordFailure(meta.id, 0, game.id, 'x')).rejects.toThrow(KeyspaceLostError);
    expect(await keys()).toEqual([]);
  });

  test('FLUSHALL mid-sweep: not ready with the reason, a metric and a bounded error log; the ladder empties; no worker writes afterwards', async () => {
    const lab = await startLab({ BATCH_SECONDS: '0', FEED_WINDOW: '20' });
    const c = connect();
    const store = new SweepStore(c, PREFIX);
    // Games of a few tens of milliseconds, so that some are being played at the FLUSHALL; more
    // deals than the sweep can play before then (100 were all played by then once, on a faster search).
    const body = { name: 'lost', players: 3, seats: ['mcts(it=150)', 'rulebased', 'random'], deals: { count: 2000 } };
    const created = await request(`${lab.url}/api/sweeps`, { method: 'POST', json: body });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    const epoch = await c.get(store.keys.epoch);
    expect(epoch).toBeTruthy();
    expect(await c.hget(store.keys.sweep(id).meta, 'epoch')).toBe(epoch);
    await waitUntil(async () => ((await request(`${lab.url}/api/ratings`)).body.games ?? 0) >= 10, 'the ladder to count games', 30_000, 100);
    expect((await request(`${lab.url}/readyz`)).status).toBe(200);
    expect((await request(`${lab.url}/metrics`)).body).toMatch(/^wonderlab_redis_data_lost 0$/m);

    const lostBefore = lab.worker.counts.lost;
    await c.flushall();
    const flushedAt = Date.now();
    const ready = await waitUntil(async () => {
      const r = await request(`${lab.url}/readyz`);
      return r.status === 503 ? r : undefined;
    }, 'readyz to report the loss', 5000);
    expect(ready.body.error).toMatch(/^redis lost the lab's data: the epoch key faults:epoch is missing/);
    expect((await request(`${lab.url}/metrics`)).body).toMatch(/^wonderlab_redis_data_lost 1$/m);
    expect((await request(`${lab.url}/api/sweeps/${id}`)).status).toBe(404);
    const refused = await request(`${lab.url}/api/sweeps`, { method: 'POST', json: body });
    expect(refused.status).toBe(503);
    expect(refused.body.error).toMatch(/lost the lab's data/);
    expect((await request(`${lab.url}/api/ratings`)).body.games).toBe(0);

    // The games in flight at the FLUSHALL finish and are refused; nothing of the lab is written.
    await waitUntil(() => lab.worker.counts.lost > lostBefore || undefined, 'a game in flight to be refused', 10_000);
    await sleep(2500);
    // BullMQ's own keys aside (the worker's queue bookkeeping), and the feeder's lock (a feeder
    // round may have begun before the coordinator saw the loss; it expires).
    const keys = (await c.keys(`${PREFIX}:*`)).filter((key) => !key.startsWith(`${PREFIX}:bull:`) && key !== `${PREFIX}:feeder-lock`);
    expect(keys).toEqual([]);
    expect((await request(`${lab.url}/readyz`)).status).toBe(503);
    // One error line at the loss, then at most one a second (OUTAGE_LOG_INTERVAL_MS).
    const errors = lab.lines.filter((l) => l.level === 50 && /^redis (lost|still lacks) the lab's data/.test(l.msg));
    expect(errors.length).toBeGreaterThanOrEqual(2);
    expect(errors.length).toBeLessThanOrEqual(2 + Math.floor((Date.now() - flushedAt) / 1000));
    expect(errors[0].msg).toMatch(/^redis lost the lab's data/);

    // Another coordinator's new epoch is a loss too; the old one back (a restore) ends it.
    await c.set(`${PREFIX}:epoch`, 'another');
    await waitUntil(async () => /another coordinator started a new epoch/.test((await request(`${lab.url}/readyz`)).body.error ?? ''), 'readyz to name the other epoch', 5000);
    await c.set(`${PREFIX}:epoch`, epoch!);
    await waitUntil(async () => (await request(`${lab.url}/readyz`)).status === 200, 'readyz to be ready again', 5000);
    expect((await request(`${lab.url}/metrics`)).body).toMatch(/^wonderlab_redis_data_lost 0$/m);
    expect(lab.lines.filter((l) => l.msg === 'the keyspace epoch is back (its data was restored): the lab resumes')).toHaveLength(1);
  }, 90_000);

  test('a coordinator writes an epoch for an empty keyspace, and gives one to sweeps stored before epochs, which still finish', async () => {
    const c = connect();
    const store = new SweepStore(c, PREFIX);
    // A sweep as an older coordinator stored it: no epoch anywhere.
    const old = await store.ledger.create(new Sweep(spec({ deals: { count: 4 } })));
    expect(await c.hget(store.keys.sweep(old.id).meta, 'epoch')).toBeNull();
    const lab = await startLab();
    await waitUntil(async () => (await store.reads.meta(old.id))?.status === 'done', 'the old sweep to finish', 30_000, 100);
    expect(await store.reads.meta(old.id)).toMatchObject({ done: 4, failed: 0 });
    expect(await c.get(store.keys.epoch)).toMatch(/^\d+-[0-9a-f]{8}$/);
    expect(lab.lines.filter((l) => l.msg === 'the keyspace had sweeps but no epoch (stored before epochs): it was given one')).toHaveLength(1);
    expect((await request(`${lab.url}/readyz`)).status).toBe(200);

    await c.flushall();
    await lab.coordinator.close();
    const fresh = await startLab();
    await waitUntil(() => fresh.lines.find((l) => l.msg.startsWith('redis held no lab data: a new keyspace epoch was written')), 'the new epoch to be logged', 5000);
    expect(fresh.lines.find((l) => l.msg.startsWith('redis held no lab data'))?.level).toBe(40);
    expect((await request(`${fresh.url}/readyz`)).status).toBe(200);
  });
});

describe('stored data of an older shape', () => {
  /** The oldest shape the lab migrates (shared/test/fixtures/store-v0.json), written under PREFIX. */
  async function storeV0(c: Redis, store: SweepStore): Promise<Record<string, Record<string, string>>> {
    const { sweeps } = JSON.parse(readFileSync(new URL('../shared/test/fixtures/store-v0.json', import.meta.url), 'utf8')) as { sweeps: Record<string, Record<string, string>> };
    for (const [id, meta] of Object.entries(sweeps)) {
      await c.hset(store.keys.sweep(id).meta, meta);
      await c.zadd(store.keys.sweeps, Number(meta.created), id);
      if (meta.status === 'running') await c.zadd(store.keys.active, Number(meta.priority), id);
    }
    return sweeps;
  }

  test('a coordinator migrates it before feeding, once, and its running sweep finishes; a newer version keeps it not ready', async () => {
    const c = connect();
    await c.flushall();
    const store = new SweepStore(c, PREFIX);
    await storeV0(c, store);
    const lab = await startLab();
    await waitUntil(async () => (await store.reads.meta('old-running'))?.status === 'done', 'the old running sweep to finish', 30_000, 100);
    expect(await store.reads.meta('old-running')).toMatchObject({ done: 4, failed: 0, schedule: 'sequential', batch: 1 });
    expect(await c.get(store.keys.schema)).toBe(String(SCHEMA_VERSION));
    const migrated = lab.lines.filter((l) => /^stored data migrated to schema version \d+/.test(l.msg));
    expect(migrated.map((l) => [l.to, l.sweeps, l.level])).toEqual([[1, 3, 40]]);
    expect((await request(`${lab.url}/readyz`)).status).toBe(200);
    await lab.coordinator.close();

    // Data a newer lab wrote: this coordinator neither rewrites nor feeds it, and says why.
    await c.flushall();
    await storeV0(c, store);
    await c.set(store.keys.schema, String(SCHEMA_VERSION + 1));
    const refused = await startLab();
    const ready = await waitUntil(async () => {
      const r = await request(`${refused.url}/readyz`);
      return r.status === 503 && /newer than this lab's/.test(r.body.error ?? '') ? r : undefined;
    }, 'readyz to refuse the newer schema', 5000);
    expect(ready.body.error).toContain(`schema version ${SCHEMA_VERSION + 1}, newer than this lab's ${SCHEMA_VERSION}`);
    await sleep(500);
    expect(await store.reads.meta('old-running')).toMatchObject({ cursor: 0, done: 0 });
    expect(await c.hget(store.keys.sweep('old-running').meta, 'schedule')).toBeNull();
  });
});
