/**
 * A sweep's configurations against each other: the head-to-head matrix ("row scores more VP than
 * column in the same game", ties half, Wilson intervals) and Bradley–Terry ratings on the Elo
 * scale with 95 % intervals, all computed in the lab library from the aggregates; the fit runs off
 * the event loop (RatingFits) and may be served as of fewer games than are done (ratingsFit says).
 */
import { Router } from 'express';
import { groupAggregateTable, headToHeadOf, sweepVersus, versusProblem, type RatingFits } from '@wonderlab/shared';
import type { SweepStore } from '@wonderlab/shared/store';
import { RatingsQuery } from '../api-schemas.js';
import { HttpError, parse } from '../http.js';
import { findSweep } from './find.js';

export function ratingsRoutes(store: SweepStore, fits: RatingFits, fitWaitMs: number): Router {
  const router = Router();
  router.get('/api/sweeps/:id/ratings', async (req, res) => {
    const meta = await findSweep(store, req);
    const { anchor } = parse(RatingsQuery, req.query, 'query');
    const [loaded, table] = await Promise.all([store.load(meta.id), store.aggregateTable(meta.id)]);
    const versus = sweepVersus(groupAggregateTable(table), loaded!.sweep);
    const head = { id: meta.id, name: meta.name, status: meta.status, done: meta.done };
    if (!versus) {
      res.json({ ...head, headToHead: null, ratings: null, note: 'fewer than two agent configurations: nothing to compare' });
      return;
    }
    let fit;
    try {
      fit = await fits.get(`sweep:${meta.id}:${anchor ?? ''}`, meta.done, () => versusProblem(versus, anchor), fitWaitMs);
    } catch (err) {
      if (err instanceof RangeError) throw new HttpError(400, `query.anchor: ${err.message}`, 'query.anchor');
      throw err;
    }
    const h2h = headToHeadOf(versus);
    res.json({
      ...head,
      headToHead: 'headToHead' in h2h ? h2h.headToHead : null,
      ...('headToHeadNote' in h2h ? { note: h2h.headToHeadNote } : {}),
      ratings: fit?.ratings ?? null,
      ratingsFit: fit ? { done: fit.version, fittedAt: new Date(fit.fittedAt).toISOString(), current: fit.current } : { done: null, fittedAt: null, current: false },
    });
  });
  return router;
}
