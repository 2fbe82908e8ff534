/**
 * Outages and stops, with real processes: the built coordinator, worker, dashboard and `wonderlab
 * serve`, on a private redis-server that the tests kill and restart (never the machine's Redis).
 *
 * - With Redis down, /readyz answers 503 and /api/* answers 503 with a clear message (the client
 *   gives each request 5 s, so a hang fails the test); routes that need no Redis still answer.
 * - SIGTERM ends every process through its own stop path (its "stopped" log line, not the
 *   last-resort timer's) with Redis up, down, or never reached.
 * - A worker logs an outage once, then at a bounded rate.
 * - A game running when Redis dies is neither lost nor counted twice: another worker plays it once
 *   Redis is back (from its append-only file).
 * - A game that cannot finish within the grace is handed back at SIGTERM, not failed.
 *
 * Needs the build (npx tsc -b) and redis-server on PATH.
 */
import { describe, expect, test } from 'vitest';
import { pino } from 'pino';
import { Sweep, parseSweepSpec } from '@wonderlab/shared';
import { Feeder } from '@wonderlab/coordinator';
import { GameWorker } from '@wonderlab/worker';
import { SweepStore, closeRedis, connectRedis, gameQueue, jobId } from '@wonderlab/shared/store';
import { ownRedis } from './support/own-redis.js';
import { ENTRY, exitOf, request, sleep, startProcess, waitUntil, type LabProcess } from './support/processes.js';
import { gamesDone, resultCount } from '../shared/test/store-support.js';

const silent = pino({ level: 'silent' });
/** Short, so the tests are quick; the figures a deployment uses are in the README. */
const CLOSE_MS = 2000;
const COMMON = { KEY_PREFIX: 'outage', QUEUE_NAME: 'games', SHUTDOWN_CLOSE_MS: String(CLOSE_MS), OUTAGE_LOG_INTERVAL_MS: '1000' };

const started: LabProcess[] = [];
const own = ownRedis(async () => {
  for (const p of started.splice(0)) {
    if (p.proc.exitCode === null && p.proc.signalCode === null) p.proc.kill('SIGKILL');
    await p.exit;
  }
});

/** A test-side connection: its errors while Redis is down are expected, not news. */
const connect = () => connectRedis(own.redis.url).on('error', () => {});

function start(name: keyof typeof ENTRY, env: Record<string, string>, args: string[] = []): LabProcess {
  const p = startProcess(name, [ENTRY[name], ...args], { ...COMMON, REDIS_URL: own.redis.url, ...env });
  started.push(p);
  return p;
}

async function coordinator(env: Record<string, string> = {}): Promise<{ p: LabProcess; url: string }> {
  const p = start('coordinator', { PORT: '0', HOST: '127.0.0.1', FEED_INTERVAL_MS: '100', ...env });
  const line = await p.waitForLog('coordinator listening');
  return { p, url: line.url as string };
}

/** SIGTERM, then the exit (a process still there after `boundMs` is SIGKILLed and fails the test). */
async function terminate(p: LabProcess, boundMs: number, stoppedMsg: string) {
  p.proc.kill('SIGTERM');
  const exit = await exitOf(p, boundMs);
  expect(exit.signal, `${p.name} was still running ${boundMs} ms after SIGTERM:\n${p.other.join('\n')}`).toBeNull();
  // It stopped by its own path, not by the last-resort timer.
  expect(p.logged('shutdown did not finish in time: exiting'), p.name).toEqual([]);
  expect(p.logged(stoppedMsg), p.name).toHaveLength(1);
  return exit;
}


