/**
 * Cluster benchmark (`npm run bench`, needs Redis at REDIS_URL): enqueue rate, Redis bytes per
 * queued game, queue overhead per game, and the throughput of two worker processes against one.
 * Figures are printed as `name: value unit`; every run uses its own key prefix and deletes it.
 *
 * BENCH_ENQUEUE_GAMES (default 100000), BENCH_OVERHEAD_GAMES (default 2000),
 * BENCH_SCALE_GAMES (default 24), BENCH_CHEAP_GAMES (default 20000) size the parts, and
 * BENCH_CHEAP_ROUNDS (default 5) the cheap sweep's paired rounds; BENCH_PARTS
 * (enqueue,overhead,cheap,scale) chooses them.
 *
 * The cheap sweep's Redis figures (commands and CPU per game) read INFO before and after: point
 * REDIS_URL at a Redis nothing else uses while it runs, or they count the other clients too.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { Sweep, batchSize, parseSweepSpec, playGame, processorLine, runGames, type SweepSpecInput } from '@wonderlab/shared';
import { SweepStore, connectRedis, deleteKeys, gameQueue, redisAnswers } from '@wonderlab/shared/store';
import { GameWorker } from '@wonderlab/worker';
import { Feeder } from '@wonderlab/coordinator';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const ENQUEUE_GAMES = Number(process.env.BENCH_ENQUEUE_GAMES ?? 100_000);
const OVERHEAD_GAMES = Number(process.env.BENCH_OVERHEAD_GAMES ?? 2000);
const SCALE_GAMES = Number(process.env.BENCH_SCALE_GAMES ?? 24);
const CHEAP_GAMES = Number(process.env.BENCH_CHEAP_GAMES ?? 20_000);
const CHEAP_ROUNDS = Number(process.env.BENCH_CHEAP_ROUNDS ?? 5);
const silent = pino({ level: 'silent' });
const WORKER_MAIN = fileURLToPath(new URL('../../../worker/dist/src/main.js', import.meta.url));

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function setup() {
  const id = randomBytes(4).toString('hex');
  const prefix = `wlbench-${id}`;
  const queueName = `bench-${id}`;
  const redis = connectRedis(REDIS_URL);
  const store = new SweepStore(redis, prefix);
  const queue = gameQueue(redis, store.keys, queueName);
  return { prefix, queueName, redis, store, queue };
}

function randomSpec(name: string, count: number): SweepSpecInput {
  return { name, players: 3, seats: ['random', 'random', 'random'], deals: { count }, keepRecords: false };
}

async function usedMemory(redis: ReturnType<typeof connectRedis>): Promise<number> {
  const info = await redis.info('memory');
  return Number(/used_memory:(\d+)/.exec(info)![1]);
}

async function enqueueRate(): Promise<void> {
  const { prefix, redis, store, queue } = setup();
  try {
    const spec = parseSweepSpec(randomSpec('enqueue', ENQUEUE_GAMES));
    const feeder = new Feeder({ store, queue, window: ENQUEUE_GAMES, intervalMs: 1000, logger: silent });
    const rates: number[] = [];
    const bytes: number[] = [];
    for (let round = 0; round < 3; round++) {
      const meta = await store.ledger.create(new Sweep(spec));
      const before = await usedMemory(redis);
      const started = performance.now();
      const queued = await feeder.feed(meta.id);
      const seconds = (performance.now() - started) / 1000;
      const after = await usedMemory(redis);
      rates.push(queued / seconds);
      bytes.push((after - before) / queued);
      await queue.obliterate({ force: true });
      await store.ledger.transition(meta.id, ['running'], 'cancelled', 10);
    }
    console.log(`enqueue_rate: ${Math.round(median(rates))} games/s (median of 3 rounds of ${ENQUEUE_GAMES}; target >= 20000)`);
    console.log(`redis_bytes_per_queued_game: ${Math.round(median(bytes))} bytes (target <= 1024)`);
  } finally {
    await queue.close();
    await deleteKeys(redis, prefix);
    await redis.quit();
  }
}

async function queueOverhead(): Promise<void> {
  const { prefix, queueName, redis, store, queue } = setup();
  const workerRedis = connectRedis(REDIS_URL);
  const worker = new GameWorker({ redis: workerRedis, prefix, queueName, slots: 1, lockDuration: 30_000, stalledInterval: 15_000, logger: silent });
  try {
    const spec = parseSweepSpec(randomSpec('overhead', OVERHEAD_GAMES));
    const sweep = new Sweep(spec);
    // The same games in this thread, without any queue: the baseline.
    let started = performance.now();
    for (let k = 0; k < sweep.size; k++) playGame(sweep.game(k));
    const localMs = (performance.now() - started) / sweep.size;

    const feeder = new Feeder({ store, queue, window: 1000, intervalMs: 20, logger: silent });
    // Batched as the coordinator batches a new sweep.
    const batch = batchSize(sweep.cells, sweep.size, 1, 500);
    const meta = await store.ledger.create(sweep, { batch });
    worker.start();
    started = performance.now();
    feeder.start();
    while ((await store.reads.meta(meta.id))!.status !== 'done') await new Promise((r) => setTimeout(r, 20));
    const clusterMs = (performance.now() - started) / sweep.size;
    await feeder.stop();
    console.log(`game_random_3p_local: ${localMs.toFixed(3)} ms/game`);
    console.log(`game_random_3p_through_queue: ${clusterMs.toFixed(3)} ms/game (1 worker slot, batches of ${batch})`);
    console.log(`queue_overhead: ${(clusterMs - localMs).toFixed(3)} ms/game (target <= 2)`);
  } finally {
    await worker.close(1000);
    await workerRedis.quit();
    await queue.close();
    await deleteKeys(redis, prefix);
    await redis.quit();
  }
}

/** The same games on this machine's threads, without any queue: how far 2 cores scale at all. */
async function localThroughput(threads: number): Promise<number> {
  const spec = parseSweepSpec(scaleSpec());
  const sweep = new Sweep(spec);
  const plans = Array.from({ length: sweep.size }, (_, k) => sweep.game(k));
  const started = performance.now();
  await runGames(plans, { threads, onResult: () => {} });
  return plans.length / ((performance.now() - started) / 1000);
}

