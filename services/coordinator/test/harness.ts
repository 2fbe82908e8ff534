/**
 * A real lab for tests: the coordinator on a free port and in-process workers, on the shared
 * Redis, under a key prefix and queue name of their own (deleted on close).
 */
import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { pino } from 'pino';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { SweepStore, connectRedis, deleteKeys, redisAnswers } from '@wonderlab/shared/store';
import { GameWorker } from '@wonderlab/worker';
import { dashboardRouter } from '@wonderlab/dashboard';
import { CoordinatorEnvSchema, startCoordinator, type RunningCoordinator } from '@wonderlab/coordinator';

export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
export const silent = pino({ level: 'silent' });

export async function requireRedis(): Promise<void> {
  if (!(await redisAnswers(REDIS_URL))) {
    throw new Error(`these tests need a Redis at ${REDIS_URL}: start redis-server (bash .ci/run starts one) or set REDIS_URL`);
  }
}

/** A key prefix and queue name no other test uses. */
export function uniqueNames(tag: string): { prefix: string; queue: string } {
  const id = `${tag}-${process.pid}-${randomBytes(4).toString('hex')}`;
  return { prefix: `wltest-${id}`, queue: `q-${id}` };
}

export interface LabOptions {
  /** In-process workers and their slots (0 workers: none). */
  workers?: number;
  slots?: number;
  apiToken?: string;
  maxGames?: number;
  feedWindow?: number;
  lockDuration?: number;
  stalledInterval?: number;
  /** More coordinator settings (limits), as the environment gives them. */
  env?: Record<string, string>;
  /** The coordinator's logger (silent by default). */
  logger?: Logger;
}

export interface TestLab {
  url: string;
  prefix: string;
  queue: string;
  coordinator: RunningCoordinator;
  store: SweepStore;
  workers: GameWorker[];
  /** A plain connection for checks. */
  redis: Redis;
  addWorker(slots?: number): GameWorker;
  close(): Promise<void>;
}

export async function startLab(o: LabOptions = {}): Promise<TestLab> {
  await requireRedis();
  const { prefix, queue } = uniqueNames('lab');
  const config = CoordinatorEnvSchema.parse({
    REDIS_URL,
    KEY_PREFIX: prefix,
    QUEUE_NAME: queue,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    FEED_INTERVAL_MS: '50',
    EVENTS_INTERVAL_MS: '100',
    ...(o.apiToken ? { API_TOKEN: o.apiToken } : {}),
    ...(o.maxGames ? { MAX_GAMES: String(o.maxGames) } : {}),
    ...(o.feedWindow ? { FEED_WINDOW: String(o.feedWindow) } : {}),
    ...o.env,
  });
  const coordinator = await startCoordinator(config, o.logger ?? silent, { mount: (app) => app.use(dashboardRouter()) });
  const redis = connectRedis(REDIS_URL);
  const workerConnections: Redis[] = [];
  const workers: GameWorker[] = [];
  const addWorker = (slots = o.slots ?? 2) => {
    const connection = connectRedis(REDIS_URL);
    workerConnections.push(connection);
    const worker = new GameWorker({
      redis: connection,
      prefix,
      queueName: queue,
      slots,
      lockDuration: o.lockDuration ?? 30_000,
      stalledInterval: o.stalledInterval ?? 15_000,
      logger: silent,
    });
    worker.start();
    workers.push(worker);
    return worker;
  };
  for (let i = 0; i < (o.workers ?? 1); i++) addWorker();
  return {
    url: coordinator.url,
    prefix,
    queue,
    coordinator,
    store: coordinator.store,
    workers,
    redis,
    addWorker,
    async close() {
      await Promise.all(workers.map((w) => w.close(1000)));
      await coordinator.close();
      await Promise.all(workerConnections.map((c) => c.quit()));
      await deleteKeys(redis, prefix);
      await redis.quit();
    },
  };
}

export async function waitFor<T>(probe: () => Promise<T | undefined | false>, what: string, timeoutMs = 30_000, everyMs = 50): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/**
 * A JSON request: status and parsed body. A POST (PUT, PATCH, DELETE) says Content-Type:
 * application/json unless `headers` says otherwise, as the API asks of every change.
 */
export async function api(base: string, path: string, init: RequestInit & { json?: unknown; token?: string } = {}): Promise<{ status: number; body: any; headers: Headers }> {
  const headers = new Headers(init.headers);
  const changes = !['GET', 'HEAD'].includes((init.method ?? 'GET').toUpperCase());
  if (init.json !== undefined || (changes && !headers.has('content-type'))) headers.set('content-type', 'application/json');
  if (init.token) headers.set('authorization', `Bearer ${init.token}`);
  const send = () => fetch(base + path, { ...init, headers, body: init.json !== undefined ? JSON.stringify(init.json) : init.body });
  // A kept-alive connection the server closed as idle just as it was reused: a GET is sent again
  // (changes are not: a test must see what the server did with them).
  const res = await send().catch((err: Error & { cause?: { code?: string } }) => {
    if (changes || err.cause?.code !== 'ECONNRESET') throw err;
    return send();
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: res.status, body, headers: res.headers };
}

/**
 * A request with exactly these headers, as another site's form or a misdirected client sends it
 * (fetch would not let a test set Host, and would add a Content-Type of its own). Node adds only
 * Content-Length for a body, and Host unless `noHost`.
 */
export function rawRequest(base: string, path: string, o: { method?: string; headers?: Record<string, string>; body?: string; noHost?: boolean } = {}): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(base + path, { method: o.method ?? 'GET', headers: o.headers ?? {}, setHost: !o.noHost }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.end(o.body);
  });
}

/** Waits until the sweep has no unfinished game; returns its detail. */
export async function waitForSweep(lab: TestLab, id: string, timeoutMs = 60_000): Promise<any> {
  return waitFor(
    async () => {
      const { body } = await api(lab.url, `/api/sweeps/${id}`);
      return body.status === 'done' || body.status === 'cancelled' ? body : undefined;
    },
    `sweep ${id} to finish`,
    timeoutMs,
    100,
  );
}

/** A tiny RFC 4180 reader (quoted cells may hold commas, quotes and newlines). */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(cell);
      cell = '';
    } else if (ch === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else cell += ch;
  }
  if (cell !== '' || row.length) {
    row.push(cell);
    rows.push(row);
  }
  return rows;
}
