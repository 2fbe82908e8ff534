/**
 * Every finished game of a sweep, streamed a chunk at a time whatever the sweep's size: CSV with one
 * row per seat (for R / pandas), or JSONL with one summary per line. An SPSA or NTBEA tune has no
 * games of its own: its export is its steps' games, step by step, each row naming its step's
 * sweep (a tune's confirmation is a sweep of its own, exported by its id).
 */
import { Router } from 'express';
import { SCORE_CATEGORIES, steppedTune, sweepConfigs, type GameSummary, type StepRecord } from '@wonderlab/shared';
import type { SweepStore } from '@wonderlab/shared/store';
import { ExportQuery } from '../api-schemas.js';
import { parse } from '../http.js';
import { findSweep } from './find.js';

const CSV_HEADER = [
  'sweep', 'index', 'game', 'cell', 'set', 'deal', 'seating', 'seed', 'decided_by', 'seat', 'agent', 'board', 'side',
  'vp', ...SCORE_CATEGORIES.map((c) => `vp_${c}`), 'coins', 'stages', 'winner', 'rank', 'decisions', 'decision_ms', 'iterations', 'cut_short',
  // The agent's name on the sweep's page (its canonical spec, a swept parameter always written); last, so the columns before keep their places.
  'config',
  // Why an outside agent with fault=forfeit gave this seat up to random (empty when it did not); the JSONL export has the summary's forfeits.
  'forfeit',
];

function csvCell(value: unknown): string {
  const text = String(value);
  return /[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function csvRows(sweepId: string, cell: number, g: GameSummary, configOf: (label: string) => string): string {
  return g.players
    .map((p) =>
      [
        sweepId, g.index, g.id, cell, g.set, g.deal, g.seating, g.seed, g.decidedBy, p.seat, p.agent, p.city, p.side,
        p.score.total, ...SCORE_CATEGORIES.map((c) => p.score[c]), p.coins, p.stages, p.winner ? 1 : 0, p.rank, p.decisions,
        p.decisionMs.toFixed(3), p.iterations, p.cutShort, configOf(p.agent), g.forfeits?.find((f) => f.seat === p.seat)?.reason ?? '',
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
    const filename = `${meta.name.replace(/[^A-Za-z0-9_.-]+/g, '_')}-${meta.id}.${format}`;
    res.setHeader('content-type', format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8');
    res.setHeader('content-disposition', `attachment; filename="${filename}"`);
    const write = (text: string) => (res.write(text) ? Promise.resolve() : new Promise<void>((resolve) => res.once('drain', resolve)));
    if (format === 'csv') await write(CSV_HEADER.join(',') + '\n');
    let aborted = false;
    req.on('close', () => (aborted = true));
    /** One sweep's finished games, CHUNK at a time. */
    const games = async (id: string) => {
      const loaded = await store.reads.load(id);
      if (!loaded) return;
      const { sweep } = loaded;
      const configOf = sweepConfigs(sweep.cells);
      for (let start = 0; start < sweep.size && !aborted; start += CHUNK) {
        const plans: ReturnType<typeof sweep.game>[] = [];
        for (let k = start; k < Math.min(sweep.size, start + CHUNK); k++) plans.push(sweep.game(k));
        const summaries = await store.reads.results(id, plans.map((p) => p.id));
        const lines: string[] = [];
        summaries.forEach((g, i) => {
          if (g) lines.push(format === 'csv' ? csvRows(id, plans[i].cell, g, configOf) : JSON.stringify({ sweep: id, cell: plans[i].cell, ...g }));
        });
        if (lines.length) await write(lines.join('\n') + '\n');
      }
    };
    if (steppedTune(meta.spec)) {
      const { steps } = await store.reads.tuneSteps(meta.id);
      for (const [, json] of [...steps].sort(([x], [y]) => x - y)) {
        const step = JSON.parse(json) as StepRecord;
        if (step.sweep && !aborted) await games(step.sweep);
      }
    } else await games(meta.id);
    res.end();
  });

  return router;
}
