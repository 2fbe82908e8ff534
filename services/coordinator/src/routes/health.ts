/** Probes and scrapes: /healthz (the process), /readyz (Redis answers), /metrics, the backlog. */
import { Router } from 'express';
import type { SweepStore } from '@wonderlab/shared/store';
import { BACKLOG_FIELD, BACKLOG_ROUTE, type LabMetrics } from '../metrics.js';

export function healthRoutes(store: SweepStore, metrics: LabMetrics): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    res.json({ ok: true });
  });
  router.get('/readyz', async (_req, res) => {
    // Answers within half a second, Redis up or not: a probe that hangs is no probe.
    if (await store.ping(500)) res.json({ ok: true });
    else res.status(503).json({ ok: false, error: `redis does not answer (connection ${store.connectionStatus()})` });
  });
  router.get('/metrics', async (_req, res) => {
    res.type(metrics.contentType).send(await metrics.text());
  });
  router.get(BACKLOG_ROUTE, async (_req, res) => {
    res.json({ [BACKLOG_FIELD]: await store.backlog() });
  });
  return router;
}
