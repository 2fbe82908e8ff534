/**
 * `npm start` / `wonderlab serve`: the whole lab in one process on one machine — the coordinator,
 * and a worker with one game slot per core — against REDIS_URL or a private redis-server.
 */
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { z } from 'zod';
import { staleBuild } from '@wonderlab/shared';
import { unguardedProblem } from '@wonderlab/shared/http';
import { argumentProblem } from '@wonderlab/shared/cli';
import { ConfigError, DEFAULT_REDIS_URL, OutageLog, accessLogSetting, closeRedis, connectRedis, exitWithin, parseEnv, within } from '@wonderlab/shared/store';
import { GameWorker, WorkerEnvSchema } from '@wonderlab/worker';
import { dashboardRouter } from '@wonderlab/dashboard';
import { CoordinatorEnvSchema, ListenError, startCoordinator } from '@wonderlab/coordinator';
import { NoRedisError, useOrStartRedis, type LocalRedis } from './local-redis.js';

export const SERVE_USAGE = `usage: wonderlab serve [--private-redis]          (npm start -- --private-redis)
  The whole lab on this machine: the dashboard and API on http://HOST:PORT (127.0.0.1:8080) and
  one game slot per core, on the Redis at REDIS_URL (redis://127.0.0.1:6379), whose keys under
  KEY_PREFIX (wl) and queue it shares with any other lab there; when nothing answers at REDIS_URL,
  on a redis-server it starts from PATH, its data in DATA_DIR (.data/redis). Ctrl-C stops it.
options:
  --private-redis   start a redis-server of its own (data in DATA_DIR) even when a Redis answers
                    at REDIS_URL: the lab shares no keys, queue or workers with another lab
  -h, --help        this text
Settings are environment variables (README, Settings), e.g. PORT=8090 npm start.`;

/** What `wonderlab serve` was asked on its command line. */
export interface ServeOptions {
  help: boolean;
  privateRedis: boolean;
}

/** The command line of `wonderlab serve`; throws TypeError (node:util's parseArgs) on an unknown option or an argument. */
export function parseServeArgs(argv: readonly string[]): ServeOptions {
  const { values } = parseArgs({ args: [...argv], options: { 'private-redis': { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } });
  return { help: values.help ?? false, privateRedis: values['private-redis'] ?? false };
}

export const EmbeddedEnvSchema = CoordinatorEnvSchema.extend(WorkerEnvSchema.shape).extend({
  HOST: z.string().default('127.0.0.1'),
  /**
   * Here the log is the terminal a person reads: a line for every request of the dashboard (the
   * pages poll) would bury the start-up banner and every warning. Refusals, errors and slow
   * requests are still logged; ACCESS_LOG=all brings every line back.
   */
  ACCESS_LOG: accessLogSetting('errors'),
  /** Where a private redis-server keeps its data. */
  DATA_DIR: z.string().default('.data/redis'),
});

const EXAMPLE_SPEC = JSON.stringify({ name: 'mcts-vs-rulebased', players: 3, seats: ['mcts:100,10,100', 'rulebased', 'rulebased'], deals: { count: 20 } });

/** Runs the lab until SIGINT or SIGTERM; resolves to the exit code. */
export async function serve(argv: readonly string[] = [], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  // The command line first: --help (or a mistyped option) must not start anything.
  let options: ServeOptions;
  try {
    options = parseServeArgs(argv);
  } catch (err) {
    const problem = argumentProblem(err);
    if (problem === undefined) throw err;
    console.error(`wonderlab serve: ${problem}\nrun "wonderlab serve --help" for its options`);
    return 2;
  }
  if (options.help) {
    console.log(SERVE_USAGE);
    return 0;
  }
  let config;
  try {
    config = parseEnv(EmbeddedEnvSchema, env);
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`wonderlab serve: ${err.message}`);
      return 2;
    }
    throw err;
  }
  // The coordinator's rule: a HOST other machines reach needs API_TOKEN.
  const unguarded = unguardedProblem(config);
  if (unguarded) {
    console.error(`wonderlab serve: ${unguarded}`);
    return 2;
  }
  // Its sweeps and games are stamped with the repository's commit: refuse to run code older than that.
  const stale = staleBuild();
  if (stale) {
    console.error(`wonderlab serve: ${stale}`);
    return 2;
  }
  const logger = pino({ level: config.LOG_LEVEL, base: { pid: process.pid } });
  let redisServer: LocalRedis;
  try {
    redisServer = await useOrStartRedis(config.REDIS_URL ?? DEFAULT_REDIS_URL, config.DATA_DIR, (msg) => logger.info(msg), options.privateRedis);
  } catch (err) {
    if (err instanceof NoRedisError) {
      console.error(`wonderlab serve: ${err.message}`);
      return 1;
    }
    throw err;
  }
  try {
    return await run(config, logger, redisServer);
  } catch (err) {
    // A redis-server started for this lab goes with it, whatever stopped the lab from starting.
    await within(redisServer.stop(), config.SHUTDOWN_CLOSE_MS);
    if (!(err instanceof ListenError)) throw err;
    console.error(`wonderlab serve: ${err.message}`);
    return 1;
  }
}

