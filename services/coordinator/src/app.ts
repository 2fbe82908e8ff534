/**
 * The coordinator's HTTP API (express). Routes validate their input with zod; every error is a
 * JSON body `{ error, field? }` with a 4xx status, never a crash.
 */
import { timingSafeEqual } from 'node:crypto';
import express, { type NextFunction, type Request, type Response } from 'express';
import type { Queue } from 'bullmq';
import type { Logger } from 'pino';
import { z } from 'zod';
import { SCORE_CATEGORIES, Sweep, SweepSpecError, countSweepGames, parseSweepSpec, timeline, type GameSummary } from '@wonderlab/shared';
import { type GameJobData, type SweepMeta, type SweepStatus, type SweepStore } from '@wonderlab/shared/store';
import { ExportQuery, GameParams, GamesQuery, SweepIdParams } from './api-schemas.js';
import { SweepEvents } from './events.js';
import type { Feeder } from './feeder.js';
import { BACKLOG_FIELD, BACKLOG_ROUTE, RateTracker, backlog, prometheusText } from './metrics.js';
import { openApiDocument, sweepSpecJsonSchema } from './openapi.js';
import { sweepDetail, sweepOverview } from './views.js';

export interface AppOptions {
  store: SweepStore;
  queue: Queue<GameJobData>;
  feeder: Feeder;
  logger: Logger;
  apiToken?: string;
  maxGames: number;
  eventsIntervalMs: number;
  /** Extra routes (the dashboard, in embedded mode), mounted before the 404 handler. */
  mount?: (app: express.Express) => void;
}

