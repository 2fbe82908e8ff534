/**
 * The chaos suite (`npm run chaos`): a real lab — a private redis-server with an append-only file,
 * the coordinator and worker processes — plays a sweep while workers and the coordinator are
 * SIGKILLed and Redis is restarted (once shut down cleanly, once SIGKILLed), then checks that every
 * game was counted exactly once and equals the same game played here. Then a second sweep runs
 * into Redis's maxmemory (set low mid-sweep with CONFIG SET): new sweeps must get a 503, the sweep
 * must show degraded, and once the limit is lifted it must finish with every game once. Then a fuzz run of bad and
 * huge requests on every route checks that none gets a 5xx and that the coordinator's memory stays
 * bounded, and a second one does the same on the dashboard's own process (pages, /vendor, /static,
 * presets, and what it passes on to the API). Then the doors added since (doors.ts), and an SPSA
 * tune through kills of the coordinator, a worker and Redis (tune.ts). Prints the figures; exits
 * non-zero when a check fails.
 *
 * Settings (environment): CHAOS_GAMES (deals of the sweep, 3 seat rotations each; default 100),
 * CHAOS_WORKERS (2), CHAOS_WORKER_KILLS (3), CHAOS_COORDINATOR_KILLS (2), CHAOS_FUZZ (requests,
 * 2000), CHAOS_DASHBOARD_FUZZ (requests to the dashboard, 1000), CHAOS_SEED (1), CHAOS_RSS_LIMIT_MB (300). Needs the build (npm run build) and
 * redis-server on PATH.
 */
import { Rng, Sweep, parseSweepSpec, playGame, type GameSummary } from '@wonderlab/shared';
import { SweepStore, closeRedis, connectRedis, redisMemory, type SweepMeta } from '@wonderlab/shared/store';
import { ENTRY, privateRedis, request, sleep, startProcess, waitUntil, type LabProcess, type PrivateRedis } from '../support/processes.js';
import { playFlood, playWhileThinking, trainingUnderLoad, type DoorsContext } from './doors.js';
import { fuzzDashboardRequest, fuzzRequest, type FuzzRequest } from './fuzz.js';
import { tuneUnderFaults } from './tune.js';
import { outsideAgentsUnderFaults } from './agents.js';

const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const DEALS = env('CHAOS_GAMES', 100);
const WORKERS = env('CHAOS_WORKERS', 2);
const WORKER_KILLS = env('CHAOS_WORKER_KILLS', 3);
const COORDINATOR_KILLS = env('CHAOS_COORDINATOR_KILLS', 2);
const FUZZ = env('CHAOS_FUZZ', 2000);
const DASHBOARD_FUZZ = env('CHAOS_DASHBOARD_FUZZ', 1000);
const SEED = env('CHAOS_SEED', 1);
const RSS_LIMIT = env('CHAOS_RSS_LIMIT_MB', 300) * 1024 * 1024;
/** Only one phase, for a quick run while working on it: the new doors (issue 57; CHAOS_ONLY=doors), or a tune (issue 61; CHAOS_ONLY=tune), or outside agents (issue 62; CHAOS_ONLY=agents). */
const ONLY = process.env.CHAOS_ONLY;

const TOKEN = 'chaos-token';
const PREFIX = 'chaos';
const QUEUE = 'games';
const LIMITS = { bodyBytes: 256 * 1024, depth: 16 };
const SPEC = { name: 'chaos', players: 3, seats: ['mcts(it=40)', 'rulebased', 'random'], deals: { firstSeed: SEED, count: DEALS }, seating: 'rotate' };

const log = (msg: string) => console.log(`chaos: ${msg}`);
const failures: string[] = [];
const check = (ok: boolean, what: string) => {
  if (!ok) failures.push(what);
  log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
};

