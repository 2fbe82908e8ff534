/**
 * Research-scale benchmark (issue 40; `npm run bench:scale`, needs Redis at REDIS_URL): a lab —
 * coordinator and an in-process worker, as `wonderlab serve` runs them — plays a 1000-cell grid
 * (`mcts` it × c against two random players, one game a cell), then, while rating fits of its 1001
 * configurations run (one per anchor asked for, and the ladder's), measures the latency of the
 * sweep's detail and of /healthz from a client, the CPU the coordinator's process spends on 100
 * live listeners of the finished sweep, and its resident memory with 10 listeners of a running
 * sweep that never read. Figures are printed as `name: value unit`, with the targets.
 *
 * BENCH_SCALE_IT (40) × BENCH_SCALE_C (25) size the grid.
 */
import { connect } from 'node:net';
import { pino } from 'pino';
import { processorLine } from '@wonderlab/shared';
import { deleteKeys, connectRedis, redisAnswers } from '@wonderlab/shared/store';
import { GameWorker } from '@wonderlab/worker';
import { CoordinatorEnvSchema, startCoordinator } from '@wonderlab/coordinator';
import { randomBytes } from 'node:crypto';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const IT = Number(process.env.BENCH_SCALE_IT ?? 40);
const C = Number(process.env.BENCH_SCALE_C ?? 25);
const silent = pino({ level: 'silent' });

const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A request's time and status (0: the connection failed, and why is printed). */
async function timed(url: string): Promise<{ ms: number; status: number }> {
  const started = performance.now();
  try {
    const res = await fetch(url);
    await res.arrayBuffer();
    return { ms: performance.now() - started, status: res.status };
  } catch (err) {
    console.error(`scale: ${url}: ${(err as Error).message} (${String((err as { cause?: unknown }).cause)}) after ${(performance.now() - started).toFixed(0)} ms`);
    return { ms: performance.now() - started, status: 0 };
  }
}