describe('coordinator', () => {
  test('Redis up: ready, and SIGTERM stops it cleanly', async () => {
    const { p, url } = await coordinator();
    expect((await request(`${url}/readyz`)).status).toBe(200);
    expect((await request(`${url}/api/sweeps`)).status).toBe(200);
    const exit = await terminate(p, CLOSE_MS + 3000, 'coordinator stopped');
    expect(exit.code).toBe(0);
    expect(p.logged('coordinator stopped')[0].clean).toBe(true);
  });

  test('Redis killed: /readyz and /api/* answer 503 at once, routes without Redis still answer, SIGTERM still stops it', async () => {
    const { p, url } = await coordinator();
    const spec = { name: 'o', players: 3, seats: ['random', 'random', 'random'], deals: { count: 2 } };
    const created = await request(`${url}/api/sweeps`, { method: 'POST', json: spec });
    expect(created.status).toBe(201);
    await own.redis.stop('SIGKILL');

    const ready = await request(`${url}/readyz`);
    expect(ready.status).toBe(503);
    expect(ready.body.ok).toBe(false);
    for (const [method, path, json] of [
      ['GET', '/api/sweeps', undefined],
      ['GET', `/api/sweeps/${created.body.id}`, undefined],
      ['GET', `/api/sweeps/${created.body.id}/games`, undefined],
      ['GET', '/api/backlog', undefined],
      ['POST', '/api/sweeps', spec],
      ['POST', `/api/sweeps/${created.body.id}/pause`, undefined],
    ] as const) {
      const res = await request(`${url}${path}`, { method, json });
      expect(res.status, `${method} ${path}`).toBe(503);
      expect(res.body.error, `${method} ${path}`).toMatch(/Redis is unreachable/);
    }
    // What needs no Redis is served as usual; the metrics say Redis is down and leave the lab's
    // series out rather than report zeros.
    expect((await request(`${url}/api/openapi.json`)).status).toBe(200);
    const metrics = await request(`${url}/metrics`);
    expect(metrics.status).toBe(200);
    expect(metrics.body).toMatch(/^wonderlab_redis_up 0$/m);
    expect(metrics.body).toMatch(/^process_resident_memory_bytes \d+/m);
    expect(metrics.body).not.toMatch(/^wonderlab_backlog_games/m);
    expect((await request(`${url}/healthz`)).status).toBe(200);
    const validate = await request(`${url}/api/sweeps/validate`, { method: 'POST', json: spec });
    expect(validate.status).toBe(200);
    // One outage, logged once (the interval is 1 s; this all took less than that or a little more).
    expect(p.logged('redis unreachable')).toHaveLength(1);

    await terminate(p, CLOSE_MS + 3000, 'coordinator stopped');
  });

  test('started with Redis down: 503 until Redis comes up, then it serves; SIGTERM while reconnecting stops it', async () => {
    await own.redis.stop('SIGKILL');
    const { p, url } = await coordinator();
    expect((await request(`${url}/readyz`)).status).toBe(503);
    expect((await request(`${url}/api/sweeps`)).status).toBe(503);
    await own.redis.start();
    await waitUntil(async () => (await request(`${url}/readyz`)).status === 200, 'the coordinator to be ready', 15_000, 200);
    expect((await request(`${url}/api/sweeps`)).status).toBe(200);
    await p.waitForLog('redis reachable again');

    await own.redis.stop('SIGKILL');
    await waitUntil(async () => (await request(`${url}/readyz`)).status === 503, 'the coordinator to see the outage', 5000, 100);
    await terminate(p, CLOSE_MS + 3000, 'coordinator stopped');
  });
});

describe('worker', () => {
  const spec = (seats: string[]) => parseSweepSpec({ name: 'w', players: 3, seats, deals: { count: 1 } });

  test('started with Redis down: the outage is logged once, then at most once per interval; SIGTERM stops it', async () => {
    await own.redis.stop('SIGKILL');
    const p = start('worker', { WORKER_SLOTS: '1', SHUTDOWN_GRACE_MS: '1000' });
    await p.waitForLog('redis unreachable');
    await sleep(3500);
    const summaries = p.logged('redis still unreachable');
    // 3.5 s at one line per second at most.
    expect(summaries.length).toBeLessThanOrEqual(4);
    // …while the connection failed many more times than that: the lines are summaries.
    const errors = Math.max(0, ...summaries.map((l) => Number(l.errors)));
    expect(errors).toBeGreaterThan(summaries.length + 1);
    expect(p.logged('redis unreachable')).toHaveLength(1);
    expect(p.logs.filter((l) => /error/i.test(l.msg) && l.level === 50)).toEqual([]);
    await terminate(p, 1000 + CLOSE_MS + 3000, 'worker stopped');
  });

  test('Redis killed mid-game, then SIGTERM: the worker stops in time; once Redis is back the game is played and counted once', async () => {
    const store = new SweepStore(connect(), COMMON.KEY_PREFIX);
    const queue = gameQueue(store.redis, store.keys, COMMON.QUEUE_NAME).on('error', () => {});
    const feeder = new Feeder({ store, queue, window: 10, intervalMs: 1000, logger: silent });
    const sweepSpec = spec(['mcts(it=1500)', 'mcts(it=1500)', 'rulebased']);
    const meta = await store.ledger.create(new Sweep(sweepSpec));
    const p = start('worker', { WORKER_SLOTS: '1', SHUTDOWN_GRACE_MS: '1500', LOCK_DURATION_MS: '2000', STALLED_INTERVAL_MS: '1000' });
    expect(await feeder.feed(meta.id)).toBe(1);
    await p.waitForLog('game started');
    await own.redis.stop('SIGKILL');
    await p.waitForLog('redis unreachable');
    await terminate(p, 1500 + CLOSE_MS + 3000, 'worker stopped');
    expect(p.logged('game finished')).toEqual([]);

    await own.redis.start();
    // Another worker finds the job stalled (its lock expired with the dead process) and plays it.
    const b = new GameWorker({ redis: connect(), prefix: COMMON.KEY_PREFIX, queueName: COMMON.QUEUE_NAME, slots: 1, lockDuration: 2000, stalledInterval: 1000, logger: silent });
    b.start();
    try {
      await waitUntil(async () => (await store.reads.meta(meta.id))?.status === 'done', 'the sweep to be done', 40_000, 100);
      expect(await store.reads.meta(meta.id)).toMatchObject({ done: 1, failed: 0 });
      expect(await resultCount(store, meta.id)).toBe(1);
      expect(await gamesDone(store)).toBe(1);
      expect(b.counts).toMatchObject({ stored: 1, duplicate: 0, failed: 0 });
      // And it is the game a local play gives.
      const [stored] = await store.reads.results(meta.id, [new Sweep(sweepSpec).game(0).id]);
      expect(stored?.winners).toBeDefined();
    } finally {
      await b.close(100);
      await closeRedis(b.store.redis);
      await queue.close();
      await closeRedis(store.redis);
    }
  }, 90_000);

  test('a game estimated longer than the grace is handed back at SIGTERM, at once, without spending an attempt', async () => {
    const store = new SweepStore(connect(), COMMON.KEY_PREFIX);
    const queue = gameQueue(store.redis, store.keys, COMMON.QUEUE_NAME).on('error', () => {});
    const feeder = new Feeder({ store, queue, window: 10, intervalMs: 1000, logger: silent });
    try {
      // About 10 s of CPU by the estimate, with a 5 s grace.
      const meta = await store.ledger.create(new Sweep(spec(['mcts(it=5000,time=0)', 'mcts(it=5000,time=0)', 'rulebased'])));
      const p = start('worker', { WORKER_SLOTS: '1', SHUTDOWN_GRACE_MS: '5000' });
      expect(await feeder.feed(meta.id)).toBe(1);
      await p.waitForLog('game started');
      const exit = await terminate(p, 5000 + CLOSE_MS + 3000, 'worker stopped');
      expect(exit.code).toBe(0);
      expect(p.logged('game cannot finish within the grace: handing it back now')).toHaveLength(1);
      expect(p.logged('game handed back to the queue')).toHaveLength(1);
      expect(p.logged('worker stopped')[0]).toMatchObject({ handedBackEarly: 1, clean: true, failed: 0, stored: 0 });
      // Handed back well before the grace was up: the early path, not the grace's end.
      expect(exit.ms).toBeLessThan(5000);
      const job = await queue.getJob(jobId(meta.id, 0));
      expect(job?.attemptsMade).toBe(0);
      expect(await job?.getState()).toMatch(/^(waiting|prioritized)$/);
      expect(await store.reads.meta(meta.id)).toMatchObject({ status: 'running', done: 0, failed: 0 });
    } finally {
      await queue.close();
      await closeRedis(store.redis);
    }
  });
});

