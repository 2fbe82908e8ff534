/**
 * A sweep's configurations against each other: the head-to-head matrix ("row scores more VP than
 * column in the same game", ties half, Wilson intervals) and Bradley–Terry ratings on the Elo
 * scale with 95 % intervals, all computed in the lab library from the aggregates — on the
 * statistics thread (statistics.ts), cached by the games done, so a large sweep's table is neither
 * read nor fitted on the event loop; `statisticsAsOf` says which games they are of.
 */
import { Router } from 'express';
import type { SweepStore } from '@wonderlab/shared/store';
import { RatingsQuery } from '../api-schemas.js';
import { HttpError, parse } from '../http.js';
import type { SweepStatistics } from '../statistics.js';
import { findSweep } from './find.js';

export function ratingsRoutes(store: SweepStore, statistics: SweepStatistics): Router {
  const router = Router();
  router.get('/api/sweeps/:id/ratings', async (req, res) => {
    const meta = await findSweep(store, req);
    const { anchor } = parse(RatingsQuery, req.query, 'query');
    let versus;
    try {
      versus = await statistics.versus(meta, anchor);
    } catch (err) {
      if ((err as Error).name === 'RangeError') throw new HttpError(400, `query.anchor: ${(err as Error).message}`, 'query.anchor');
      throw err;
    }
    const head = { id: meta.id, name: meta.name, status: meta.status, done: meta.done, statisticsAsOf: versus.asOf };
    res.type('application/json').send(`${JSON.stringify(head).slice(0, -1)},${versus.json.slice(1)}`);
  });
  return router;
}