const common = { REDIS_URL: '', KEY_PREFIX: PREFIX, QUEUE_NAME: QUEUE, LOG_LEVEL: 'info', OUTAGE_LOG_INTERVAL_MS: '5000', SHUTDOWN_CLOSE_MS: '2000' };
let redis: PrivateRedis;
const processes = new Set<LabProcess>();

function spawn(name: 'coordinator' | 'worker' | 'dashboard', extra: Record<string, string>): LabProcess {
  const p = startProcess(name, [ENTRY[name]], { ...common, REDIS_URL: redis.url, ...extra });
  processes.add(p);
  void p.exit.then(() => processes.delete(p));
  return p;
}

async function coordinator(extra: Record<string, string> = {}): Promise<{ p: LabProcess; url: string }> {
  const p = spawn('coordinator', { PORT: '0', HOST: '127.0.0.1', API_TOKEN: TOKEN, FEED_WINDOW: '30', FEED_INTERVAL_MS: '100', MAX_BODY_BYTES: String(LIMITS.bodyBytes), MAX_JSON_DEPTH: String(LIMITS.depth), ...extra });
  return { p, url: (await p.waitForLog('coordinator listening')).url as string };
}

const worker = () => spawn('worker', { WORKER_SLOTS: '1', LOCK_DURATION_MS: '2000', STALLED_INTERVAL_MS: '1000', SHUTDOWN_GRACE_MS: '1000' });

async function kill(p: LabProcess): Promise<void> {
  p.proc.kill('SIGKILL');
  await p.exit;
}

/** The sweep's counters, read directly (undefined while Redis is away). */
/** How many games of a sweep are stored: its results hash, read directly (the store has no reader for it). */
function storedResults(store: SweepStore, id: string): Promise<number> {
  return store.redis.hlen(store.keys.sweep(id).results);
}

async function metaOf(store: SweepStore, id: string): Promise<SweepMeta | undefined> {
  return store.reads.meta(id).catch(() => undefined);
}

