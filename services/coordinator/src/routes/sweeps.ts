/**
 * Sweeps: validate and create (checked against the lab's limits before anything is stored), list,
 * detail (a page of cells), live events, and the actions (pause, resume, cancel, retry-failed).
 */
import { Router, type RequestHandler } from 'express';
import type { Logger } from 'pino';
import { SweepSpecError, steppedTune, type SweepCost } from '@wonderlab/shared';
import type { SweepMeta, SweepStatus, SweepStore } from '@wonderlab/shared/store';
import { DetailQuery, ListQuery } from '../api-schemas.js';
import type { LimitsConfig } from '../config.js';
import type { SweepEvents } from '../events.js';
import type { Feeder } from '../feeder.js';
import type { LabHealth } from '../lab-health.js';
import type { SweepCreator } from '../sweep-creator.js';
import { HttpError, parse } from '../http.js';
import { sweepDetail, sweepOverview } from '../views.js';
import { findSweep } from './find.js';
import type { SweepStatistics } from '../statistics.js';

export interface SweepRouteDeps {
  store: SweepStore;
  feeder: Feeder;
  events: SweepEvents;
  statistics: SweepStatistics;
  /** Checks and stores new sweeps (sweep-creator.ts). */
  creator: SweepCreator;
  limits: LimitsConfig;
  logger: Logger;
  requireToken: RequestHandler;
  json: RequestHandler;
  /** Refuses new sweeps (503) while Redis is out of memory or lost the lab's data. */
  health?: LabHealth;
}

/** The estimate as the API gives it: three significant digits. */
const estimateOf = (cost: SweepCost) => ({ cpuHours: Number(cost.cpuHours.toPrecision(3)), maxGameSeconds: Number(cost.maxGameSeconds.toPrecision(3)) });

export function sweepRoutes(d: SweepRouteDeps): Router {
  const { store, feeder, logger } = d;
  const router = Router();
  const list = ListQuery(d.limits.MAX_PAGE_ITEMS);
  const detail = DetailQuery(d.limits.MAX_PAGE_CELLS);

  /** The body as a valid spec within the lab's limits, or a 400 naming the field. */
  const refused = (err: unknown): never => {
    if (err instanceof SweepSpecError) {
      throw new HttpError(400, err.message, err.field, err.problems.map((p) => ({ field: p.field, error: `${p.field}: ${p.message}` })));
    }
    throw err;
  };
  const asSpecBody = (body: unknown) => {
    if (body === undefined || typeof body !== 'object' || Array.isArray(body) || body === null) {
      throw new HttpError(400, 'the body must be a sweep spec: a JSON object (Content-Type: application/json)', '(body)');
    }
    return body;
  };

  // Changes nothing, so no token: the submit page checks specs with it as you type.
  router.post('/api/sweeps/validate', d.json, async (req, res) => {
    const { size, cost } = await d.creator.check(asSpecBody(req.body)).catch(refused);
    res.json({ ok: true, games: size.total, cells: size.cells, gamesPerCell: size.gamesPerCell, estimate: estimateOf(cost) });
  });

  router.post('/api/sweeps', d.requireToken, d.json, async (req, res) => {
    const body = asSpecBody(req.body);
    const checked = await d.creator.check(body).catch(refused);
    const refusedNow = await d.health?.refuseNewWork();
    if (refusedNow) throw new HttpError(503, refusedNow);
    const { meta, size, cost } = await d.creator.create(body, checked);
    res
      .status(201)
      .location(`/api/sweeps/${meta.id}`)
      .json({ id: meta.id, name: meta.name, games: size.total, cells: size.cells, estimate: estimateOf(cost), url: `/sweeps/${meta.id}`, api: `/api/sweeps/${meta.id}` });
  });

  router.get('/api/sweeps', async (req, res) => {
    const { offset, limit } = parse(list, req.query, 'query');
    const metas = await store.reads.list(offset, limit);
    res.json(await Promise.all(metas.map((m) => sweepOverview(store, m))));
  });

  router.get('/api/sweeps/:id', async (req, res) => {
    const meta = await findSweep(store, req);
    const { cellOffset, cellLimit } = parse(detail, req.query, 'query');
    res.type('application/json').send(await sweepDetail(store, meta, { offset: cellOffset, limit: cellLimit }, d.statistics));
  });

  router.get('/api/sweeps/:id/events', async (req, res) => {
    const meta = await findSweep(store, req);
    d.events.subscribe(meta.id, res);
  });

  const action = (name: string, run: (meta: SweepMeta) => Promise<SweepStatus | undefined | number>) => {
    router.post(`/api/sweeps/:id/${name}`, d.requireToken, async (req, res) => {
      const meta = await findSweep(store, req);
      const outcome = await run(meta);
      if (outcome === undefined) throw new HttpError(409, `cannot ${name} a sweep that is ${meta.status}`);
      logger.info({ sweep: meta.id, action: name }, 'sweep action');
      res.json(await sweepOverview(store, (await store.reads.meta(meta.id))!));
    });
  };
  /** The sweep, and for an SPSA or NTBEA tune the steps it has in flight (its games are theirs): what an action acts on. */
  const withSteps = async (meta: SweepMeta) => [meta.id, ...(steppedTune(meta.spec) ? await store.reads.stepsInFlight(meta.id) : [])];
  action('cancel', async (meta) => {
    const old = await store.ledger.transition(meta.id, ['running', 'paused'], 'cancelled', meta.priority);
    if (old) {
      for (const id of await withSteps(meta)) {
        if (id !== meta.id) await store.ledger.transition(id, ['running', 'paused'], 'cancelled', meta.priority);
        await feeder.takeBack(id, 'drop');
      }
    }
    return old;
  });
  /** A tune's step is paused and resumed with its tune, never alone (TuneDriver: a running tune's steps run). */
  const notAStep = (meta: SweepMeta, name: string) => {
    if (meta.stepOf) throw new HttpError(409, `sweep ${meta.id} is a step of tune ${meta.stepOf}: ${name} the tune (POST /api/sweeps/${meta.stepOf}/${name}), which ${name}s its steps`);
  };
  action('pause', async (meta) => {
    notAStep(meta, 'pause');
    const old = await store.ledger.transition(meta.id, ['running'], 'paused', meta.priority);
    if (old) {
      for (const id of await withSteps(meta)) {
        if (id !== meta.id) await store.ledger.transition(id, ['running'], 'paused', meta.priority);
        await feeder.takeBack(id, 'requeue');
      }
    }
    return old;
  });
  action('resume', async (meta) => {
    notAStep(meta, 'resume');
    const old = await store.ledger.transition(meta.id, ['paused'], 'running', meta.priority);
    if (old) {
      await store.ledger.clearSuspension(meta.id);
      for (const id of await withSteps(meta)) {
        if (id === meta.id) continue;
        await store.ledger.transition(id, ['paused'], 'running', meta.priority);
        // A step suspended by its outside agent counts afresh, as its tune does.
        await store.ledger.clearSuspension(id);
      }
    }
    feeder.kick();
    return old;
  });
  action('retry-failed', async (meta) => {
    const n = await store.ledger.retryFailed(meta.id, meta.priority);
    if (n < 0) return undefined;
    feeder.kick();
    return n;
  });
  return router;
}