describe('dashboard', () => {
  test('SIGTERM ends its event streams and stops it; a coordinator that is gone is a 502', async () => {
    const { p: c, url } = await coordinator();
    const created = await request(`${url}/api/sweeps`, { method: 'POST', json: { name: 'd', players: 3, seats: ['random', 'random', 'random'], deals: { count: 1 } } });
    const d = start('dashboard', { COORDINATOR_URL: url, PORT: '0', HOST: '127.0.0.1', SHUTDOWN_CLOSE_MS: String(CLOSE_MS) });
    const port = (await d.waitForLog('dashboard listening')).port as number;
    const base = `http://127.0.0.1:${port}`;
    // An event stream through the dashboard, left open.
    const stream = await fetch(`${base}/api/sweeps/${created.body.id}/events`, { signal: AbortSignal.timeout(20_000) });
    expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = stream.body!.getReader();
    expect((await reader.read()).done).toBe(false);

    await terminate(c, CLOSE_MS + 3000, 'coordinator stopped');
    const gone = await request(`${base}/api/sweeps`);
    expect(gone.status).toBe(502);
    expect(gone.body.error).toContain(url);
    // One access line per request, pino-http's.
    await waitUntil(() => d.logs.some((l) => (l.req as { url?: string })?.url === '/api/sweeps'), 'the access line');
    expect(d.logs.filter((l) => (l.req as { url?: string })?.url === '/api/sweeps')).toEqual([expect.objectContaining({ msg: 'GET /api/sweeps 502', res: { status: 502 } })]);

    await terminate(d, CLOSE_MS + 3000, 'dashboard stopped');
    // The stream ended with the process.
    await waitUntil(async () => (await reader.read().catch(() => ({ done: true }))).done, 'the event stream to end', 5000, 10);
  });
});

describe('wonderlab serve', () => {
  const serve = () => start('serve', { PORT: '0', HOST: '127.0.0.1', WORKER_SLOTS: '1', SHUTDOWN_GRACE_MS: '1000' }, ['serve']);

  test('SIGTERM stops it with Redis up', async () => {
    const p = serve();
    const url = (await p.waitForLog('coordinator listening')).url as string;
    expect((await request(`${url}/readyz`)).status).toBe(200);
    const exit = await terminate(p, 1000 + 3 * CLOSE_MS + 3000, 'lab stopped');
    expect(exit.code).toBe(0);
  });

  test('SIGTERM stops it with Redis down', async () => {
    const p = serve();
    const url = (await p.waitForLog('coordinator listening')).url as string;
    await own.redis.stop('SIGKILL');
    await waitUntil(async () => (await request(`${url}/readyz`)).status === 503, 'the lab to see the outage', 5000, 100);
    expect((await request(`${url}/api/sweeps`)).status).toBe(503);
    const exit = await terminate(p, 1000 + 3 * CLOSE_MS + 3000, 'lab stopped');
    expect(exit.code).toBe(0);
  });
});