async function chaos(): Promise<{ coordinatorUrl: string; coordinatorProcess: LabProcess; sweepId: string; sweep: Sweep }> {
  const store = new SweepStore(connectRedis(redis.url).on('error', () => {}), PREFIX);
  let { p: coord, url } = await coordinator();
  const workers: LabProcess[] = Array.from({ length: WORKERS }, worker);
  const created = await request(`${url}/api/sweeps`, { method: 'POST', json: SPEC, headers: { authorization: `Bearer ${TOKEN}` } });
  if (created.status !== 201) throw new Error(`the sweep was not created: ${created.status} ${JSON.stringify(created.body)}`);
  const id = created.body.id as string;
  const sweep = new Sweep(parseSweepSpec(SPEC));
  const batch = (await metaOf(store, id))?.batch ?? 1;
  log(`sweep ${id}: ${sweep.size} games of ${SPEC.seats.join(' v ')} in queue jobs of ${batch} games, ${WORKERS} workers of one slot`);

  // Events at fractions of the sweep, spread over its length: worker kills, coordinator kills, and
  // two Redis restarts (one clean shutdown, one SIGKILL).
  type Event = { at: number; name: string; run: () => Promise<void> };
  const events: Event[] = [];
  const spread = (n: number, from: number, to: number) => Array.from({ length: n }, (_, i) => from + ((to - from) * (i + 1)) / (n + 1));
  for (const at of spread(WORKER_KILLS, 0.05, 0.9)) {
    events.push({
      at,
      name: 'SIGKILL a worker',
      run: async () => {
        const victim = workers.splice(Math.floor(Math.random() * workers.length), 1)[0];
        await kill(victim);
        workers.push(worker());
      },
    });
  }
  for (const at of spread(COORDINATOR_KILLS, 0.1, 0.8)) {
    events.push({
      at,
      name: 'SIGKILL the coordinator',
      run: async () => {
        await kill(coord);
        ({ p: coord, url } = await coordinator());
      },
    });
  }
  events.push({ at: 0.3, name: 'restart Redis (clean shutdown)', run: async () => (await redis.stop('SIGTERM'), await sleep(1500), await redis.start()) });
  events.push({ at: 0.6, name: 'restart Redis (SIGKILL)', run: async () => (await redis.stop('SIGKILL'), await sleep(1500), await redis.start()) });
  events.sort((a, b) => a.at - b.at);

  const counts = { workerKills: 0, coordinatorKills: 0, redisRestarts: 0 };
  const started = Date.now();
  for (const event of events) {
    await waitUntil(async () => ((await metaOf(store, id))?.done ?? 0) >= Math.floor(event.at * sweep.size), `${Math.floor(event.at * sweep.size)} games done`, 300_000, 100);
    const done = (await metaOf(store, id))?.done;
    await event.run();
    if (event.name.includes('worker')) counts.workerKills++;
    else if (event.name.includes('coordinator')) counts.coordinatorKills++;
    else counts.redisRestarts++;
    log(`${event.name} at ${done} games done`);
  }
  await waitUntil(async () => (await metaOf(store, id))?.status === 'done', 'the sweep to finish', 600_000, 200);
  const seconds = (Date.now() - started) / 1000;
  log(`sweep done in ${seconds.toFixed(1)} s: ${counts.workerKills} worker kills, ${counts.coordinatorKills} coordinator kills, ${counts.redisRestarts} Redis restarts`);

  // Exactly once: every game has one result, every counter agrees, and each result is the game
  // played here from the same plan.
  const meta = (await store.reads.meta(id))!;
  const ids = Array.from({ length: sweep.size }, (_, k) => sweep.game(k).id);
  const stored: (GameSummary | undefined)[] = [];
  for (let i = 0; i < ids.length; i += 500) stored.push(...(await store.reads.results(id, ids.slice(i, i + 500))));
  const agg = await store.reads.aggregateTable(id);
  const lost = stored.filter((s) => !s).length;
  const resultCount = await storedResults(store, id);
  // The lab-wide done counter, read as GET /metrics does.
  const duplicated = Math.max(meta.done, Number(agg['c0|n'] ?? 0), (await store.reads.gameCounters()).done) - resultCount;
  const strip = (g: GameSummary) => JSON.stringify({ ...g, record: undefined, players: g.players.map((p) => ({ ...p, decisionMs: 0 })) });
  let mismatched = 0;
  stored.forEach((s, k) => {
    if (s && strip(s) !== strip(playGame(sweep.game(k)))) mismatched++;
  });
  log(`games: ${sweep.size}, stored ${resultCount}, done counter ${meta.done}, aggregate n ${agg['c0|n']}, failed ${meta.failed}`);
  check(batch > 1, `the games went to the queue in batches (${batch} a job), so kills cut batches short`);
  check(lost === 0, `0 games lost (${lost})`);
  check(duplicated === 0 && meta.done === sweep.size && Number(agg['c0|n']) === sweep.size, `0 games counted twice (${duplicated})`);
  check(mismatched === 0, `0 games differ from a local play (${mismatched})`);
  check(meta.failed === 0, `0 games failed (${meta.failed})`);
  check((await store.reads.outstanding(id)).length === 0, 'no game left outstanding');
  // Provenance through the kills: each stored game counted for one worker, and its CPU time kept.
  const byWorker = await store.reads.workers(id);
  const workerGames = byWorker.reduce((s, w) => s + w.games, 0);
  log(`workers that stored games: ${byWorker.map((w) => `pid ${w.pid} ${w.games}`).join(', ')}; CPU ${((meta.cpuMs ?? 0) / 1000).toFixed(1)} s`);
  check(workerGames === sweep.size, `the workers' game counts add up to the games (${workerGames})`);
  check((meta.cpuMs ?? 0) > 0, 'the CPU time of the games is recorded');
  await closeRedis(store.redis);
  for (const w of workers) await kill(w);
  return { coordinatorUrl: url, coordinatorProcess: coord, sweepId: id, sweep };
}

