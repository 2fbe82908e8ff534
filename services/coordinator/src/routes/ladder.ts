/** The lab's one rating ladder over every sweep (issue 18). */
import { Router } from 'express';
import { z } from 'zod';
import type { LadderService } from '../ladder.js';
import { configOf } from '@wonderlab/shared';
import { HttpError, parse } from '../http.js';

const LadderQuery = z.strictObject({ anchor: z.string().min(1).max(500).optional() });

export function ladderRoutes(ladder: LadderService): Router {
  const router = Router();
  router.get('/api/ratings', async (req, res) => {
    const { anchor } = parse(LadderQuery, req.query, 'query');
    let canonical: string | undefined;
    try {
      canonical = anchor === undefined ? undefined : configOf(anchor);
    } catch (err) {
      throw new HttpError(400, `anchor: ${(err as Error).message}`, 'query.anchor');
    }
    res.json(await ladder.report(canonical));
  });
  return router;
}
