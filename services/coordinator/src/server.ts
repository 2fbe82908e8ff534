/**
 * Starts the coordinator: the HTTP API and the queue feeder. Two Redis connections: the feeder's
 * waits through an outage (its work resumes where it stopped), the API's fails at once, so that a
 * request gets a 503 instead of hanging while Redis is away.
 */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import type { Logger } from 'pino';
import type { Redis } from 'ioredis';
import type express from 'express';
import { PlayTables, RatingFits } from '@wonderlab/shared';
import { OutageLog, PlayStore, SweepStore, closeRedis, connectRedis, connectRedisFailFast, gameQueue, within, type SweepMeta } from '@wonderlab/shared/store';
import { hostsToAllow, reachedAt } from '@wonderlab/shared/http';
import { createApp } from './app.js';
import type { CoordinatorConfig } from './config.js';
import { Feeder } from './feeder.js';
import { LadderService } from './ladder.js';
import { SweepStatistics } from './statistics.js';
import { LabHealth } from './lab-health.js';
import { ModelChecks } from './model-checks.js';
import { SweepCreator } from './sweep-creator.js';
import { TuneDriver } from './tune-driver.js';

export interface RunningCoordinator {
  url: string;
  port: number;
  /** The API's store (its connection fails fast while Redis is unreachable). */
  store: SweepStore;
  /** The feeder's store (its connection waits through an outage). */
  feederStore: SweepStore;
  feeder: Feeder;
  /** The model checks of its routes (their `loads` count the files read). */
  models: ModelChecks;
  app: express.Express;
  /** Stops within SHUTDOWN_CLOSE_MS, Redis reachable or not; resolves with whether everything closed in time. */
  close(): Promise<boolean>;
}

/**
 * The API could not listen (the port in use, or not this process's to take), in one line that
 * names the setting to change. Thrown once everything the coordinator had started is released.
 */
export class ListenError extends Error {
  constructor(
    readonly code: string | undefined,
    readonly port: number,
    readonly host: string,
  ) {
    const where = `port ${port} on ${host}`;
    super(
      code === 'EADDRINUSE'
        ? `${where} is in use (PORT): stop what listens there, or set PORT to a free port`
        : code === 'EACCES'
          ? `${where} is not open to this user (PORT): set PORT to 1024 or above`
          : `cannot listen on ${where} (PORT, HOST): ${code ?? 'unknown error'}`,
    );
  }
}

export interface CoordinatorHooks {
  /** Extra routes mounted before the API's 404 (the dashboard, in `wonderlab serve`). */
  mount?: (app: express.Express) => void;
  /** Where Redis outages are logged (shared with a worker in `wonderlab serve`). */
  outage?: OutageLog;
}