/**
 * Redis out of memory mid-sweep: maxmemory set under what Redis uses, held for a few seconds, then
 * lifted. Checks the 503 on submit, the degraded sweep and readyz, that no result is stored while
 * Redis is over its limit, and that the sweep then finishes with every game once.
 */
async function outOfMemory(url: string): Promise<void> {
  const store = new SweepStore(connectRedis(redis.url).on('error', () => {}), PREFIX);
  const workers = Array.from({ length: WORKERS }, worker);
  const auth = { authorization: `Bearer ${TOKEN}` };
  const spec = { ...SPEC, name: 'chaos-oom', deals: { firstSeed: SEED + 1000, count: Math.max(10, Math.round(DEALS / 2)) } };
  const created = await request(`${url}/api/sweeps`, { method: 'POST', json: spec, headers: auth });
  if (created.status !== 201) throw new Error(`the out-of-memory sweep was not created: ${created.status} ${JSON.stringify(created.body)}`);
  const id = created.body.id as string;
  const total = created.body.games as number;
  await waitUntil(async () => ((await metaOf(store, id))?.done ?? 0) >= Math.floor(total / 4), `${Math.floor(total / 4)} games done`, 300_000, 100);
  const { used } = await redisMemory(store.redis);
  const max = Math.floor(used * 0.9);
  await store.redis.config('SET', 'maxmemory', String(max));
  const doneAtLimit = (await store.reads.meta(id))!.done;
  log(`maxmemory set to ${max} bytes (${(used / 1024 / 1024).toFixed(1)} MB used) at ${doneAtLimit} of ${total} games done`);

  const refused = await request(`${url}/api/sweeps`, { method: 'POST', json: spec, headers: auth });
  check(refused.status === 503 && /out of memory/.test(String(refused.body.error)), `a new sweep gets a 503 saying Redis is out of memory (${refused.status}: ${JSON.stringify(refused.body.error)})`);
  const degraded = await waitUntil(async () => (await request(`${url}/api/sweeps/${id}`)).body.degraded as string | null, 'the sweep to show degraded', 10_000, 200).catch(() => null);
  check(typeof degraded === 'string', `the sweep shows degraded (${degraded})`);
  const ready = await waitUntil(async () => {
    const r = await request(`${url}/readyz`);
    return r.status !== 200 || r.body.degraded ? r : undefined;
  }, 'readyz to say degraded', 10_000, 200).catch(() => request(`${url}/readyz`));
  check(ready.status === 200 && Array.isArray(ready.body.degraded), `readyz is ready but degraded (${ready.status} ${JSON.stringify(ready.body)})`);
  check(/^wonderlab_redis_memory_full 1$/m.test(String((await request(`${url}/metrics`)).body)), 'the metric wonderlab_redis_memory_full is 1');
  const stored = await storedResults(store, id);
  await sleep(3000);
  const over = (await redisMemory(store.redis)).used > max;
  const storedAfter = await storedResults(store, id);
  // Only meaningful while Redis stayed over its limit (jobs leaving the queue free memory).
  check(!over || storedAfter === stored, `no result stored while Redis is over maxmemory (${stored} → ${storedAfter}, still over: ${over})`);

  await store.redis.config('SET', 'maxmemory', '0');
  const started = Date.now();
  await waitUntil(async () => (await metaOf(store, id))?.status === 'done', 'the out-of-memory sweep to finish', 600_000, 200);
  const meta = (await store.reads.meta(id))!;
  const agg = await store.reads.aggregateTable(id);
  const results = await storedResults(store, id);
  log(`limit lifted: the sweep finished ${((Date.now() - started) / 1000).toFixed(1)} s later: ${results} stored of ${total}, done ${meta.done}, aggregate n ${agg['c0|n']}, failed ${meta.failed}`);
  check(results === total && meta.done === total && Number(agg['c0|n']) === total, `out of memory: every game stored once (${results} results, done ${meta.done})`);
  check(meta.failed === 0, `out of memory: 0 games failed (${meta.failed})`);
  check((await store.reads.outstanding(id)).length === 0, 'out of memory: no game left outstanding');
  const readyAgain = await waitUntil(async () => {
    const r = await request(`${url}/readyz`);
    return r.status === 200 && !r.body.degraded ? r : undefined;
  }, 'readyz without degraded', 10_000, 200).catch(() => undefined);
  check(readyAgain !== undefined, 'readyz is no longer degraded');
  await closeRedis(store.redis);
  for (const w of workers) await kill(w);
}

