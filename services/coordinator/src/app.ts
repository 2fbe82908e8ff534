/**
 * The coordinator's HTTP API (express), composed: the access log, the metrics, the security
 * headers, the allowed-hosts check and the request deadline around every request, the JSON content
 * type that every change to /api needs, then one router per resource (routes/), each a function of
 * the store's API, then the JSON 404 and the one error handler. Every error is a JSON body
 * `{ error, field? }`, never a crash.
 */
import express from 'express';
import type { Queue } from 'bullmq';
import type { Logger } from 'pino';
import { allowedHosts, securityHeaders } from '@wonderlab/shared/http';
import { WorkerRoster, accessLog, type AccessLogMode, type GameJobData, type OutageLog, type PlayStore, type SweepStore } from '@wonderlab/shared/store';
import type { PlayTables } from '@wonderlab/shared';
import { sweepLimits, type LimitsConfig } from './config.js';
import { SweepEvents } from './events.js';
import type { Feeder } from './feeder.js';
import { errorHandler, jsonBody, noSuchRoute, requestDeadline, requireJsonContentType, requireToken } from './http.js';
import { LabMetrics } from './metrics.js';
import { exportRoutes } from './routes/export.js';
import { gameRoutes } from './routes/games.js';
import { healthRoutes } from './routes/health.js';
import { ratingsRoutes } from './routes/ratings.js';
import { summaryRoutes } from './routes/summary.js';
import { schemaRoutes } from './routes/schemas.js';
import { sweepRoutes } from './routes/sweeps.js';
import { ladderRoutes } from './routes/ladder.js';
import { playRoutes } from './routes/play.js';
import { RateLimit } from './rate-limit.js';
import type { SweepCreator } from './sweep-creator.js';
import { trainingRoutes } from './routes/training.js';
import { workerRoutes } from './routes/workers.js';
import type { LadderService } from './ladder.js';
import type { SweepStatistics } from './statistics.js';
import type { LabHealth } from './lab-health.js';
import type { ModelChecks } from './model-checks.js';

export { HttpError } from './http.js';

export interface AppOptions {
  store: SweepStore;
  queue: Queue<GameJobData>;
  feeder: Feeder;
  logger: Logger;
  apiToken?: string;
  /** Which requests the access log writes at info (ACCESS_LOG); default: all. */
  accessLog?: AccessLogMode;
  /** Host names the app answers to (ALLOWED_HOSTS); empty or absent: any. */
  allowedHosts?: readonly string[];
  /** What one request may ask for (see config.ts). */
  limits: LimitsConfig;
  eventsIntervalMs: number;
  /** The lab's rating ladder (GET /api/ratings); without one, the route is not served. */
  ladder?: LadderService;
  /** Checks and stores new sweeps (with their batching, BATCH_SECONDS and MAX_BATCH). */
  creator: SweepCreator;
  /** Redis's memory and the keyspace's epoch (readyz, metrics, refusing new sweeps); without it, not checked. */
  health?: LabHealth;
  /** Training pages built at once (TRAINING_BUILDS); default 2. */
  trainingBuilds?: number;
  /** A request not answered by then gets a 503 (Redis slow or unreachable). */
  requestTimeoutMs: number;
  /** Where Redis outages are logged; without one, errors are logged as they come. */
  outage?: OutageLog;
  /** Where a sweep's statistics are computed (a thread of their own, cached as JSON text). */
  statistics: SweepStatistics;
  /** Where the models a sweep or a play-page game names are read and checked (a thread of their own, cached by file). */
  models: ModelChecks;
  /** Extra routes (the dashboard, in `wonderlab serve`), mounted before the 404 handler. */
  mount?: (app: express.Express) => void;
  /**
   * The play page's games (their store and the threads their agents think on, PLAY_MOVE_SECONDS and
   * PLAY_NEW_PER_MINUTE); without them, /api/play is not served.
   */
  play?: { store: PlayStore; tables: PlayTables; moveSeconds: number; newPerMinute: number };
}

export function createApp(o: AppOptions): { app: express.Express; close: () => void } {
  const { store, logger, limits } = o;
  const events = new SweepEvents(store, o.eventsIntervalMs, logger, o.outage);
  const roster = new WorkerRoster(store.redis, store.keys);
  const metrics = new LabMetrics(store, o.queue, undefined, o.health, roster);
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);

  app.use(accessLog(logger, { quiet: /^\/(healthz|readyz|metrics)(\?|$)/, ownRequestIds: true, mode: o.accessLog }));
  app.use(metrics.observe());
  // Before any route, so that refusals and errors carry the headers too.
  app.use(securityHeaders());
  app.use(allowedHosts(o.allowedHosts ?? []));
  // Before the request deadline: a move waits for the agents of its step to think (each within the per-move limits).
  if (o.play) {
    const p = o.play;
    app.use(playRoutes({ plays: p.store, tables: p.tables, limits: sweepLimits(limits), moveSeconds: p.moveSeconds, newGames: new RateLimit(p.newPerMinute), health: o.health, models: o.models, requireToken: requireToken(o.apiToken), json: jsonBody(limits), contentType: requireJsonContentType }));
  }
  // Before the request deadline too: a training page is CPU and disk work, bounded by its size and TRAINING_BUILDS.
  app.use(trainingRoutes(store, { builds: o.trainingBuilds ?? 2 }));
  app.use(requestDeadline(o.requestTimeoutMs));
  app.use('/api', requireJsonContentType);

  // Bodies are read only by the routes that take one, after their token check: a client without
  // the token, or a path that does not exist, never gets a body parsed.
  app.use(healthRoutes(store, metrics, o.health));
  app.use(workerRoutes(roster));
  app.use(schemaRoutes());
  app.use(sweepRoutes({ store, feeder: o.feeder, events, statistics: o.statistics, creator: o.creator, limits, logger, requireToken: requireToken(o.apiToken), json: jsonBody(limits), health: o.health }));
  app.use(gameRoutes(store, limits));
  if (o.ladder) app.use(ladderRoutes(o.ladder));
  app.use(exportRoutes(store));
  app.use(ratingsRoutes(store, o.statistics));
  app.use(summaryRoutes(store, o.statistics));
  o.mount?.(app);
  // Every unknown path, not only /api's: express's own 404 page would replace the security headers.
  app.use(noSuchRoute);
  app.use(errorHandler(limits, logger, o.outage));

  return { app, close: () => events.close() };
}