function scaleSpec(): SweepSpecInput {
  return { name: 'scale', players: 3, seats: ['mcts(it=300)', 'rulebased', 'rulebased'], deals: { count: SCALE_GAMES }, keepRecords: false };
}

async function throughput(processes: number): Promise<number> {
  const { prefix, queueName, redis, store, queue } = setup();
  const children: ChildProcess[] = [];
  try {
    const spec = parseSweepSpec(scaleSpec());
    const feeder = new Feeder({ store, queue, window: 1000, intervalMs: 50, logger: silent });
    for (let i = 0; i < processes; i++) {
      children.push(
        // One game per core keeps every core busy: V8's parallel GC helpers would only compete
        // with the game threads (measured: 13 % more games/s on 2 busy cores without them).
        spawn(process.execPath, ['--single-threaded-gc', WORKER_MAIN], {
          env: { ...process.env, REDIS_URL, KEY_PREFIX: prefix, QUEUE_NAME: queueName, WORKER_SLOTS: '1', LOG_LEVEL: 'warn' },
          stdio: ['ignore', 'ignore', 'inherit'],
        }),
      );
    }
    // Let the workers connect before the clock starts.
    await new Promise((r) => setTimeout(r, 1500));
    const meta = await store.ledger.create(new Sweep(spec));
    const started = performance.now();
    feeder.start();
    while ((await store.reads.meta(meta.id))!.status !== 'done') await new Promise((r) => setTimeout(r, 50));
    const seconds = (performance.now() - started) / 1000;
    await feeder.stop();
    return SCALE_GAMES / seconds;
  } finally {
    await Promise.all(children.map((c) => new Promise((r) => (c.exitCode !== null ? r(0) : (c.once('exit', r), c.kill('SIGTERM'))))));
    await queue.close();
    await deleteKeys(redis, prefix);
    await redis.quit();
  }
}

