/**
 * A sweep's results as one table for pandas or R: a row per cell and agent, the swept parameters
 * as columns (lab/results/summary-table.ts), as CSV or as a JSON list of records.
 */
import { Router } from 'express';
import { summarizeAggregates, summaryCsv, summaryTable } from '@wonderlab/shared';
import type { SweepStore } from '@wonderlab/shared/store';
import { SummaryQuery } from '../api-schemas.js';
import { parse } from '../http.js';
import { findSweep } from './find.js';

export function summaryRoutes(store: SweepStore): Router {
  const router = Router();
  router.get('/api/sweeps/:id/summary', async (req, res) => {
    const meta = await findSweep(store, req);
    const { format } = parse(SummaryQuery, req.query, 'query');
    const [loaded, table] = await Promise.all([store.load(meta.id), store.aggregateTable(meta.id)]);
    const { sweep } = loaded!;
    const summary = summaryTable(meta.id, summarizeAggregates(table, sweep.cells, sweep.gamesPerCell));
    if (format === 'csv') {
      res.setHeader('content-disposition', `attachment; filename="${meta.name.replace(/[^A-Za-z0-9_.-]+/g, '_')}-${meta.id}-summary.csv"`);
      res.type('text/csv; charset=utf-8').send(summaryCsv(summary));
    } else {
      res.json(summary.rows);
    }
  });
  return router;
}