/** The dashboard's own process in front of the coordinator at `coordinatorUrl`. */
async function dashboard(coordinatorUrl: string): Promise<{ p: LabProcess; url: string }> {
  const p = spawn('dashboard', { PORT: '0', HOST: '127.0.0.1', COORDINATOR_URL: coordinatorUrl });
  return { p, url: `http://127.0.0.1:${(await p.waitForLog('dashboard listening')).port as number}` };
}

/**
 * `count` requests from `make` (seeded by `seed`) at `url`, 4 at a time; checks that none gets a
 * 5xx or no answer, that the process's peak RSS stays under the limit, and that `healthPath` still
 * answers 200 after.
 */
async function fuzz(what: string, url: string, proc: LabProcess, make: (rng: Rng) => FuzzRequest, count: number, seed: string, healthPath: string): Promise<void> {
  const rng = new Rng(seed);
  const byKind = new Map<string, { n: number; statuses: Map<number | string, number>; maxMs: number }>();
  const refusalMs: number[] = [];
  /** The slowest refusals, to see what they were. */
  const slowest: { ms: number; what: string }[] = [];
  let fiveHundreds = 0;
  let networkErrors = 0;
  let peakRss = proc.peakRss() ?? 0;
  const examples: string[] = [];
  const one = async (r: FuzzRequest) => {
    const started = performance.now();
    let status: number | string;
    try {
      const res = await fetch(url + r.path, { method: r.method, headers: r.headers, body: r.body, signal: AbortSignal.timeout(15_000) });
      await res.arrayBuffer();
      status = res.status;
    } catch (err) {
      status = `network: ${(err as Error).cause ?? (err as Error).message}`;
    }
    const ms = performance.now() - started;
    const k = byKind.get(r.kind) ?? { n: 0, statuses: new Map(), maxMs: 0 };
    byKind.set(r.kind, k);
    k.n++;
    k.statuses.set(status, (k.statuses.get(status) ?? 0) + 1);
    k.maxMs = Math.max(k.maxMs, ms);
    if (typeof status === 'number' && status >= 400 && status < 500) {
      refusalMs.push(ms);
      slowest.push({ ms, what: `${status} ${r.method} ${r.path.slice(0, 80)} (${r.kind})` });
      slowest.sort((a, b) => b.ms - a.ms).splice(5);
    }
    if (typeof status === 'number' && status >= 500) fiveHundreds++;
    if (typeof status === 'string') networkErrors++;
    if ((typeof status === 'string' || status >= 500) && examples.length < 5) examples.push(`${status}: ${r.method} ${r.path.slice(0, 120)} (${r.kind})`);
  };
  const started = Date.now();
  const CONCURRENCY = 4;
  let sent = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (sent < count) {
        sent++;
        await one(make(rng));
        if (sent % 200 === 0) peakRss = Math.max(peakRss, proc.peakRss() ?? 0);
      }
    }),
  );
  peakRss = Math.max(peakRss, proc.peakRss() ?? 0);
  const seconds = (Date.now() - started) / 1000;
  refusalMs.sort((a, b) => a - b);
  const quantile = (q: number) => (refusalMs.length ? refusalMs[Math.min(refusalMs.length - 1, Math.floor(q * refusalMs.length))] : 0);
  log(`fuzz of the ${what}: ${count} requests in ${seconds.toFixed(1)} s, ${CONCURRENCY} at a time`);
  for (const [kind, k] of [...byKind].sort((a, b) => b[1].n - a[1].n)) {
    log(`  ${kind}: ${k.n} (${[...k.statuses].map(([s, n]) => `${s}×${n}`).join(', ')}), slowest ${k.maxMs.toFixed(0)} ms`);
  }
  log(`refusals (4xx): ${refusalMs.length}, median ${quantile(0.5).toFixed(1)} ms, p99 ${quantile(0.99).toFixed(1)} ms, max ${quantile(1).toFixed(1)} ms`);
  for (const x of slowest) log(`  slow refusal: ${x.ms.toFixed(0)} ms ${x.what}`);
  log(`${what} peak RSS: ${(peakRss / 1024 / 1024).toFixed(0)} MB (limit ${RSS_LIMIT / 1024 / 1024} MB)`);
  for (const e of examples) log(`  e.g. ${e}`);
  check(fiveHundreds === 0, `${what}: 0 responses 5xx (${fiveHundreds})`);
  check(networkErrors === 0, `${what}: 0 requests without an answer (${networkErrors})`);
  check(peakRss > 0 && peakRss < RSS_LIMIT, `${what} peak RSS under ${RSS_LIMIT / 1024 / 1024} MB`);
  const ready = await request(`${url}${healthPath}`);
  check(ready.status === 200, `the ${what} still answers ${healthPath} after the fuzz`);
}