/** Redis's own CPU seconds, the commands it has run (script-called ones included), its network bytes in and out, and its memory, from INFO. */
async function redisCounters(redis: ReturnType<typeof connectRedis>): Promise<{ cpuSeconds: number; commands: number; netIn: number; netOut: number; memory: number }> {
  const [cpu, commandStats, stats] = await Promise.all([redis.info('cpu'), redis.info('commandstats'), redis.info('stats')]);
  const field = (text: string, name: string) => Number(new RegExp(`${name}:([0-9.]+)`).exec(text)![1]);
  let commands = 0;
  for (const m of commandStats.matchAll(/calls=(\d+)/g)) commands += Number(m[1]);
  return {
    cpuSeconds: field(cpu, 'used_cpu_user') + field(cpu, 'used_cpu_sys'),
    commands,
    netIn: field(stats, 'total_net_input_bytes'),
    netOut: field(stats, 'total_net_output_bytes'),
    memory: await usedMemory(redis),
  };
}

/**
 * A sweep of cheap games (three rule-based players, records kept, as `npm start` plays it by
 * default) through a worker process of 2 slots, batched as the coordinator batches it, against the
 * same games on 2 local threads as `wonderlab play` plays them by default (no records): the
 * issue's comparison, in BENCH_CHEAP_ROUNDS (default 5) paired rounds, local then lab and lab
 * then local by turns, so that a machine speeding up or slowing down favours neither; issue 63's
 * target is ≥ 0.95 in each round. Each round is a new sweep of the same games on the same worker
 * process, as a lab's workers stay up from sweep to sweep; a worker's first sweep also pays for
 * compiling its queue thread's code, so it is paired with a local run of its own and reported
 * apart (local threads are new at every run, as `wonderlab play` starts them). With Redis's
 * commands and CPU per game over the paired rounds.
 */
