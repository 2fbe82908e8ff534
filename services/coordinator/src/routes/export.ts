/**
 * Every finished game of a sweep, streamed a chunk at a time whatever the sweep's size: CSV with one
 * row per seat (for R / pandas), or JSONL with one summary per line.
 */
import { Router } from 'express';
import { SCORE_CATEGORIES, TrainingRows, configOf, displayName, trainingArchive, type GameSummary } from '@wonderlab/shared';
import type { SweepStore } from '@wonderlab/shared/store';
import { ExportQuery, TrainingQuery } from '../api-schemas.js';
import { HttpError, parse } from '../http.js';
import { findSweep } from './find.js';

const CSV_HEADER = [
  'sweep', 'index', 'game', 'cell', 'set', 'deal', 'seating', 'seed', 'decided_by', 'seat', 'agent', 'board', 'side',
  'vp', ...SCORE_CATEGORIES.map((c) => `vp_${c}`), 'coins', 'stages', 'winner', 'rank', 'decisions', 'decision_ms', 'iterations', 'cut_short',
  // The agent's canonical spec (the name the dashboard shows); last, so the columns before keep their places.
  'config',
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
        p.decisionMs.toFixed(3), p.iterations, p.cutShort, configOf(p.agent),
      ]
        .map(csvCell)
        .join(','),
    )
    .join('\n');
}

/** Games read from Redis at a time. */
const CHUNK = 500;

export function exportRoutes(store: SweepStore): Router {
  const router = Router();
  router.get('/api/sweeps/:id/export', async (req, res) => {
    const meta = await findSweep(store, req);
    const { format } = parse(ExportQuery, req.query, 'query');
    const { sweep } = (await store.load(meta.id))!;
    const filename = `${meta.name.replace(/[^A-Za-z0-9_.-]+/g, '_')}-${meta.id}.${format}`;
    res.setHeader('content-type', format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8');
    res.setHeader('content-disposition', `attachment; filename="${filename}"`);
    const write = (text: string) => (res.write(text) ? Promise.resolve() : new Promise<void>((resolve) => res.once('drain', resolve)));
    if (format === 'csv') await write(CSV_HEADER.join(',') + '\n');
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

  // A page of the sweep's games as training rows (lab/results/training-rows.ts), one .npz archive.
  router.get('/api/sweeps/:id/training', async (req, res) => {
    const meta = await findSweep(store, req);
    const query = parse(TrainingQuery, req.query, 'query');
    if (!meta.spec.keepRecords) throw new HttpError(409, `sweep '${meta.id}' keeps no move records (keepRecords: false): it has no training rows`);
    const { sweep } = (await store.load(meta.id))!;
    // The agent as the sweep wrote it, or in any spelling of the same agent (mcts:100 is mcts).
    const agent = query.agent === undefined ? undefined : displayName(query.agent);
    const from = Math.min(query.from, meta.total);
    const to = Math.min(meta.total, from + query.games);
    const rows = new TrainingRows(meta.spec.players);
    let games = 0;
    let unplayed = 0;
    let aborted = false;
    req.on('close', () => (aborted = true));
    for (let start = from; start < to && !aborted; start += TRAINING_CHUNK) {
      const plans: ReturnType<typeof sweep.game>[] = [];
      for (let k = start; k < Math.min(to, start + TRAINING_CHUNK); k++) plans.push(sweep.game(k));
      const ids = plans.map((p) => p.id);
      const [summaries, logs] = await Promise.all([store.results(meta.id, ids), store.moveLogs(meta.id, ids)]);
      plans.forEach((plan, i) => {
        const summary = summaries[i];
        const log = logs[i];
        if (!summary || !log) {
          unplayed++;
          return;
        }
        const wanted = summary.players.map((p) => agent === undefined || p.agent === query.agent || p.canonical === agent);
        rows.addGame(log, start + i, (seat) => wanted[seat]);
        games++;
      });
      // Replaying is CPU work: let the event loop serve others between chunks.
      await new Promise((resolve) => setImmediate(resolve));
    }
    if (aborted) return;
    const archive = await trainingArchive(rows, {
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
    const filename = `${meta.name.replace(/[^A-Za-z0-9_.-]+/g, '_')}-${meta.id}-training-${from}-${to}.npz`;
    res.setHeader('content-type', 'application/octet-stream');
    res.setHeader('content-disposition', `attachment; filename="${filename}"`);
    res.setHeader('x-training-games', `${from}-${to}`);
    // The next page's `from`, for clients that page through a sweep (absent at its end).
    if (to < meta.total) res.setHeader('x-training-next', String(to));
    res.end(archive);
  });
  return router;
}

/** Games replayed between two turns of the event loop (a few ms at 3 players). */
const TRAINING_CHUNK = 50;
