/**
 * A sweep's results as one table for pandas or R: a row per cell and agent, the swept parameters
 * as columns (lab/results/summary-table.ts), as CSV or as a JSON list of records; and for a sweep
 * that names a published table, the paper's rows beside ours with their verdicts.
 */
import { Router } from 'express';
import { paperTable, summarizeAggregates, summaryCsv, summaryTable, type PaperComparison } from '@wonderlab/shared';
import type { SweepStore } from '@wonderlab/shared/store';
import { SummaryQuery } from '../api-schemas.js';
import { HttpError, parse } from '../http.js';
import type { SweepStatistics } from '../statistics.js';
import { findSweep } from './find.js';

export function summaryRoutes(store: SweepStore, statistics: SweepStatistics): Router {
  const router = Router();
  router.get('/api/sweeps/:id/summary', async (req, res) => {
    const meta = await findSweep(store, req);
    const { format } = parse(SummaryQuery, req.query, 'query');
    const [loaded, table] = await Promise.all([store.reads.load(meta.id), store.reads.aggregateTable(meta.id)]);
    const { sweep } = loaded!;
    const summary = summaryTable(meta.id, summarizeAggregates(table, sweep.cells, sweep.gamesPerCell));
    if (format === 'csv') {
      res.setHeader('content-disposition', `attachment; filename="${meta.name.replace(/[^A-Za-z0-9_.-]+/g, '_')}-${meta.id}-summary.csv"`);
      res.type('text/csv; charset=utf-8').send(summaryCsv(summary));
    } else {
      res.json(summary.rows);
    }
  });
  // The published table beside ours (the sweep page's), a row per paper row with its verdict.
  router.get('/api/sweeps/:id/paper', async (req, res) => {
    const meta = await findSweep(store, req);
    const { format } = parse(SummaryQuery, req.query, 'query');
    if (!meta.spec.paper) throw new HttpError(404, `sweep '${meta.id}' names no published table (its spec has no paper)`);
    const { paper } = JSON.parse((await statistics.page(meta, 0, 1)).json) as { paper: PaperComparison };
    const table = paperTable(meta.id, paper);
    if (format === 'csv') {
      res.setHeader('content-disposition', `attachment; filename="${meta.name.replace(/[^A-Za-z0-9_.-]+/g, '_')}-${meta.id}-paper.csv"`);
      res.type('text/csv; charset=utf-8').send(summaryCsv(table));
    } else {
      res.json(table.rows);
    }
  });
  return router;
}