async function main(): Promise<number> {
  const started = Date.now();
  redis = await privateRedis();
  const doors: DoorsContext = { coordinator, worker, kill, log, check, token: TOKEN };
  try {
    if (ONLY === 'doors') {
      await newDoors(doors);
      return finish(started);
    }
    if (ONLY === 'tune') {
      await tuneUnderFaults(doors, redis, PREFIX);
      return finish(started);
    }
    if (ONLY === 'agents') {
      await outsideAgentsUnderFaults(doors, redis, PREFIX);
      return finish(started);
    }
    const { coordinatorUrl, coordinatorProcess, sweepId, sweep } = await chaos();
    await outOfMemory(coordinatorUrl);
    const target = { sweepId, gameId: sweep.game(0).id, token: TOKEN, limits: LIMITS };
    await fuzz('coordinator', coordinatorUrl, coordinatorProcess, (rng) => fuzzRequest(rng, target), FUZZ, `fuzz-${SEED}`, '/readyz');
    const { p: dashboardProcess, url: dashboardUrl } = await dashboard(coordinatorUrl);
    await fuzz('dashboard', dashboardUrl, dashboardProcess, (rng) => fuzzDashboardRequest(rng, target), DASHBOARD_FUZZ, `fuzz-dashboard-${SEED}`, '/dashboard/healthz');
    await newDoors(doors);
    await tuneUnderFaults(doors, redis, PREFIX);
    await outsideAgentsUnderFaults(doors, redis, PREFIX);
  } finally {
    for (const p of processes) p.proc.kill('SIGKILL');
    await Promise.all([...processes].map((p) => p.exit));
    await redis.destroy();
  }
  return finish(started);
}

/** The doors added since the first probe (doors.ts): training pages, the play page. */
async function newDoors(doors: DoorsContext): Promise<void> {
  await trainingUnderLoad(doors);
  await playWhileThinking(doors);
  const now = async () => {
    const c = connectRedis(redis.url);
    try {
      return { used: (await redisMemory(c)).used, live: await c.zcard(`${PREFIX}:plays-live`) };
    } finally {
      await closeRedis(c);
    }
  };
  await playFlood(doors, now);
}

function finish(started: number): number {
  log(`${failures.length ? `FAILED: ${failures.join('; ')}` : 'passed'} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  return failures.length ? 1 : 0;
}

process.exitCode = await main().catch((err) => {
  console.error(err);
  return 1;
});
