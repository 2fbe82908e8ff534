/** Starts the coordinator: the HTTP API and the queue feeder, on one Redis connection. */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import type { Logger } from 'pino';
import type { Redis } from 'ioredis';
import type express from 'express';
import { SweepStore, connectRedis, gameQueue } from '@wonderlab/shared/store';
import { createApp } from './app.js';
import type { CoordinatorConfig } from './config.js';
import { Feeder } from './feeder.js';

export interface RunningCoordinator {
  url: string;
  port: number;
  store: SweepStore;
  feeder: Feeder;
  app: express.Express;
  close(): Promise<void>;
}

export interface CoordinatorHooks {
  /** Extra routes mounted before the API's 404 (the dashboard in embedded mode). */
  mount?: (app: express.Express) => void;
}

export async function startCoordinator(config: CoordinatorConfig, logger: Logger, hooks: CoordinatorHooks = {}): Promise<RunningCoordinator> {
  const redis: Redis = connectRedis(config.REDIS_URL);
  redis.on('error', (err) => logger.warn({ err: err.message }, 'redis connection error'));
  const store = new SweepStore(redis, config.KEY_PREFIX);
  const queue = gameQueue(redis, store.keys, config.QUEUE_NAME);
  queue.on('error', (err) => logger.warn({ err: err.message }, 'queue error'));
  const feeder = new Feeder({ store, queue, window: config.FEED_WINDOW, intervalMs: config.FEED_INTERVAL_MS, logger });
  const { app, close: closeApp } = createApp({
    store,
    queue,
    feeder,
    logger,
    apiToken: config.API_TOKEN,
    maxGames: config.MAX_GAMES,
    eventsIntervalMs: config.EVENTS_INTERVAL_MS,
    mount: hooks.mount,
  });
  const server: Server = await new Promise((resolve, reject) => {
    const s = app.listen(config.PORT, config.HOST, (err?: Error) => (err ? reject(err) : resolve(s)));
  });
  const port = (server.address() as AddressInfo).port;
  feeder.start();
  const host = config.HOST === '0.0.0.0' || config.HOST === '::' ? '127.0.0.1' : config.HOST;
  const url = `http://${host}:${port}`;
  logger.info({ url, queue: config.QUEUE_NAME, prefix: config.KEY_PREFIX, auth: Boolean(config.API_TOKEN) }, 'coordinator listening');
  return {
    url,
    port,
    store,
    feeder,
    app,
    async close() {
      await feeder.stop();
      closeApp();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await queue.close();
      await redis.quit();
    },
  };
}