export async function startCoordinator(config: CoordinatorConfig, logger: Logger, hooks: CoordinatorHooks = {}): Promise<RunningCoordinator> {
  const outage = hooks.outage ?? new OutageLog(logger, config.OUTAGE_LOG_INTERVAL_MS);
  const redis: Redis = connectRedis(config.REDIS_URL);
  outage.watch(redis, 'feeder');
  const apiRedis: Redis = connectRedisFailFast(config.REDIS_URL, config.REDIS_COMMAND_TIMEOUT_MS);
  outage.watch(apiRedis, 'api');
  const feederStore = new SweepStore(redis, config.KEY_PREFIX);
  const store = new SweepStore(apiRedis, config.KEY_PREFIX);
  const queue = gameQueue(redis, feederStore.keys, config.QUEUE_NAME);
  const apiQueue = gameQueue(apiRedis, store.keys, config.QUEUE_NAME);
  for (const [q, source] of [[queue, 'feeder queue'], [apiQueue, 'api queue']] as const) q.on('error', (err) => outage.error(err, source));
  // Rating fits cost up to O(k³) in the configurations: a thread of their own keeps them off this
  // process's one event loop (the feeder, live updates, health checks and, under `wonderlab
  // serve`, the worker's job locks).
  const fits = new RatingFits({ onError: (err, key) => logger.warn({ err, fit: key }, 'a rating fit failed') });
  fits.warm();
  // A sweep's statistics likewise, read and computed on a thread with a connection of its own.
  const statistics = new SweepStatistics({ redisUrl: config.REDIS_URL, prefix: config.KEY_PREFIX, commandTimeoutMs: config.REDIS_COMMAND_TIMEOUT_MS }, config.FIT_WAIT_MS);
  statistics.warm();
  // Model files likewise: read, hashed and loaded on a thread (started at the first check).
  const models = new ModelChecks(config.MAX_MODEL_BYTES);
  // The play page's games: their agents think on threads of their own; the queue holds a few moves per thread.
  const playTables = new PlayTables({ threads: config.PLAY_THREADS, queue: 4 * config.PLAY_THREADS, deadlineMs: 3000 * config.PLAY_MOVE_SECONDS });
  const playStore = new PlayStore(apiRedis, store.keys, config.PLAY_IDLE_SECONDS, config.PLAY_MAX_GAMES);
  const ladder = new LadderService(feederStore, config.LADDER_INTERVAL_MS, logger, fits, config.FIT_WAIT_MS, new PlayStore(redis, feederStore.keys, config.PLAY_IDLE_SECONDS));
  const health = new LabHealth({
    store,
    alsoStamp: [feederStore, playStore],
    logger,
    intervalMs: config.LAB_CHECK_INTERVAL_MS,
    logIntervalMs: config.OUTAGE_LOG_INTERVAL_MS,
    // The sweeps are gone: what the ladder, the feeder and the caches of fits and statistics
    // learned of them goes too.
    onLost: () => (ladder.reset(), feeder.reset(), fits.clear(), statistics.clear()),
  });
  // New sweeps, the API's and the lab's own (a tune's confirmation), through one path; stored with the API's connection.
  const creator: SweepCreator = new SweepCreator({ store, models, limits: config, batching: { seconds: config.BATCH_SECONDS, max: config.MAX_BATCH }, logger, created: () => feeder.kick() });
  const confirm = (tune: SweepMeta, recommendation: string) => creator.confirm(tune, recommendation);
  const tunes = new TuneDriver({ store: feederStore, logger, makeStep: (tune, k, spec) => creator.step(tune, k, spec), confirm });
  const feeder = new Feeder({ store: feederStore, queue, window: config.FEED_WINDOW, intervalMs: config.FEED_INTERVAL_MS, logger, gate: () => health.feedBlocker(), confirm, tunes });
  const { app, close: closeApp } = createApp({
    store,
    queue: apiQueue,
    feeder,
    logger,
    apiToken: config.API_TOKEN,
    accessLog: config.ACCESS_LOG,
    allowedHosts: hostsToAllow(config.ALLOWED_HOSTS, reachedAt(config)),
    limits: config,
    eventsIntervalMs: config.EVENTS_INTERVAL_MS,
    creator,
    ladder,
    statistics,
    models,
    health,
    requestTimeoutMs: config.REQUEST_TIMEOUT_MS,
    trainingBuilds: config.TRAINING_BUILDS,
    outage,
    mount: hooks.mount,
    play: { store: playStore, tables: playTables, moveSeconds: config.PLAY_MOVE_SECONDS, newPerMinute: config.PLAY_NEW_PER_MINUTE },
  });
  // A short wait for the API's connection, so that requests right after the start find it up; a
  // Redis that is down does not keep the API from listening (it answers 503 until Redis is back).
  if (apiRedis.status !== 'ready') await within(new Promise((resolve) => apiRedis.once('ready', resolve)), 2000);
  let server: Server;
  try {
    server = await new Promise((resolve, reject) => {
      const s = app.listen(config.PORT, config.HOST, (err?: Error) => (err ? reject(err) : resolve(s)));
    });
  } catch (err) {
    // Its threads and connections would keep the process alive: released before saying why.
    closeApp();
    await Promise.all([fits.close(), statistics.close(), models.close(), playTables.close()]);
    await Promise.all([queue.close(), apiQueue.close()]);
    await Promise.all([closeRedis(redis, 1000), closeRedis(apiRedis, 1000)]);
    throw new ListenError((err as NodeJS.ErrnoException).code, config.PORT, config.HOST);
  }
  const port = (server.address() as AddressInfo).port;
  health.start();
  feeder.start();
  ladder.start();
  const host = config.HOST === '0.0.0.0' || config.HOST === '::' ? '127.0.0.1' : config.HOST;
  const url = `http://${host}:${port}`;
  logger.info({ url, reachedAt: reachedAt(config), queue: config.QUEUE_NAME, prefix: config.KEY_PREFIX, auth: Boolean(config.API_TOKEN) }, 'coordinator listening');
  return {
    url,
    port,
    store,
    feederStore,
    feeder,
    models,
    app,
    async close() {
      const deadline = Date.now() + config.SHUTDOWN_CLOSE_MS;
      const left = () => Math.max(0, deadline - Date.now());
      // No new connections; requests in flight get half the time, event streams end at once.
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      closeApp();
      server.closeIdleConnections();
      let clean = await within(closed, left() / 2);
      server.closeAllConnections();
      // Each step waits on Redis at most until the deadline, and hardly at all while Redis is
      // unreachable: there is nothing to flush then (a round cut short is reconciled by the next
      // coordinator), and waiting would only eat the orchestrator's grace.
      const bound = () => (redis.status === 'ready' ? left() : Math.min(left(), 250));
      ladder.stop();
      health.stop();
      await Promise.all([fits.close(), statistics.close(), models.close(), playTables.close()]);
      clean = (await within(feeder.stop(), bound())) && clean;
      clean = (await within(Promise.all([queue.close(), apiQueue.close()]), bound())) && clean;
      await Promise.all([closeRedis(redis, Math.min(1000, left())), closeRedis(apiRedis, Math.min(1000, left()))]);
      return clean;
    },
  };
}
