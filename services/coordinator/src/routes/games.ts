/** A sweep's games: a page of them with their state, one game's summary and record, its timeline. */
import { Router } from 'express';
import { timeline } from '@wonderlab/shared';
import type { SweepStore } from '@wonderlab/shared/store';
import { GameParams, GamesQuery, TimelineQuery } from '../api-schemas.js';
import type { LimitsConfig } from '../config.js';
import { HttpError, parse } from '../http.js';
import { findSweep } from './find.js';

/** A point-of-view seat within the game's seats (a 400 naming query.seat otherwise). */
export function viewerSeat(seat: number | undefined, players: number): number | undefined {
  if (seat !== undefined && seat >= players) throw new HttpError(400, `query.seat: expected a seat from 0 to ${players - 1}`, 'query.seat');
  return seat;
}

export function gameRoutes(store: SweepStore, limits: LimitsConfig): Router {
  const router = Router();
  const page = GamesQuery(limits.MAX_PAGE_ITEMS);

  router.get('/api/sweeps/:id/games', async (req, res) => {
    const meta = await findSweep(store, req);
    const { offset, limit } = parse(page, req.query, 'query');
    const { sweep } = (await store.reads.load(meta.id))!;
    const indices: number[] = [];
    for (let k = offset; k < Math.min(meta.total, offset + limit); k++) indices.push(k);
    const plans = indices.map((k) => sweep.game(k));
    const [summaries, errors, outstanding] = await Promise.all([store.reads.results(meta.id, plans.map((p) => p.id)), store.reads.failureErrors(meta.id, indices), store.reads.outstanding(meta.id)]);
    const queued = new Set(outstanding);
    // A game of a decided cell whose place in the order the cursor has passed without queueing it: skipped.
    const decided = meta.spec.stop ? new Set([...(await store.reads.stopStates(meta.id))].filter(([, st]) => st.decision && st.decision !== 'max').map(([cell]) => cell)) : undefined;
    const skipped = (k: number, cell: number) => decided?.has(cell) === true && sweep.positionOf(k) < meta.cursor;
    res.json({
      offset,
      limit,
      total: meta.total,
      items: plans.map((plan, i) => {
        const summary = summaries[i];
        const error = errors[i];
        const state = summary ? 'done' : error ? 'failed' : queued.has(plan.index) ? 'queued' : skipped(plan.index, plan.cell) ? 'skipped' : 'pending';
        return { index: plan.index, id: plan.id, cell: plan.cell, state, ...(summary ? { summary } : {}), ...(error ? { error } : {}) };
      }),
    });
  });

  router.get('/api/sweeps/:id/games/:gameId', async (req, res) => {
    const { id, gameId } = parse(GameParams, req.params, 'params');
    if (!(await store.reads.meta(id))) throw new HttpError(404, `no sweep '${id}'`);
    const [summary] = await store.reads.results(id, [gameId]);
    if (!summary) throw new HttpError(404, `game '${gameId}' of sweep '${id}' has not been played (or does not exist)`);
    const record = await store.reads.gameRecord(id, gameId);
    res.json({ ...summary, ...(record ? { record } : {}) });
  });

  router.get('/api/sweeps/:id/games/:gameId/timeline', async (req, res) => {
    const { id, gameId } = parse(GameParams, req.params, 'params');
    if (!(await store.reads.meta(id))) throw new HttpError(404, `no sweep '${id}'`);
    const { seat } = parse(TimelineQuery, req.query, 'query');
    const record = await store.reads.gameRecord(id, gameId);
    if (!record) throw new HttpError(404, `game '${gameId}' of sweep '${id}' has no stored record (not played yet, or the sweep has keepRecords: false)`);
    res.json({ steps: timeline(record, viewerSeat(seat, record.config.players)) });
  });
  return router;
}
