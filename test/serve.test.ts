/**
 * `wonderlab serve` (what `npm start` runs) as a process, on redis-servers of the test's own (never
 * the machine's Redis):
 * - `--private-redis` starts a redis-server of its own even when a Redis answers at REDIS_URL, so
 *   the lab writes nothing there, and stops it on SIGTERM;
 * - a PORT in use is one line naming PORT and exit 1, and the redis-server it had just started is
 *   stopped with it (it used to print EADDRINUSE's stack and leave that server running).
 *
 * Needs the build (npx tsc -b) and redis-server on PATH.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, test } from 'vitest';
import { closeRedis, connectRedis, redisAnswers } from '@wonderlab/shared/store';
import { ownRedis } from './support/own-redis.js';
import { ENTRY, exitOf, freePort, request, startProcess, waitUntil, type LabProcess } from './support/processes.js';

const dataDir = mkdtempSync(join(tmpdir(), 'wl-serve-data-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const started: LabProcess[] = [];
/** The redis-servers a lab said it started: shut down after each test, whatever the lab did. */
const startedRedis: string[] = [];
const own = ownRedis(async () => {
  for (const p of started.splice(0)) {
    if (p.proc.exitCode === null && p.proc.signalCode === null) p.proc.kill('SIGKILL');
    await p.exit;
  }
  for (const url of startedRedis.splice(0)) {
    if (!(await redisAnswers(url, 300))) continue;
    const c = connectRedis(url).on('error', () => {});
    await c.call('SHUTDOWN', 'NOSAVE').catch(() => {});
    c.disconnect();
  }
});

function serve(args: string[], env: Record<string, string>): LabProcess {
  const p = startProcess('serve', [ENTRY.serve, 'serve', ...args], { PORT: '0', HOST: '127.0.0.1', WORKER_SLOTS: '1', SHUTDOWN_GRACE_MS: '1000', SHUTDOWN_CLOSE_MS: '2000', DATA_DIR: dataDir, ...env });
  started.push(p);
  return p;
}

/** The redis-server the lab logged it started, as a URL (and kept for the clean-up). */
async function startedServer(p: LabProcess, how: RegExp): Promise<string> {
  const line = await waitUntil(() => p.logs.find((l) => how.test(l.msg)), 'the lab to start a redis-server', 20_000);
  const port = /on port (\d+)/.exec(line.msg)![1];
  const url = `redis://127.0.0.1:${port}`;
  startedRedis.push(url);
  return url;
}

describe('wonderlab serve --private-redis', () => {
  test('with a Redis answering at REDIS_URL, the lab runs on a redis-server of its own, writes nothing there, and stops it on SIGTERM', async () => {
    const shared = own.redis.url;
    const p = serve(['--private-redis'], { REDIS_URL: shared });
    const privateUrl = await startedServer(p, /^--private-redis: started .* on port \d+/);
    expect(privateUrl).not.toBe(shared);
    const url = (await p.waitForLog('coordinator listening')).url as string;
    const created = await request(`${url}/api/sweeps`, { method: 'POST', json: { name: 'private', players: 3, seats: ['random', 'random', 'random'], deals: { count: 2 } } });
    expect(created.status).toBe(201);
    await waitUntil(async () => (await request(`${url}/api/sweeps/${created.body.id}`)).body.status === 'done', 'the sweep to finish', 30_000, 100);

    const c = connectRedis(shared);
    try {
      expect(await c.dbsize()).toBe(0);
    } finally {
      await closeRedis(c);
    }
    p.proc.kill('SIGTERM');
    expect((await exitOf(p, 15_000)).code).toBe(0);
    expect(await redisAnswers(privateUrl, 500)).toBe(false);
  });
});

describe('wonderlab serve on a port in use', () => {
  let holder: Server | undefined;
  afterEach(() => new Promise<void>((resolve) => (holder ? holder.close(() => resolve()) : resolve())));

  test('one line naming PORT, exit 1, and the redis-server it had started is stopped', async () => {
    holder = createServer();
    const port = await new Promise<number>((resolve) => holder!.listen(0, '127.0.0.1', () => resolve((holder!.address() as { port: number }).port)));
    // Nothing answers at REDIS_URL: the lab starts a redis-server before it tries the port.
    const p = serve([], { PORT: String(port), REDIS_URL: `redis://127.0.0.1:${await freePort()}` });
    const redisUrl = await startedServer(p, /^no Redis at .*: started .* on port \d+/);
    const exit = await exitOf(p, 20_000);
    expect(exit.code).toBe(1);
    expect(p.other).toEqual([`wonderlab serve: port ${port} on 127.0.0.1 is in use (PORT): stop what listens there, or set PORT to a free port`]);
    expect(await redisAnswers(redisUrl, 500)).toBe(false);
  });
});
