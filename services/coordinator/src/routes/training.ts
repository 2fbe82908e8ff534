/**
 * A page of a sweep's games as training rows (lab/results/training-rows.ts), one .npz archive.
 *
 * A page is CPU work (each game's log is replayed, ~1 ms a game at 3 players) and, whole, hundreds
 * of MB, so: the rows go to a spool on disk a few games at a time and the archive is streamed from
 * it (memory does not grow with the page); the replay yields to the event loop every few ms; at
 * most TRAINING_BUILDS pages are built at once, a request past that gets a 429 with Retry-After
 * (the work it would add is not started); a client that hangs up stops its page's work. Mounted
 * before the request deadline: a page is not waiting on Redis (each Redis read has its own command
 * timeout, and a failed one is a 503 that says so).
 */
import { Router } from 'express';
import { TrainingSpool, displayName } from '@wonderlab/shared';
import type { SweepStore } from '@wonderlab/shared/store';
import { TrainingQuery } from '../api-schemas.js';
import { HttpError, parse } from '../http.js';
import { findSweep } from './find.js';

/** Games read from Redis at a time. */
const READ_GAMES = 50;
/** The longest the replay holds the event loop before it lets other requests in. */
const SLICE_MS = 5;

export interface TrainingRouteOptions {
  /** Pages built at once (TRAINING_BUILDS). */
  builds: number;
}

export function trainingRoutes(store: SweepStore, o: TrainingRouteOptions): Router {
  const router = Router();
  let building = 0;

  router.get('/api/sweeps/:id/training', async (req, res) => {
    const meta = await findSweep(store, req);
    const query = parse(TrainingQuery, req.query, 'query');
    if (!meta.spec.keepRecords) throw new HttpError(409, `sweep '${meta.id}' keeps no move records (keepRecords: false): it has no training rows`);
    if (building >= o.builds) {
      res.set('retry-after', '5');
      throw new HttpError(429, `the lab is building ${building} training page${building === 1 ? '' : 's'} already, its limit (TRAINING_BUILDS): retry in a few seconds`);
    }
    building++;
    let spool: TrainingSpool | undefined;
    let gone = false;
    res.on('close', () => (gone = !res.writableFinished));
    try {
      const { sweep } = (await store.reads.load(meta.id))!;
      // The agent as the sweep wrote it, or in any spelling of the same agent (mcts:100 is mcts).
      const agent = query.agent === undefined ? undefined : displayName(query.agent);
      const from = Math.min(query.from, meta.total);
      const to = Math.min(meta.total, from + query.games);
      spool = await TrainingSpool.create(meta.spec.players);
      let games = 0;
      let unplayed = 0;
      let slice = performance.now();
      for (let start = from; start < to; start += READ_GAMES) {
        if (gone) return;
        const plans: ReturnType<typeof sweep.game>[] = [];
        for (let k = start; k < Math.min(to, start + READ_GAMES); k++) plans.push(sweep.game(k));
        const ids = plans.map((p) => p.id);
        const [summaries, logs] = await Promise.all([store.reads.results(meta.id, ids), store.reads.moveLogs(meta.id, ids)]);
        for (const [i, summary] of summaries.entries()) {
          const log = logs[i];
          if (!summary || !log) {
            unplayed++;
            continue;
          }
          const wanted = summary.players.map((p) => agent === undefined || p.agent === query.agent || p.canonical === agent);
          spool.addGame(log, start + i, (seat) => wanted[seat]);
          games++;
          if (spool.full) await spool.flush();
          if (performance.now() - slice > SLICE_MS) {
            await new Promise((resolve) => setImmediate(resolve));
            if (gone) return;
            slice = performance.now();
          }
        }
      }
      const filename = `${meta.name.replace(/[^A-Za-z0-9_.-]+/g, '_')}-${meta.id}-training-${from}-${to}.npz`;
      res.setHeader('content-type', 'application/octet-stream');
      res.setHeader('content-disposition', `attachment; filename="${filename}"`);
      res.setHeader('x-training-games', `${from}-${to}`);
      // The next page's `from`, for clients that page through a sweep (absent at its end).
      if (to < meta.total) res.setHeader('x-training-next', String(to));
      await spool.writeArchive(res, {
        sweep: meta.id,
        name: meta.name,
        ...(meta.code ? { code: meta.code } : {}),
        training: meta.spec.training,
        from,
        to,
        next: to < meta.total ? to : null,
        games,
        unplayed,
        ...(query.agent !== undefined ? { agent: query.agent } : {}),
      });
      res.end();
    } catch (err) {
      if (gone) return;
      // Streaming already: the archive is cut short (the client sees it incomplete), not patched.
      if (res.headersSent) res.destroy(err as Error);
      throw err;
    } finally {
      building--;
      await spool?.close();
    }
  });
  return router;
}