async function main(): Promise<void> {
  console.log(processorLine());
  if (!(await redisAnswers(REDIS_URL))) throw new Error(`no Redis at ${REDIS_URL}`);
  const prefix = `wlbench-scale-${randomBytes(4).toString('hex')}`;
  const config = CoordinatorEnvSchema.parse({ REDIS_URL, KEY_PREFIX: prefix, QUEUE_NAME: `${prefix}-q`, PORT: '0', HOST: '127.0.0.1', LADDER_INTERVAL_MS: '1000' });
  const coordinator = await startCoordinator(config, silent);
  const workerRedis = connectRedis(REDIS_URL);
  const worker = new GameWorker({ redis: workerRedis, prefix, queueName: `${prefix}-q`, slots: 2, lockDuration: 30_000, stalledInterval: 15_000, logger: silent });
  worker.start();
  const base = coordinator.url;
  try {
    const its = Array.from({ length: IT }, (_, i) => i + 1);
    const cs = Array.from({ length: C }, (_, i) => Number((0.1 * (i + 1)).toFixed(1)));
    const spec = { name: 'scale', players: 3, seats: [{ agent: 'mcts', params: { it: its, c: cs } }, 'random', 'random'], deals: { count: 1 }, keepRecords: false };
    const created = (await (await fetch(`${base}/api/sweeps`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(spec) })).json()) as { id: string; cells: number; games: number };
    const id = created.id;
    const started = Date.now();
    for (;;) {
      const meta = await coordinator.store.reads.meta(id);
      if (meta?.status === 'done') break;
      await sleep(500);
    }
    console.log(`scale_sweep: ${created.cells} cells, ${created.games} games played in ${((Date.now() - started) / 1000).toFixed(0)} s`);

    // The first detail computes the sweep's statistics (on the statistics thread, waited for: a
    // finished sweep's are final); it is reported apart from the steady state below.
    const first = await timed(`${base}/api/sweeps/${id}`);
    console.log(`scale_detail_first: ${first.ms.toFixed(0)} ms (statistics of ${created.cells} cells computed on the statistics thread)`);

    // Fits kept busy: each anchor is a question of its own, fitted on the statistics thread.
    const anchors = its.slice(0, 12).map((it) => `mcts(it=${it},c=0.1)`);
    let asking = true;
    const ratings = (async () => {
      for (let i = 0; asking; i++) await timed(`${base}/api/sweeps/${id}/ratings?anchor=${encodeURIComponent(anchors[i % anchors.length])}`);
    })();
    const detail: number[] = [];
    const health: number[] = [];
    const ladder: number[] = [];
    const statuses = new Set<number>();
    for (let i = 0; i < 100; i++) {
      const [d, h] = await Promise.all([timed(`${base}/api/sweeps/${id}`), timed(`${base}/healthz`)]);
      detail.push(d.ms);
      health.push(h.ms);
      statuses.add(d.status);
      if (i % 10 === 0) ladder.push((await timed(`${base}/api/ratings`)).ms);
    }
    asking = false;
    await ratings;
    console.log(`scale_detail_latency: p50 ${quantile(detail, 0.5).toFixed(0)} ms, p99 ${quantile(detail, 0.99).toFixed(0)} ms (target p99 < 200; statuses ${[...statuses].join(',')})`);
    console.log(`scale_healthz_latency: p50 ${quantile(health, 0.5).toFixed(1)} ms, p99 ${quantile(health, 0.99).toFixed(1)} ms (target p99 < 50)`);
    console.log(`scale_ladder_latency: p50 ${quantile(ladder, 0.5).toFixed(0)} ms, max ${Math.max(...ladder).toFixed(0)} ms`);

    // 100 live listeners of the finished sweep: this process's CPU over 10 s, against 10 s idle.
    const cpu = async () => {
      const before = process.cpuUsage();
      await sleep(10_000);
      const used = process.cpuUsage(before);
      return (used.user + used.system) / 1e6 / 10;
    };
    const idle = await cpu();
    const controllers = Array.from({ length: 100 }, () => new AbortController());
    await Promise.all(controllers.map(async (c) => void (await fetch(`${base}/api/sweeps/${id}/events`, { signal: c.signal })).body!.getReader().read()));
    const listening = await cpu();
    for (const c of controllers) c.abort();
    console.log(`scale_live_listeners_cpu: ${(100 * (listening - idle)).toFixed(1)} % of a core for 100 listeners of a finished ${created.cells}-cell sweep (idle ${(100 * idle).toFixed(1)} %; target < 5)`);

    // 10 listeners of a running sweep that never read: the process's resident memory after 30 s.
    const running = (await (await fetch(`${base}/api/sweeps`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...spec, name: 'scale-running', deals: { count: 20 } }) })).json()) as { id: string };
    const sockets = Array.from({ length: 10 }, () => {
      const s = connect(new URL(base).port ? Number(new URL(base).port) : 80, '127.0.0.1');
      s.write(`GET /api/sweeps/${running.id}/events HTTP/1.1\r\nHost: bench\r\n\r\n`);
      s.pause();
      return s;
    });
    const rssBefore = process.memoryUsage().rss;
    await sleep(30_000);
    const rssAfter = process.memoryUsage().rss;
    for (const s of sockets) s.destroy();
    console.log(`scale_rss_non_reading_listeners: ${(rssAfter / 2 ** 20).toFixed(0)} MB after 30 s of 10 listeners that never read (${(rssBefore / 2 ** 20).toFixed(0)} MB before; coordinator and worker in one process; target < 500)`);
    await fetch(`${base}/api/sweeps/${running.id}/cancel`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  } finally {
    await worker.close(1000);
    await coordinator.close();
    await workerRedis.quit();
    const redis = connectRedis(REDIS_URL);
    await deleteKeys(redis, prefix);
    await redis.quit();
  }
}

await main();