/** The lab on `redisServer` until SIGINT or SIGTERM (which stop the redis-server too, if it is ours). */
async function run(config: z.output<typeof EmbeddedEnvSchema>, logger: pino.Logger, redisServer: LocalRedis): Promise<number> {
  const settings = { ...config, REDIS_URL: redisServer.url };
  // One outage log for the whole process: its connections all see the same outage.
  const outage = new OutageLog(logger, config.OUTAGE_LOG_INTERVAL_MS);
  const coordinator = await startCoordinator(settings, logger.child({ service: 'coordinator' }), { mount: (app) => app.use(dashboardRouter()), outage });
  const workerRedis = connectRedis(redisServer.url);
  outage.watch(workerRedis, 'worker');
  const slots = config.WORKER_SLOTS;
  const worker = new GameWorker({
    redis: workerRedis,
    prefix: config.KEY_PREFIX,
    queueName: config.QUEUE_NAME,
    slots,
    lockDuration: config.LOCK_DURATION_MS,
    stalledInterval: config.STALLED_INTERVAL_MS,
    agentSuspendAfter: config.AGENT_SUSPEND_AFTER,
    logger: logger.child({ service: 'worker' }),
    outage,
  });
  worker.start();
  const auth = config.API_TOKEN ? ` -H "Authorization: Bearer $API_TOKEN"` : '';
  process.stderr.write(
    [
      '',
      `Wonderlab is running: open the dashboard at ${coordinator.url}/ (${slots} game slots, Redis ${redisServer.url}).`,
      'Or submit a sweep from the command line:',
      `  curl -s -X POST ${coordinator.url}/api/sweeps${auth} -H 'Content-Type: application/json' -d '${EXAMPLE_SPEC}'`,
      `Follow it: ${coordinator.url}/api/sweeps/<id>   API: ${coordinator.url}/api/openapi.json   Stop: Ctrl-C`,
      '',
    ].join('\n') + '\n',
  );

  await new Promise<void>((resolve) => {
    let stopping = false;
    const stop = async (signal: string) => {
      if (stopping) return;
      stopping = true;
      // The games' grace, then at most SHUTDOWN_CLOSE_MS for each of worker, coordinator and a
      // private Redis: bounded whether Redis answers or not.
      exitWithin(config.SHUTDOWN_GRACE_MS + 3 * config.SHUTDOWN_CLOSE_MS + 1000, logger);
      logger.info({ signal, graceMs: config.SHUTDOWN_GRACE_MS }, 'stopping: finishing running games');
      const { clean } = await worker.close(config.SHUTDOWN_GRACE_MS, config.SHUTDOWN_CLOSE_MS);
      await closeRedis(workerRedis, 1000);
      const coordinatorClean = await coordinator.close();
      const redisStopped = await within(redisServer.stop(), config.SHUTDOWN_CLOSE_MS);
      logger.info({ ...worker.counts, clean: clean && coordinatorClean && redisStopped }, 'lab stopped');
      resolve();
    };
    process.once('SIGINT', () => void stop('SIGINT'));
    process.once('SIGTERM', () => void stop('SIGTERM'));
  });
  return 0;
}