async function cheapSweep(): Promise<void> {
  if (!(Number.isInteger(CHEAP_ROUNDS) && CHEAP_ROUNDS >= 1)) throw new Error(`BENCH_CHEAP_ROUNDS: expected a whole number of rounds, at least 1; got ${process.env.BENCH_CHEAP_ROUNDS}`);
  const { prefix, queueName, redis, store, queue } = setup();
  let child: ChildProcess | undefined;
  let feeder: Feeder | undefined;
  try {
    const spec = parseSweepSpec({ name: 'cheap', players: 3, seats: ['rulebased', 'rulebased', 'rulebased'], deals: { count: CHEAP_GAMES } });
    const sweep = new Sweep(spec);
    const plans = Array.from({ length: sweep.size }, (_, k) => sweep.game(k));
    child = spawn(process.execPath, ['--single-threaded-gc', WORKER_MAIN], {
      env: { ...process.env, REDIS_URL, KEY_PREFIX: prefix, QUEUE_NAME: queueName, WORKER_SLOTS: '2', LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    await new Promise((r) => setTimeout(r, 1500));
    const batch = batchSize(sweep.cells, sweep.size, 1, 500);
    feeder = new Feeder({ store, queue, window: 2000, intervalMs: 50, logger: silent });
    feeder.start();
    const local = async (): Promise<number> => {
      const started = performance.now();
      await runGames(plans, { threads: 2, onResult: () => {} });
      return sweep.size / ((performance.now() - started) / 1000);
    };
    const counted = { commands: 0, cpuSeconds: 0, netIn: 0, netOut: 0, memory: 0 };
    const lab = async (): Promise<number> => {
      const before = await redisCounters(redis);
      const started = performance.now();
      const meta = await store.ledger.create(sweep, { batch });
      while ((await store.reads.meta(meta.id))!.status !== 'done') await new Promise((r) => setTimeout(r, 20));
      const rate = sweep.size / ((performance.now() - started) / 1000);
      const after = await redisCounters(redis);
      for (const k of Object.keys(counted) as (keyof typeof counted)[]) counted[k] += after[k] - before[k];
      return rate;
    };
    const first = { local: await local(), lab: await lab() };
    for (const k of Object.keys(counted) as (keyof typeof counted)[]) counted[k] = 0;
    const rounds: { local: number; lab: number }[] = [];
    for (let r = 0; r < CHEAP_ROUNDS; r++) {
      const round = { local: 0, lab: 0 };
      if (r % 2 === 0) {
        round.local = await local();
        round.lab = await lab();
      } else {
        round.lab = await lab();
        round.local = await local();
      }
      rounds.push(round);
    }
    const ratios = rounds.map((x) => x.lab / x.local);
    const games = sweep.size * rounds.length;
    const list = (xs: number[], digits: number) => xs.map((x) => x.toFixed(digits)).join(' / ');
    console.log(`cheap_sweep_local_2_threads: ${Math.round(median(rounds.map((x) => x.local)))} games/s (median of ${rounds.length} rounds: ${list(rounds.map((x) => x.local), 0)}; rulebased x3, ${sweep.size} games, without records as wonderlab play plays them)`);
    console.log(`cheap_sweep_through_lab: ${Math.round(median(rounds.map((x) => x.lab)))} games/s (median: ${list(rounds.map((x) => x.lab), 0)}; one worker process of 2 slots, batches of ${batch}, records kept as the lab keeps them by default)`);
    console.log(`cheap_sweep_lab_over_local: ${Math.min(...ratios).toFixed(2)} lowest of ${rounds.length} paired rounds (${list(ratios, 2)}; target >= 0.95 in each)`);
    console.log(`cheap_sweep_first_sweep_lab_over_local: ${(first.lab / first.local).toFixed(2)} (a new worker's first sweep, ${Math.round(first.lab)} games/s, against local threads' ${Math.round(first.local)})`);
    console.log(`redis_commands_per_game: ${(counted.commands / games).toFixed(1)} commands (batched cheap games)`);
    console.log(`redis_cpu_per_game: ${((1e6 * counted.cpuSeconds) / games).toFixed(1)} us (target <= 100)`);
    // What a fleet's Redis must carry per game: bytes over the network each way, and memory per
    // stored game (summary, record and the sweep's aggregates; the queue is empty again).
    console.log(`redis_net_in_per_game: ${(counted.netIn / games).toFixed(0)} bytes (batched cheap games, records kept)`);
    console.log(`redis_net_out_per_game: ${(counted.netOut / games).toFixed(0)} bytes`);
    console.log(`redis_memory_per_stored_game: ${(counted.memory / games).toFixed(0)} bytes (rulebased x3 with records)`);
  } finally {
    // The worker and the keys go whatever the feeder's stop says.
    await feeder?.stop().catch((err: unknown) => console.error(`cheap sweep: the feeder did not stop cleanly: ${String(err)}`));
    if (child && child.exitCode === null) await new Promise((r) => (child!.once('exit', r), child!.kill('SIGTERM')));
    await queue.close();
    await deleteKeys(redis, prefix);
    await redis.quit();
  }
}

console.log(processorLine());
if (!(await redisAnswers(REDIS_URL))) {
  console.log(`cluster benchmark skipped: no Redis at ${REDIS_URL}`);
} else {
  // BENCH_PARTS=cheap (comma-separated: enqueue, overhead, cheap, scale) runs only those parts.
  const parts = new Set((process.env.BENCH_PARTS ?? 'enqueue,overhead,cheap,scale').split(','));
  if (parts.has('enqueue')) await enqueueRate();
  if (parts.has('overhead')) await queueOverhead();
  if (parts.has('cheap')) await cheapSweep();
}
if ((await redisAnswers(REDIS_URL)) && (process.env.BENCH_PARTS ?? 'scale').split(',').includes('scale')) {
  const one = await throughput(1);
  const two = await throughput(2);
  const localOne = await localThroughput(1);
  const localTwo = await localThroughput(2);
  console.log(`throughput_1_worker_process: ${one.toFixed(2)} games/s (mcts(it=300) vs 2 rulebased, ${SCALE_GAMES} games)`);
  console.log(`throughput_2_worker_processes: ${two.toFixed(2)} games/s`);
  console.log(`throughput_ratio_2_over_1: ${(two / one).toFixed(2)} (target >= 1.8 on 2 cores)`);
  console.log(`local_threads_ratio_2_over_1: ${(localTwo / localOne).toFixed(2)} (the same games on 1 and 2 threads without a queue: ${localOne.toFixed(2)} and ${localTwo.toFixed(2)} games/s; the machine's own scaling)`);
}
