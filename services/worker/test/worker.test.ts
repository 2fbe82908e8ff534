/**
 * Integration tests of the queue worker on the real Redis: exactly-once results when a job is
 * delivered twice, a worker killed mid-game (the game is replayed by another worker and counted
 * once), the SIGTERM hand-back and the graceful finish, games that fail every attempt,
 * idempotent failure records, and batches (a job of several games, each stored once however often
 * the job is delivered or cut short).
 *
 * The process-level tests run the built entry point (services/worker/dist/src/main.js): build with
 * `npx tsc -b` first. Every test has its own key prefix and queue name, deleted afterwards.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, expect, test, vi } from 'vitest';
import { pino } from 'pino';
import { WaitingError, type Job, type Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { Sweep, parseSweepSpec, playGame, type SweepSpec } from '@wonderlab/shared';
import { SEEN_WINDOW_MS, SweepStore, type SweepReads, WORKER_LOCK, WorkerRoster, connectRedis, deleteKeys, gameQueue, jobId, type GameJobData } from '@wonderlab/shared/store';
import { Feeder } from '@wonderlab/coordinator';
import { GameWorker, workerConfig } from '../src/index.js';
import { REDIS_URL, requireRedis, silent, uniqueNames, waitFor } from '../../coordinator/test/harness.js';
import { claim, gamesDone, resultCount } from '../../../shared/test/store-support.js';
import { startProcess, type LabProcess, type LogLine } from '../../../test/support/processes.js';

const MAIN = fileURLToPath(new URL('../dist/src/main.js', import.meta.url));

/** A game of a few milliseconds. */
const CHEAP = ['random', 'random', 'rulebased'];
/**
 * A game of about 4–5 s on any machine: two MCTS seats whose every decision stops at its 0.12 s
 * time limit, its iteration count out of reach. (A count of iterations, 2000, made a game of 4–5 s
 * once; a faster search brought it to about 1 s, too short for the kills below to land mid-game.)
 */
const SLOW = ['mcts(it=1000000,time=0.12)', 'mcts(it=1000000,time=0.12)', 'rulebased'];
/** A game of about 1–2 s. */
const MEDIUM = ['mcts(it=700)', 'mcts(it=700)', 'rulebased'];
/** Per label, the games counter after one game of any of the seat lists above (seats of one spec pooled). */
const ONE_GAME_BY_LABEL = { 0: 2, 1: 1 };

let redis: Redis;

// Everything a test starts, torn down in afterEach even when the test fails.
const children = new Set<LabProcess>();
const workers: GameWorker[] = [];
const queues: Queue<GameJobData>[] = [];
const connections: Redis[] = [];
const prefixes: string[] = [];

const killAll = () => {
  for (const c of children) if (c.proc.exitCode === null && c.proc.signalCode === null) c.proc.kill('SIGKILL');
};
process.once('exit', killAll);

