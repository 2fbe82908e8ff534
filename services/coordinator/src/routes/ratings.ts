/**
 * A sweep's configurations against each other: the head-to-head matrix ("row scores more VP than
 * column in the same game", ties half, Wilson intervals) and Bradley–Terry ratings on the Elo
 * scale with 95 % intervals, all computed in the lab library from the aggregates.
 */
import { Router } from 'express';
import { groupAggregateTable, headToHeadAndRatings } from '@wonderlab/shared';
import type { SweepStore } from '@wonderlab/shared/store';
import { RatingsQuery } from '../api-schemas.js';
import { HttpError, parse } from '../http.js';
import { findSweep } from './find.js';

export function ratingsRoutes(store: SweepStore): Router {
  const router = Router();
  router.get('/api/sweeps/:id/ratings', async (req, res) => {
    const meta = await findSweep(store, req);
    const { anchor } = parse(RatingsQuery, req.query, 'query');
    const [loaded, table] = await Promise.all([store.load(meta.id), store.aggregateTable(meta.id)]);
    let versus;
    try {
      versus = headToHeadAndRatings(groupAggregateTable(table), loaded!.sweep, anchor);
    } catch (err) {
      if (err instanceof RangeError) throw new HttpError(400, `query.anchor: ${err.message}`, 'query.anchor');
      throw err;
    }
    res.json({
      id: meta.id,
      name: meta.name,
      status: meta.status,
      done: meta.done,
      ...(versus ?? { headToHead: null, ratings: null, note: 'fewer than two agent configurations: nothing to compare' }),
    });
  });
  return router;
}
