/**
 * GET /api/workers: the workers the lab has heard from (store/worker-roster.ts) — those seen in
 * the last minute, with their game slots, and those gone silent without stopping (lost capacity:
 * killed, crashed or cut off from Redis). The dashboard's sweeps page shows it; /metrics counts it.
 */
import { Router } from 'express';
import { SEEN_WINDOW_MS, type WorkerRoster } from '@wonderlab/shared/store';

export const WORKERS_ROUTE = '/api/workers';

export function workerRoutes(roster: WorkerRoster): Router {
  const router = Router();
  router.get(WORKERS_ROUTE, async (_req, res) => {
    const { seen, silent } = await roster.read();
    res.json({ seenWithinSeconds: SEEN_WINDOW_MS / 1000, slots: seen.reduce((sum, w) => sum + w.slots, 0), seen, silent });
  });
  return router;
}