beforeAll(async () => {
  await requireRedis();
  if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: build first (npx tsc -b)`);
  redis = connectRedis(REDIS_URL);
});

afterEach(async () => {
  for (const c of [...children]) {
    if (c.proc.exitCode === null && c.proc.signalCode === null) c.proc.kill('SIGKILL');
    await c.exit;
    children.delete(c);
  }
  await Promise.all(workers.splice(0).map((w) => w.close(100).catch(() => {})));
  await Promise.all(queues.splice(0).map((q) => q.close().catch(() => {})));
  await Promise.all(connections.splice(0).map((c) => c.quit().catch(() => c.disconnect())));
  for (const prefix of prefixes.splice(0)) await deleteKeys(redis, prefix);
});

afterAll(async () => {
  killAll();
  await redis?.quit();
});

// ---------------------------------------------------------------------------------------------
// Helpers

interface Lab {
  prefix: string;
  queueName: string;
  store: SweepStore;
  queue: Queue<GameJobData>;
  feeder: Feeder;
}

function lab(tag: string): Lab {
  const { prefix, queue: queueName } = uniqueNames(`worker-${tag}`);
  prefixes.push(prefix);
  const store = new SweepStore(redis, prefix);
  const queue = gameQueue(redis, store.keys, queueName);
  queues.push(queue);
  const feeder = new Feeder({ store, queue, window: 10, intervalMs: 1000, logger: silent });
  return { prefix, queueName, store, queue, feeder };
}

async function createSweep(l: Lab, seats: string[], count = 1): Promise<{ id: string; spec: SweepSpec; sweep: Sweep }> {
  const spec = parseSweepSpec({ name: 'worker-test', players: seats.length, seats, deals: { count } });
  const meta = await l.store.ledger.create(new Sweep(spec));
  return { id: meta.id, spec, sweep: new Sweep(spec) };
}


/** An in-process GameWorker with its own connection and a debug logger kept in memory. */
function inProcessWorker(l: Lab, o: { slots?: number; start?: boolean; lockDuration?: number; stalledInterval?: number } = {}): { worker: GameWorker; logs: LogLine[] } {
  const connection = connectRedis(REDIS_URL);
  connections.push(connection);
  const logs: LogLine[] = [];
  const logger = pino({ level: 'debug' }, { write: (line: string) => void logs.push(JSON.parse(line) as LogLine) });
  const worker = new GameWorker({
    redis: connection,
    prefix: l.prefix,
    queueName: l.queueName,
    slots: o.slots ?? 1,
    lockDuration: o.lockDuration ?? 2000,
    stalledInterval: o.stalledInterval ?? 1000,
    logger,
  });
  workers.push(worker);
  if (o.start !== false) worker.start();
  return { worker, logs };
}

/** `node services/worker/dist/src/main.js` on the lab's prefix and queue, one slot, short locks (an `env` value undefined: unset, the default). */
function spawnWorker(l: Lab, env: Record<string, string | undefined> = {}): LabProcess {
  const settings: Record<string, string | undefined> = {
    REDIS_URL,
    KEY_PREFIX: l.prefix,
    QUEUE_NAME: l.queueName,
    WORKER_SLOTS: '1',
    LOCK_DURATION_MS: '2000',
    STALLED_INTERVAL_MS: '1000',
    HEALTH_PORT: '0',
    ...env,
  };
  const child = startProcess('the worker process', [MAIN], Object.fromEntries(Object.entries(settings).filter((e): e is [string, string] => e[1] !== undefined)));
  children.add(child);
  return child;
}

/** A new one-game sweep of `seats`, fed to a worker process (spawnWorker with `env`) that has started the game. */
async function workerMidGame(tag: string, seats: string[], env: Record<string, string | undefined> = {}): Promise<{ l: Lab; id: string; a: LabProcess }> {
  const l = lab(tag);
  const { id } = await createSweep(l, seats);
  const a = spawnWorker(l, env);
  expect(await l.feeder.feed(id)).toBe(1);
  await a.waitForLog('game started');
  return { l, id, a };
}

const logged = (logs: LogLine[], msg: string) => logs.filter((l) => l.msg === msg);

async function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms)));
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A job object as BullMQ hands it to the processor, reduced to what the worker reads. */
function fakeJob(s: string, k: number, attemptsMade = 0, attempts = 3, extra: object = {}): Job<GameJobData> {
  return { id: jobId(s, k), data: { s, k }, attemptsMade, opts: { attempts }, ...extra } as unknown as Job<GameJobData>;
}

/** Per label index, the `c<cell>|L<label>|g` games counters of an aggregate table. */
function gamesByLabel(agg: Record<string, string>, cell = 0): Record<number, number> {
  const out: Record<number, number> = {};
  for (const [field, value] of Object.entries(agg)) {
    const m = new RegExp(`^c${cell}\\|L(\\d+)\\|g$`).exec(field);
    if (m) out[Number(m[1])] = Number(value);
  }
  return out;
}

async function queueCounts(l: Lab): Promise<Record<string, number>> {
  return l.queue.getJobCounts('active', 'waiting', 'prioritized', 'delayed', 'failed', 'completed');
}

const EMPTY_QUEUE = { active: 0, waiting: 0, prioritized: 0, delayed: 0, failed: 0, completed: 0 };

async function waitForStatus(l: Lab, id: string, status: string, timeoutMs = 30_000) {
  return waitFor(
    async () => {
      const meta = await l.store.reads.meta(id);
      return meta?.status === status ? meta : undefined;
    },
    `sweep ${id} to be ${status}`,
    timeoutMs,
    50,
  );
}

/** The checks of "this one-game sweep was counted exactly once". */
async function expectCountedOnce(l: Lab, id: string): Promise<void> {
  const meta = (await l.store.reads.meta(id))!;
  expect(meta).toMatchObject({ status: 'done', total: 1, done: 1, failed: 0 });
  expect(await resultCount(l.store, id)).toBe(1);
  const agg = await l.store.reads.aggregateTable(id);
  expect(agg['c0|n']).toBe('1');
  expect(gamesByLabel(agg)).toEqual(ONE_GAME_BY_LABEL);
  expect(await gamesDone(l.store)).toBe(1);
  expect(await l.store.reads.outstanding(id)).toEqual([]);
  expect(await l.store.reads.failures(id)).toEqual([]);
}

// ---------------------------------------------------------------------------------------------
// 1. Exactly once

test('a game played twice through process() is stored once: the second delivery is a duplicate that changes nothing', async () => {
  const l = lab('dup-process');
  const { id } = await createSweep(l, CHEAP, 2);
  const { worker } = inProcessWorker(l, { start: false });

  expect(await worker.process(fakeJob(id, 0))).toBe('stored');
  const agg = await l.store.reads.aggregateTable(id);
  const meta = (await l.store.reads.meta(id))!;
  expect(meta).toMatchObject({ status: 'running', done: 1, failed: 0 });
  expect(agg['c0|n']).toBe('1');
  expect(gamesByLabel(agg)).toEqual(ONE_GAME_BY_LABEL);

  expect(await worker.process(fakeJob(id, 0))).toBe('duplicate');
  expect(await l.store.reads.aggregateTable(id)).toEqual(agg);
  expect(await l.store.reads.meta(id)).toEqual(meta);
  expect(await resultCount(l.store, id)).toBe(1);
  expect(await gamesDone(l.store)).toBe(1);
  expect(worker.counts).toMatchObject({ stored: 1, duplicate: 1, failed: 0 });
});

test('the same game queued twice under two job ids is counted once by a running worker', async () => {
  const l = lab('dup-queue');
  const { id } = await createSweep(l, CHEAP, 2);
  const { worker } = inProcessWorker(l, { slots: 2 });

  await l.queue.add('game', { s: id, k: 0 }, { jobId: 'dup-1' });
  await l.queue.add('game', { s: id, k: 0 }, { jobId: 'dup-2' });
  await waitFor(async () => worker.counts.stored + worker.counts.duplicate >= 2, 'both deliveries to be processed', 20_000);
  await waitFor(async () => JSON.stringify(await queueCounts(l)) === JSON.stringify(EMPTY_QUEUE) || undefined, 'both jobs to complete', 10_000);

  expect(worker.counts).toMatchObject({ stored: 1, duplicate: 1, failed: 0, 'unknown-sweep': 0 });
  const meta = (await l.store.reads.meta(id))!;
  expect(meta).toMatchObject({ status: 'running', done: 1, failed: 0 });
  const agg = await l.store.reads.aggregateTable(id);
  expect(agg['c0|n']).toBe('1');
  expect(gamesByLabel(agg)).toEqual(ONE_GAME_BY_LABEL);
  expect(await resultCount(l.store, id)).toBe(1);
  expect(await gamesDone(l.store)).toBe(1);
});

// ---------------------------------------------------------------------------------------------
// 2–4. Worker processes killed or stopped mid-game

test('a worker SIGKILLed mid-game: the stalled game is replayed by another worker and counted once', async () => {
  const { l, id, a } = await workerMidGame('sigkill', SLOW);
  await sleep(500);
  expect((await queueCounts(l)).active).toBe(1);
  a.proc.kill('SIGKILL');
  expect((await withTimeout(a.exit, 5000, 'the killed worker to exit')).signal).toBe('SIGKILL');
  expect(logged(a.logs, 'game finished')).toEqual([]);
  expect(await resultCount(l.store, id)).toBe(0);
  expect((await l.store.reads.meta(id))!.done).toBe(0);

  // It never said it stopped: seen now, and silent (lost capacity) once the window has passed.
  const roster = new WorkerRoster(redis, l.store.keys);
  expect((await roster.read()).seen.map((w) => w.pid)).toContain(a.proc.pid);
  expect((await roster.read(Date.now() + SEEN_WINDOW_MS + 1000)).silent.map((w) => w.pid)).toContain(a.proc.pid);

  const b = inProcessWorker(l);
  await waitForStatus(l, id, 'done', 40_000);
  await expectCountedOnce(l, id);
  // The second worker found the job stalled and really played it (it takes seconds).
  expect(b.worker.counts).toMatchObject({ stored: 1, duplicate: 0, failed: 0 });
  expect(logged(b.logs, 'job stalled; it goes back to the queue').length).toBeGreaterThanOrEqual(1);
  const finished = logged(b.logs, 'game finished');
  expect(finished).toHaveLength(1);
  expect(finished[0]).toMatchObject({ sweep: id, stored: true });
  expect(finished[0].ms as number).toBeGreaterThan(1500);
  await waitFor(async () => JSON.stringify(await queueCounts(l)) === JSON.stringify(EMPTY_QUEUE) || undefined, 'the queue to be empty', 5000);
}, 60_000);

test('SIGTERM with a short grace hands the running game back to the queue; another worker plays it once', async () => {
  const { l, id, a } = await workerMidGame('sigterm-handback', SLOW, { SHUTDOWN_GRACE_MS: '500' });
  await sleep(300);
  const sent = Date.now();
  a.proc.kill('SIGTERM');
  const exit = await withTimeout(a.exit, 10_000, 'the worker to exit after SIGTERM');
  const tookMs = Date.now() - sent;
  expect(exit).toEqual({ code: 0, signal: null });
  expect(tookMs).toBeLessThan(4000);
  expect(logged(a.logs, 'game handed back to the queue')).toHaveLength(1);
  expect(logged(a.logs, 'game finished')).toEqual([]);
  expect(logged(a.logs, 'game attempt failed')).toEqual([]);
  expect(logged(a.logs, 'worker stopped')[0]).toMatchObject({ stored: 0, failed: 0 });

  // The job is back in line (the feeder queues with a priority), not failed, and no attempt was spent.
  const counts = await queueCounts(l);
  expect(counts.waiting + counts.prioritized).toBe(1);
  expect(counts).toMatchObject({ active: 0, failed: 0, delayed: 0 });
  const job = await l.queue.getJob(jobId(id, 0));
  expect(job?.attemptsMade).toBe(0);
  expect(await resultCount(l.store, id)).toBe(0);
  expect(await l.store.reads.meta(id)).toMatchObject({ status: 'running', done: 0, failed: 0 });
  expect(await l.store.reads.outstanding(id)).toEqual([0]);

  const b = inProcessWorker(l);
  await waitForStatus(l, id, 'done', 40_000);
  await expectCountedOnce(l, id);
  expect(b.worker.counts).toMatchObject({ stored: 1, duplicate: 0, failed: 0 });
  const finished = logged(b.logs, 'game finished');
  expect(finished).toHaveLength(1);
  // The first worker left well before the game could have finished.
  expect(finished[0].ms as number).toBeGreaterThan(tookMs + 1000);
  await waitFor(async () => JSON.stringify(await queueCounts(l)) === JSON.stringify(EMPTY_QUEUE) || undefined, 'the queue to be empty', 5000);
}, 60_000);

test('SIGTERM with a generous grace lets the running game finish and be recorded, then the worker exits 0', async () => {
  const { l, id, a } = await workerMidGame('sigterm-finish', MEDIUM, { SHUTDOWN_GRACE_MS: '30000' });
  a.proc.kill('SIGTERM');
  const exit = await withTimeout(a.exit, 20_000, 'the worker to finish its game and exit');
  expect(exit).toEqual({ code: 0, signal: null });
  expect(logged(a.logs, 'stopping: finishing running games')).toHaveLength(1);
  expect(logged(a.logs, 'game handed back to the queue')).toEqual([]);
  const finished = logged(a.logs, 'game finished');
  expect(finished).toHaveLength(1);
  expect(finished[0]).toMatchObject({ sweep: id, stored: true });
  expect(logged(a.logs, 'worker stopped')[0]).toMatchObject({ stored: 1, duplicate: 0, failed: 0 });
  await expectCountedOnce(l, id);
  // The job was completed (and removed), not left active to stall and be replayed.
  expect(await queueCounts(l)).toEqual(EMPTY_QUEUE);
  // Stopped on purpose: it took itself off the roster, so it never shows as lost capacity.
  const roster = await new WorkerRoster(redis, l.store.keys).read(Date.now() + SEEN_WINDOW_MS + 1000);
  expect([...roster.seen, ...roster.silent].map((w) => w.pid)).not.toContain(a.proc.pid);
}, 40_000);

test('with the default lock settings a SIGKILLed worker’s game is back in the queue and started elsewhere within 5 s', async () => {
  // The worker process with LOCK_DURATION_MS and STALLED_INTERVAL_MS unset: what compose and k8s run.
  const { l, id, a } = await workerMidGame('sigkill-defaults', SLOW, { LOCK_DURATION_MS: undefined, STALLED_INTERVAL_MS: undefined });
  // Past a lock renewal or two, so the lock it leaves has up to a full lockDuration to run.
  await sleep(1600);
  const b = inProcessWorker(l, { lockDuration: WORKER_LOCK.lockDuration, stalledInterval: WORKER_LOCK.stalledInterval });
  const killedAt = Date.now();
  a.proc.kill('SIGKILL');
  await withTimeout(a.exit, 5000, 'the killed worker to exit');
  const started = await waitFor(async () => logged(b.logs, 'game started')[0], 'the game to start on the other worker', 20_000, 20);
  const backMs = (started.time as number) - killedAt;
  expect(logged(b.logs, 'job stalled; it goes back to the queue').length).toBeGreaterThanOrEqual(1);
  expect(backMs).toBeLessThanOrEqual(5000);
  await waitForStatus(l, id, 'done', 40_000);
  await expectCountedOnce(l, id);
}, 60_000);

test('the lock settings: short by default (a killed worker’s games back within 5 s), and never under a second', () => {
  const defaults = workerConfig({});
  expect(defaults.LOCK_DURATION_MS).toBe(WORKER_LOCK.lockDuration);
  expect(defaults.STALLED_INTERVAL_MS).toBe(WORKER_LOCK.stalledInterval);
  expect(defaults.LOCK_DURATION_MS + defaults.STALLED_INTERVAL_MS).toBeLessThanOrEqual(5000);
  // BullMQ renews every half lock from the event loop: at least two renewals fit in one lock.
  expect(defaults.STALLED_INTERVAL_MS).toBeLessThanOrEqual(defaults.LOCK_DURATION_MS);
  expect(() => workerConfig({ LOCK_DURATION_MS: '500' })).toThrow(/LOCK_DURATION_MS: at least 1000 ms/);
});

/**
 * Regression: a shutdown abort that lands before the game reaches a thread (the job still reading
 * its sweep from Redis) must hand the job back like an abort mid-game, not spend an attempt.
 */
test('a job aborted (shutdown) before its game reaches a thread is handed back, not failed', async () => {
  const l = lab('abort-early');
  const { id } = await createSweep(l, CHEAP);
  expect(await claim(l.store, id, 10)).toEqual([0]);
  const { worker } = inProcessWorker(l, { start: false });
  for (const attemptsMade of [0, 2]) {
    const moveToWait = vi.fn(async () => 0);
    const aborted = AbortSignal.abort('shutting down');
    const outcome = worker.process(fakeJob(id, 0, attemptsMade, 3, { moveToWait }), 'token', aborted);
    await expect(outcome).rejects.toSatisfy((err: unknown) => err instanceof WaitingError || (err as Error)?.name === 'WaitingError');
    expect(moveToWait).toHaveBeenCalledWith('token');
  }
  expect(await l.store.reads.meta(id)).toMatchObject({ status: 'running', done: 0, failed: 0 });
  expect(await l.store.reads.outstanding(id)).toEqual([0]);
});

// ---------------------------------------------------------------------------------------------
// 5. Games that fail every attempt

/** Replaces the stored spec with one whose first seat no longer parses; returns the original. */
async function corruptSpec(l: Lab, id: string, spec: SweepSpec): Promise<string> {
  const key = l.store.keys.sweep(id).meta;
  const original = (await redis.hget(key, 'spec'))!;
  await redis.hset(key, 'spec', JSON.stringify({ ...spec, seats: ['mcts(it=abc)', ...spec.seats.slice(1)] }));
  return original;
}

async function expectFailedOnly(l: Lab, id: string): Promise<void> {
  expect(await l.store.reads.meta(id)).toMatchObject({ status: 'done', done: 0, failed: 1 });
  expect(await l.store.reads.activeIds()).not.toContain(id);
  const failures = await l.store.reads.failures(id);
  expect(failures).toEqual([{ index: 0, error: expect.stringContaining("mcts(it=abc)") }]);
  expect(await resultCount(l.store, id)).toBe(0);
  expect(await l.store.reads.outstanding(id)).toEqual([]);
  // Counted lab-wide (the metrics' wonderlab_games_failed_total), once.
  expect(await l.store.reads.gameCounters()).toEqual({ done: 0, failed: 1 });
}

async function retryAndReplay(l: Lab, id: string, original: string): Promise<void> {
  await redis.hset(l.store.keys.sweep(id).meta, 'spec', original);
  expect(await l.store.ledger.retryFailed(id, 10)).toBe(1);
  expect(await l.store.reads.meta(id)).toMatchObject({ status: 'running', done: 0, failed: 0 });
  expect(await l.store.reads.activeIds()).toContain(id);
  expect(await l.store.reads.failures(id)).toEqual([]);
  // The feeder takes the requeued index first, under the same job id as before.
  expect(await l.feeder.feed(id)).toBe(1);
  expect(await l.store.reads.outstanding(id)).toEqual([0]);
  const fresh = inProcessWorker(l);
  await waitForStatus(l, id, 'done', 20_000);
  await expectCountedOnce(l, id);
  expect(fresh.worker.counts).toMatchObject({ stored: 1, failed: 0 });
}

test('a game failing on its last attempt (process()) is recorded as failed, the sweep completes, and retryFailed replays it', async () => {
  const l = lab('fail-process');
  const { id, spec } = await createSweep(l, CHEAP);
  const original = await corruptSpec(l, id, spec);
  // Claimed as the feeder claims it (the cursor moves past it), then delivered by hand.
  expect(await claim(l.store, id, 10)).toEqual([0]);
  const { worker } = inProcessWorker(l, { start: false });

  // An attempt that is not the last throws (BullMQ retries it) and records nothing.
  await expect(worker.process(fakeJob(id, 0, 0, 3))).rejects.toThrow(/mcts\(it=abc\)/);
  expect(await l.store.reads.failures(id)).toEqual([]);
  expect(await l.store.reads.meta(id)).toMatchObject({ status: 'running', failed: 0 });

  expect(await worker.process(fakeJob(id, 0, 2, 3))).toBe('failed');
  expect(worker.counts).toMatchObject({ failed: 1, stored: 0 });
  await expectFailedOnly(l, id);

  await retryAndReplay(l, id, original);
});

test('a queued job with a single attempt that fails is recorded as failed (not left in BullMQ), and retryFailed replays it', async () => {
  const l = lab('fail-queue');
  const { id, spec } = await createSweep(l, CHEAP);
  const original = await corruptSpec(l, id, spec);
  expect(await claim(l.store, id, 10)).toEqual([0]);
  const first = inProcessWorker(l);
  await l.queue.add('game', { s: id, k: 0 }, { jobId: jobId(id, 0), attempts: 1 });

  await waitForStatus(l, id, 'done', 20_000);
  expect(first.worker.counts).toMatchObject({ failed: 1, stored: 0 });
  expect(logged(first.logs, 'game failed on every attempt')).toHaveLength(1);
  await expectFailedOnly(l, id);
  await waitFor(async () => JSON.stringify(await queueCounts(l)) === JSON.stringify(EMPTY_QUEUE) || undefined, 'the failed game\'s job to be gone', 5000);

  await first.worker.close(100);
  await retryAndReplay(l, id, original);
});

// ---------------------------------------------------------------------------------------------
// 6. Idempotent failure records

test('recordFailure counts an index once, and does nothing once the game has a result', async () => {
  const l = lab('fail-idempotent');
  const { id, sweep } = await createSweep(l, CHEAP, 2);

  expect(await l.store.ledger.recordFailure(id, 0, sweep.game(0).id, 'boom')).toBe(true);
  expect(await l.store.ledger.recordFailure(id, 0, sweep.game(0).id, 'boom again')).toBe(false);
  expect(await l.store.reads.meta(id)).toMatchObject({ status: 'running', done: 0, failed: 1 });
  expect(await l.store.reads.failures(id)).toEqual([{ index: 0, error: 'boom' }]);

  const { worker } = inProcessWorker(l, { start: false });
  expect(await worker.process(fakeJob(id, 1))).toBe('stored');
  const meta = await l.store.reads.meta(id);
  expect(meta).toMatchObject({ status: 'done', done: 1, failed: 1 });

  // A late failure report for the game that has a result changes nothing.
  expect(await l.store.ledger.recordFailure(id, 1, sweep.game(1).id, 'late')).toBe(false);
  expect(await l.store.reads.meta(id)).toEqual(meta);
  expect(await l.store.reads.failures(id)).toEqual([{ index: 0, error: 'boom' }]);
  expect(await resultCount(l.store, id)).toBe(1);
});

// ---------------------------------------------------------------------------------------------
// 7. Batches: a job of several games, each still stored exactly once

/** A sweep whose games are queued in batches of `batch` positions. */
async function createBatchedSweep(l: Lab, seats: string[], count: number, batch: number): Promise<{ id: string; sweep: Sweep }> {
  const spec = parseSweepSpec({ name: 'worker-batch-test', players: seats.length, seats, deals: { count } });
  const sweep = new Sweep(spec);
  const meta = await l.store.ledger.create(sweep, { batch });
  return { id: meta.id, sweep };
}

/** A batch job as BullMQ hands it to the processor. */
function fakeBatchJob(s: string, p: number, n: number, attemptsMade = 0, attempts = 3, extra: object = {}): Job<GameJobData> {
  return { id: `${s}.p${p}`, data: { s, p, n }, attemptsMade, opts: { attempts }, ...extra } as unknown as Job<GameJobData>;
}

/** The checks of "every game of this sweep was counted exactly once". */
async function expectAllCountedOnce(l: Lab, id: string, games: number): Promise<void> {
  const meta = (await l.store.reads.meta(id))!;
  expect(meta).toMatchObject({ status: 'done', total: games, done: games, failed: 0 });
  expect(await resultCount(l.store, id)).toBe(games);
  const agg = await l.store.reads.aggregateTable(id);
  expect(agg['c0|n']).toBe(String(games));
  expect(gamesByLabel(agg)).toEqual({ 0: 2 * games, 1: games });
  expect(await gamesDone(l.store)).toBe(games);
  expect(await l.store.reads.outstanding(id)).toEqual([]);
}

test('a batch delivered twice through process() stores each game once; the second delivery plays nothing', async () => {
  const l = lab('batch-dup');
  const { id, sweep } = await createBatchedSweep(l, CHEAP, 8, 4);
  const claimed = await l.store.ledger.claimJobs(id, 8);
  expect(claimed.batches).toEqual([{ p: 0, n: 4 }, { p: 4, n: 4 }]);
  const { worker } = inProcessWorker(l, { start: false });

  expect(await worker.process(fakeBatchJob(id, 0, 4))).toBe('stored');
  expect(worker.counts).toMatchObject({ stored: 4, duplicate: 0 });
  const agg = await l.store.reads.aggregateTable(id);
  expect(await resultCount(l.store, id)).toBe(4);
  expect((await l.store.reads.results(id, [0, 1, 2, 3].map((p) => sweep.game(sweep.indexAt(p)).id))).every(Boolean)).toBe(true);

  expect(await worker.process(fakeBatchJob(id, 0, 4))).toBe('duplicate');
  expect(worker.counts).toMatchObject({ stored: 4, duplicate: 0 });
  expect(await l.store.reads.aggregateTable(id)).toEqual(agg);

  expect(await worker.process(fakeBatchJob(id, 4, 4))).toBe('stored');
  await expectAllCountedOnce(l, id, 8);
});

test('a batch whose first games were stored before (its worker died after storing them) plays only the rest, each once', async () => {
  const l = lab('batch-partial');
  const { id, sweep } = await createBatchedSweep(l, CHEAP, 6, 6);
  await l.store.ledger.claimJobs(id, 1);
  const loaded = (await l.store.reads.load(id))!;
  const { worker } = inProcessWorker(l, { start: false });
  for (const p of [0, 1]) await l.store.ledger.recordResult(loaded, playGame(sweep.game(sweep.indexAt(p))));
  expect(await worker.process(fakeBatchJob(id, 0, 6))).toBe('stored');
  expect(worker.counts).toMatchObject({ stored: 4, duplicate: 0 });
  await expectAllCountedOnce(l, id, 6);
});

test('a batch failing on its last attempt records each of its games as failed; an earlier attempt stores nothing and throws', async () => {
  const l = lab('batch-fail');
  const { id, sweep } = await createBatchedSweep(l, CHEAP, 3, 3);
  await corruptSpec(l, id, sweep.spec);
  await l.store.ledger.claimJobs(id, 1);
  const { worker } = inProcessWorker(l, { start: false });
  await expect(worker.process(fakeBatchJob(id, 0, 3, 0, 3))).rejects.toThrow(/mcts\(it=abc\)/);
  expect(await l.store.reads.meta(id)).toMatchObject({ status: 'running', done: 0, failed: 0 });
  expect(await worker.process(fakeBatchJob(id, 0, 3, 2, 3))).toBe('failed');
  expect(await l.store.reads.meta(id)).toMatchObject({ status: 'done', done: 0, failed: 3 });
  expect((await l.store.reads.failures(id)).map((f) => f.index).sort()).toEqual([0, 1, 2]);
  expect(await l.store.reads.outstanding(id)).toEqual([]);
});

test('the feeder’s reconcile does not queue again a batch that finished while it looked: its games are stored, not lost', async () => {
  const l = lab('reconcile-race');
  const spec = parseSweepSpec({ name: 'worker-test', players: 3, seats: CHEAP, deals: { count: 6 } });
  const meta = await l.store.ledger.create(new Sweep(spec), { batch: 3 });
  expect(await l.feeder.tick()).toBe(6);
  const { worker } = inProcessWorker(l, { start: false });
  // The store as reconcile sees it: the batches are played, stored and gone from the queue
  // between its read of the outstanding games and its look for their jobs.
  const reads = Object.create(l.store.reads) as SweepReads;
  const racing = Object.assign(Object.create(l.store) as SweepStore, { reads });
  reads.missingJobs = async (queueName: string, ids: readonly string[]) => {
    for (const job of await l.queue.getJobs(['waiting', 'prioritized'])) {
      expect(await worker.process(job)).toBe('stored');
      await job.remove();
    }
    return l.store.reads.missingJobs(queueName, ids);
  };
  const feeder = new Feeder({ store: racing, queue: l.queue, window: 10, intervalMs: 1000, logger: silent });
  expect(await feeder.reconcile(meta.id)).toBe(0);
  expect(await l.queue.count()).toBe(0);
  expect(worker.counts.stored).toBe(6);
  expect(await l.store.reads.outstanding(meta.id)).toEqual([]);
});

test('SIGTERM mid-batch: the games finished are stored, the batch goes back to the queue, and another worker plays only the rest', async () => {
  const l = lab('batch-sigterm');
  const games = 8;
  const { id } = await createBatchedSweep(l, ['mcts(it=150)', 'mcts(it=150)', 'rulebased'], games, games);
  const a = spawnWorker(l, { SHUTDOWN_GRACE_MS: '200' });
  expect(await l.feeder.feed(id)).toBe(games);
  // Kill once some of the batch's games have been played (none is stored before the batch ends).
  await waitFor(async () => (a.logs.some((x) => x.msg === 'games played') ? true : undefined), 'the worker to play a game of the batch', 20_000, 20);
  a.proc.kill('SIGTERM');
  expect(await withTimeout(a.exit, 10_000, 'the worker to exit after SIGTERM')).toEqual({ code: 0, signal: null });
  expect(logged(a.logs, 'batch handed back to the queue')).toHaveLength(1);
  const storedByA = (await l.store.reads.meta(id))!.done;
  expect(storedByA).toBeGreaterThan(0);
  expect(storedByA).toBeLessThan(games);
  expect(logged(a.logs, 'worker stopped')[0]).toMatchObject({ stored: storedByA, failed: 0 });

  const b = inProcessWorker(l);
  await waitForStatus(l, id, 'done', 40_000);
  expect(b.worker.counts).toMatchObject({ stored: games - storedByA, duplicate: 0, failed: 0 });
  await expectAllCountedOnce(l, id, games);
  await waitFor(async () => JSON.stringify(await queueCounts(l)) === JSON.stringify(EMPTY_QUEUE) || undefined, 'the queue to be empty', 5000);
}, 60_000);
