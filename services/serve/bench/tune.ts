/**
 * Tune bookkeeping benchmark (`npm run bench`, needs Redis at REDIS_URL): what the coordinator's
 * tune driver (services/coordinator/src/tune-driver.ts) costs per SPSA step against what the step's
 * games cost, the "< 2 % of the games' CPU".
 *
 * The tune is the SPSA evidence run's (tuning/spsa-robilliard/plan.json: four options of
 * mcts-robilliard at 250 iterations, the paper's rule-based player third), shortened to
 * BENCH_TUNE_STEPS steps (default 12) on deals of its own. Each step the driver looks at the tune
 * (applies the finished step, proposes and makes the next — a step's sweep checked and stored as
 * the API stores one), and the step's two games are played in this thread and recorded as a
 * worker records them. Only the driver's looks are timed as bookkeeping; the games' CPU is what
 * they took here; the recording is the worker's and the queue's cost (the cluster benchmark's).
 * Nothing else runs in this process, so its CPU over a look is the driver's (and its Redis
 * client's); Redis's own CPU is not counted.
 *
 * Then a long tune of cheap games (BENCH_TUNE_LONG_STEPS, default 1000 SPSA steps of mcts(it=2)):
 * the driver's look at the last steps (does it grow with the steps behind it?) and the tune's part
 * of its API detail (tuneView: every step replayed), which a page polls while the tune runs.
 */
import { randomBytes } from 'node:crypto';
import { pino } from 'pino';
import { Sweep, checkSweepSpec, parseSweepSpec, playGame, processorLine } from '@wonderlab/shared';
import { SweepStore, connectRedis, deleteKeys, redisAnswers } from '@wonderlab/shared/store';
import { TuneDriver, tuneView } from '@wonderlab/coordinator';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const STEPS = Number(process.env.BENCH_TUNE_STEPS ?? 12);
const LONG_STEPS = Number(process.env.BENCH_TUNE_LONG_STEPS ?? 1000);

const cpuMs = (since: NodeJS.CpuUsage) => {
  const d = process.cpuUsage(since);
  return (d.user + d.system) / 1000;
};

const PARAMS = [
  { key: 'c', min: 0.05, max: 2, scale: 'log' },
  { key: 'kscore', min: 0, max: 0.1 },
  { key: 'pw', min: 0, max: 0.5 },
  { key: 'pwq', min: 0.25, max: 4, scale: 'log' },
];

/** An SPSA tune driven to its end here: the CPU of each of the driver's looks, and of the games. */
async function runTune(store: SweepStore, seats: string[], steps: number) {
  const spec = parseSweepSpec({ name: `bench tune ${steps}`, players: 3, seats, deals: { firstSeed: 19_000_000, count: 1 }, tune: { method: 'spsa', params: PARAMS, steps, inFlight: 1 } });
  const tune = await store.ledger.create(new Sweep(spec));
  const driver = new TuneDriver({
    store,
    logger: pino({ level: 'silent' }),
    // As the coordinator's SweepCreator makes a step: checked as any spec, stored a game per job.
    makeStep: async (of, k, input) => (await store.ledger.create(new Sweep(checkSweepSpec(input).spec), { batch: 1, step: { of: of.id, k } })).id,
  });
  const looks: number[] = [];
  let gamesMs = 0;
  let games = 0;
  for (;;) {
    const meta = (await store.reads.meta(tune.id))!;
    const started = process.cpuUsage();
    await driver.check(meta);
    looks.push(cpuMs(started));
    if ((await store.reads.meta(tune.id))!.status === 'done') break;
    const { steps: recorded, applied } = await store.reads.tuneSteps(tune.id);
    const done = new Set(applied.map((a) => a.k));
    for (const [k, json] of recorded) {
      if (done.has(k)) continue;
      const loaded = (await store.reads.load(JSON.parse(json).sweep))!;
      for (let g = 0; g < loaded.sweep.size; g++) {
        const at = process.cpuUsage();
        const summary = playGame(loaded.sweep.game(g));
        gamesMs += cpuMs(at);
        games++;
        await store.ledger.recordResult(loaded, summary);
      }
    }
  }
  return { id: tune.id, looks, gamesMs, games };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function tuneBookkeeping(): Promise<void> {
  const prefix = `wlbench-${randomBytes(4).toString('hex')}`;
  const redis = connectRedis(REDIS_URL);
  const store = new SweepStore(redis, prefix);
  try {
    const evidence = await runTune(store, ['mcts-robilliard(it=250)', 'mcts-robilliard(it=250)', 'rulebased-robilliard-notrade'], STEPS);
    const bookkeepingMs = evidence.looks.reduce((a, b) => a + b, 0);
    console.log(`tune_driver_cpu_per_step: ${(bookkeepingMs / STEPS).toFixed(2)} ms (SPSA, 4 options, ${STEPS} steps; ${evidence.looks.length} looks, median look ${median(evidence.looks).toFixed(2)} ms)`);
    console.log(`tune_games_cpu_per_step: ${(evidence.gamesMs / STEPS).toFixed(0)} ms (${evidence.games} games of mcts-robilliard(it=250) x2 + rulebased-robilliard-notrade)`);
    console.log(`tune_bookkeeping_share: ${((100 * bookkeepingMs) / evidence.gamesMs).toFixed(2)} % of the games' CPU (target < 2)`);

    const long = await runTune(store, ['mcts(it=2)', 'mcts(it=2)', 'random'], LONG_STEPS);
    console.log(`tune_driver_look_first_100: ${median(long.looks.slice(0, 100)).toFixed(2)} ms (median; ${LONG_STEPS} SPSA steps of cheap games)`);
    console.log(`tune_driver_look_last_100: ${median(long.looks.slice(-100)).toFixed(2)} ms (median)`);
    const meta = (await store.reads.meta(long.id))!;
    const views: number[] = [];
    for (let i = 0; i < 11; i++) {
      const started = performance.now();
      await tuneView(store, meta);
      views.push(performance.now() - started);
    }
    console.log(`tune_view_ms_${LONG_STEPS}_steps: ${median(views).toFixed(1)} ms (the tune's part of its API detail, every step replayed; median of 11)`);
  } finally {
    await deleteKeys(redis, prefix);
    await redis.quit();
  }
}

console.log(processorLine());
if (!(await redisAnswers(REDIS_URL))) console.log(`tune benchmark skipped: no Redis at ${REDIS_URL}`);
else await tuneBookkeeping();