/** An error that becomes a JSON response. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

function parse<S extends z.ZodType>(schema: S, value: unknown, where: string): z.infer<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = [where, ...issue.path].join('.');
  throw new HttpError(400, `${field}: ${issue.message}`, field);
}

function tokenMatches(header: string | undefined, token: string): boolean {
  const expected = Buffer.from(`Bearer ${token}`);
  const given = Buffer.from(header ?? '');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

const CSV_HEADER = [
  'sweep', 'index', 'game', 'cell', 'set', 'deal', 'seating', 'seed', 'decided_by', 'seat', 'agent', 'board', 'side',
  'vp', ...SCORE_CATEGORIES.map((c) => `vp_${c}`), 'coins', 'stages', 'winner', 'rank', 'decisions', 'decision_ms', 'iterations', 'cut_short',
];

function csvCell(value: unknown): string {
  const text = String(value);
  return /[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function csvRows(sweepId: string, cell: number, g: GameSummary): string {
  return g.players
    .map((p) =>
      [
        sweepId, g.index, g.id, cell, g.set, g.deal, g.seating, g.seed, g.decidedBy, p.seat, p.agent, p.city, p.side,
        p.score.total, ...SCORE_CATEGORIES.map((c) => p.score[c]), p.coins, p.stages, p.winner ? 1 : 0, p.rank, p.decisions,
        p.decisionMs.toFixed(3), p.iterations, p.cutShort,
      ]
        .map(csvCell)
        .join(','),
    )
    .join('\n');
}

export function createApp(o: AppOptions): { app: express.Express; close: () => void } {
  const { store, queue, feeder, logger } = o;
  const events = new SweepEvents(store, o.eventsIntervalMs, logger);
  const rate = new RateTracker();
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);

  app.use((req, res, next) => {
    const started = performance.now();
    res.on('finish', () => {
      const ms = Math.round(performance.now() - started);
      const level = res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'debug';
      logger[level]({ method: req.method, url: req.originalUrl, status: res.statusCode, ms }, 'request');
    });
    next();
  });
  const requireToken = (req: Request, _res: Response, next: NextFunction) => {
    if (o.apiToken && !tokenMatches(req.get('authorization'), o.apiToken)) {
      throw new HttpError(401, 'this route needs the header Authorization: Bearer <API_TOKEN>');
    }
    next();
  };
  // Every mutating route is a POST: check the token before reading the body.
  // /api/sweeps/validate changes nothing: the submit page checks specs with it as you type.
  app.use((req, res, next) => (req.method === 'POST' && req.path !== '/api/sweeps/validate' ? requireToken(req, res, next) : next()));
  app.use(express.json({ limit: '1mb' }));

  const findSweep = async (req: Request): Promise<SweepMeta> => {
    const { id } = parse(SweepIdParams, req.params, 'params');
    const meta = await store.meta(id);
    if (!meta) throw new HttpError(404, `no sweep '${id}'`);
    return meta;
  };

  app.get('/healthz', (_req, res) => {
    res.json({ ok: true });
  });
  app.get('/readyz', async (_req, res) => {
    try {
      await store.redis.ping();
      res.json({ ok: true });
    } catch (err) {
      res.status(503).json({ ok: false, error: `redis: ${(err as Error).message}` });
    }
  });
  app.get('/metrics', async (_req, res) => {
    res.type('text/plain; version=0.0.4').send(await prometheusText(store, queue, rate));
  });
  app.get('/api/openapi.json', (_req, res) => {
    res.json(openApiDocument());
  });
  app.get('/api/schema/sweep-spec.json', (_req, res) => {
    res.json(sweepSpecJsonSchema());
  });
  app.get(BACKLOG_ROUTE, async (_req, res) => {
    res.json({ [BACKLOG_FIELD]: await backlog(store) });
  });

  /** The body as a valid spec within the game limit, or a 400 naming the field. */
  const validSpec = (body: unknown) => {
    if (body === undefined || typeof body !== 'object' || Array.isArray(body) || body === null) {
      throw new HttpError(400, 'the body must be a sweep spec: a JSON object (Content-Type: application/json)', '(body)');
    }
    let spec;
    try {
      spec = parseSweepSpec(body);
    } catch (err) {
      if (err instanceof SweepSpecError) throw new HttpError(400, err.message, err.field);
      throw err;
    }
    const count = countSweepGames(spec);
    if (count.total > o.maxGames) {
      throw new HttpError(
        400,
        `deals.count: the sweep has ${count.total} games (${count.cells} cells × ${count.gamesPerCell}), over this lab's limit of ${o.maxGames} (MAX_GAMES)`,
        'deals.count',
      );
    }
    return { spec, count };
  };

  app.post('/api/sweeps/validate', (req, res) => {
    const { count } = validSpec(req.body);
    res.json({ ok: true, games: count.total, cells: count.cells, gamesPerCell: count.gamesPerCell });
  });

  app.post('/api/sweeps', async (req, res) => {
    const { spec, count } = validSpec(req.body);
    const meta = await store.create(spec, new Sweep(spec));
    logger.info({ sweep: meta.id, name: meta.name, games: meta.total }, 'sweep created');
    feeder.kick();
    res
      .status(201)
      .location(`/api/sweeps/${meta.id}`)
      .json({ id: meta.id, name: meta.name, games: meta.total, cells: count.cells, url: `/api/sweeps/${meta.id}` });
  });

  app.get('/api/sweeps', async (_req, res) => {
    const metas = await store.list();
    res.json(await Promise.all(metas.map((m) => sweepOverview(store, m))));
  });

  app.get('/api/sweeps/:id', async (req, res) => {
    res.json(await sweepDetail(store, await findSweep(req)));
  });

  app.get('/api/sweeps/:id/games', async (req, res) => {
    const meta = await findSweep(req);
    const { offset, limit } = parse(GamesQuery, req.query, 'query');
    const { sweep } = (await store.load(meta.id))!;
    const indices: number[] = [];
    for (let k = offset; k < Math.min(meta.total, offset + limit); k++) indices.push(k);
    const plans = indices.map((k) => sweep.game(k));
    const [summaries, failed] = await Promise.all([
      store.results(meta.id, plans.map((p) => p.id)),
      indices.length ? store.redis.hmget(store.keys.sweep(meta.id).failed, ...indices.map(String)) : Promise.resolve([]),
    ]);
    const outstanding = new Set(await store.outstanding(meta.id));
    res.json({
      offset,
      limit,
      total: meta.total,
      items: plans.map((plan, i) => {
        const summary = summaries[i];
        const error = failed[i];
        const state = summary ? 'done' : error ? 'failed' : outstanding.has(plan.index) ? 'queued' : 'pending';
        return { index: plan.index, id: plan.id, cell: plan.cell, state, ...(summary ? { summary } : {}), ...(error ? { error } : {}) };
      }),
    });
  });

  app.get('/api/sweeps/:id/games/:gameId', async (req, res) => {
    const { id, gameId } = parse(GameParams, req.params, 'params');
    if (!(await store.meta(id))) throw new HttpError(404, `no sweep '${id}'`);
    const [summary] = await store.results(id, [gameId]);
    if (!summary) throw new HttpError(404, `game '${gameId}' of sweep '${id}' has not been played (or does not exist)`);
    const record = await store.gameRecord(id, gameId);
    res.json({ ...summary, ...(record ? { record } : {}) });
  });

  app.get('/api/sweeps/:id/games/:gameId/timeline', async (req, res) => {
    const { id, gameId } = parse(GameParams, req.params, 'params');
    if (!(await store.meta(id))) throw new HttpError(404, `no sweep '${id}'`);
    const record = await store.gameRecord(id, gameId);
    if (!record) throw new HttpError(404, `game '${gameId}' of sweep '${id}' has no stored record (not played yet, or the sweep has keepRecords: false)`);
    res.json({ steps: timeline(record) });
  });

  app.get('/api/sweeps/:id/export', async (req, res) => {
    const meta = await findSweep(req);
    const { format } = parse(ExportQuery, req.query, 'query');
    const { sweep } = (await store.load(meta.id))!;
    const filename = `${meta.name.replace(/[^A-Za-z0-9_.-]+/g, '_')}-${meta.id}.${format}`;
    res.setHeader('content-type', format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8');
    res.setHeader('content-disposition', `attachment; filename="${filename}"`);
    const write = (text: string) => (res.write(text) ? Promise.resolve() : new Promise<void>((resolve) => res.once('drain', resolve)));
    if (format === 'csv') await write(CSV_HEADER.join(',') + '\n');
    const CHUNK = 500;
    let aborted = false;
    req.on('close', () => (aborted = true));
    for (let start = 0; start < meta.total && !aborted; start += CHUNK) {
      const plans: ReturnType<typeof sweep.game>[] = [];
      for (let k = start; k < Math.min(meta.total, start + CHUNK); k++) plans.push(sweep.game(k));
      const summaries = await store.results(meta.id, plans.map((p) => p.id));
      const lines: string[] = [];
      summaries.forEach((g, i) => {
        if (g) lines.push(format === 'csv' ? csvRows(meta.id, plans[i].cell, g) : JSON.stringify({ sweep: meta.id, cell: plans[i].cell, ...g }));
      });
      if (lines.length) await write(lines.join('\n') + '\n');
    }
    res.end();
  });

  app.get('/api/sweeps/:id/events', async (req, res) => {
    const meta = await findSweep(req);
    events.subscribe(meta.id, res);
  });

  const action = (name: string, run: (meta: SweepMeta) => Promise<SweepStatus | undefined | number>) => {
    app.post(`/api/sweeps/:id/${name}`, async (req, res) => {
      const meta = await findSweep(req);
      const outcome = await run(meta);
      if (outcome === undefined) throw new HttpError(409, `cannot ${name} a sweep that is ${meta.status}`);
      logger.info({ sweep: meta.id, action: name }, 'sweep action');
      res.json(await sweepOverview(store, (await store.meta(meta.id))!));
    });
  };
  action('cancel', async (meta) => {
    const old = await store.transition(meta.id, ['running', 'paused'], 'cancelled', meta.priority);
    if (old) await feeder.takeBack(meta.id, 'drop');
    return old;
  });
  action('pause', async (meta) => {
    const old = await store.transition(meta.id, ['running'], 'paused', meta.priority);
    if (old) await feeder.takeBack(meta.id, 'requeue');
    return old;
  });
  action('resume', async (meta) => {
    const old = await store.transition(meta.id, ['paused'], 'running', meta.priority);
    feeder.kick();
    return old;
  });
  action('retry-failed', async (meta) => {
    const n = await store.retryFailed(meta.id, meta.priority);
    if (n < 0) return undefined;
    feeder.kick();
    return n;
  });

  o.mount?.(app);

  app.use('/api', (_req, _res) => {
    throw new HttpError(404, 'no such route (see /api/openapi.json)');
  });

  // Express 5 passes rejected promises of async handlers here.
  app.use((err: unknown, _req: Request, res: Response, _next: NextFunction) => {
    const e = err as { type?: string; status?: number; message?: string };
    if (err instanceof HttpError) {
      res.status(err.status).json({ error: err.message, ...(err.field ? { field: err.field } : {}) });
    } else if (e.type === 'entity.parse.failed') {
      res.status(400).json({ error: `the body is not valid JSON: ${e.message}`, field: '(body)' });
    } else if (e.type === 'entity.too.large') {
      res.status(413).json({ error: 'the body is larger than 1 MB', field: '(body)' });
    } else if (typeof e.status === 'number' && e.status >= 400 && e.status < 500) {
      res.status(e.status).json({ error: e.message ?? 'bad request' });
    } else {
      logger.error({ err }, 'request failed');
      if (res.headersSent) res.end();
      else res.status(500).json({ error: 'internal error (see the coordinator log)' });
    }
  });

  return { app, close: () => events.close() };
}
