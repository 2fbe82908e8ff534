/**
 * Entry point of a worker process: `node services/worker/dist/src/main.js`. Settings come from
 * the environment (see config.ts); SIGTERM finishes or hands back the running games, then exits
 * within SHUTDOWN_GRACE_MS + SHUTDOWN_CLOSE_MS whether Redis answers or not.
 */
import { createServer } from 'node:http';
import { pino } from 'pino';
import { staleBuild } from '@wonderlab/shared';
import { ConfigError, OutageLog, closeRedis, connectRedis, exitWithin } from '@wonderlab/shared/store';
import { GameWorker } from './game-worker.js';
import { workerConfig } from './config.js';

async function main(): Promise<void> {
  let config;
  try {
    config = workerConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`worker: ${err.message}`);
      process.exit(2);
    }
    throw err;
  }
  // Its games are stamped with the repository's commit: refuse to play code older than that.
  const stale = staleBuild();
  if (stale) {
    console.error(`worker: ${stale}`);
    process.exit(2);
  }
  const logger = pino({ level: config.LOG_LEVEL, base: { service: 'worker', pid: process.pid } });
  const outage = new OutageLog(logger, config.OUTAGE_LOG_INTERVAL_MS);
  const redis = connectRedis(config.REDIS_URL);
  outage.watch(redis, 'worker');
  const worker = new GameWorker({
    redis,
    prefix: config.KEY_PREFIX,
    queueName: config.QUEUE_NAME,
    slots: config.WORKER_SLOTS,
    lockDuration: config.LOCK_DURATION_MS,
    stalledInterval: config.STALLED_INTERVAL_MS,
    agentSuspendAfter: config.AGENT_SUSPEND_AFTER,
    logger,
    outage,
  });
  worker.start();
  logger.info({ slots: config.WORKER_SLOTS, queue: config.QUEUE_NAME, prefix: config.KEY_PREFIX }, 'worker started');

  let stopping = false;
  const health = config.HEALTH_PORT
    ? createServer((req, res) => {
        const ok = req.url === '/healthz' || (req.url === '/readyz' && !stopping && redis.status === 'ready');
        res.writeHead(ok ? 200 : 503, { 'content-type': 'application/json' }).end(JSON.stringify({ ok }));
      }).listen(config.HEALTH_PORT)
    : undefined;

  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    // The net under everything below: the process ends within its grace whatever hangs.
    exitWithin(config.SHUTDOWN_GRACE_MS + config.SHUTDOWN_CLOSE_MS + 1000, logger);
    logger.info({ signal, graceMs: config.SHUTDOWN_GRACE_MS, redis: redis.status }, 'stopping: finishing running games');
    const { clean, handedBackEarly } = await worker.close(config.SHUTDOWN_GRACE_MS, config.SHUTDOWN_CLOSE_MS);
    health?.close();
    await closeRedis(redis, 1000);
    logger.info({ ...worker.counts, clean, handedBackEarly }, 'worker stopped');
    process.exit(clean ? 0 : 1);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

await main();
