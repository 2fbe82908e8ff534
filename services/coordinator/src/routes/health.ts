/**
 * Probes and scrapes: /healthz (the process), /readyz (Redis answers and holds the lab's data;
 * degraded but ready while its memory is short), /metrics, the backlog.
 */
import { Router } from 'express';
import { memoryShort, type SweepStore } from '@wonderlab/shared/store';
import { BACKLOG_FIELD, BACKLOG_ROUTE, type LabMetrics } from '../metrics.js';
import type { LabHealth } from '../lab-health.js';

export function healthRoutes(store: SweepStore, metrics: LabMetrics, health?: LabHealth): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    res.json({ ok: true });
  });
  router.get('/readyz', async (_req, res) => {
    // Answers within half a second, Redis up or not: a probe that hangs is no probe.
    if (!(await store.ping(500))) {
      res.status(503).json({ ok: false, error: `redis does not answer (connection ${store.connectionStatus()})` });
      return;
    }
    // Data lost: not ready (nothing can be served truthfully). Memory short: still ready, since
    // reads, pauses and cancels work and taking the coordinator out of service would hide the
    // state from the operator, but degraded, with the reason.
    const lost = health?.notReady();
    if (lost) {
      res.status(503).json({ ok: false, error: lost });
      return;
    }
    // Memory as the sweep views read it (at most a second old), so that the two agree.
    const short = health && memoryShort(await store.memory().catch(() => undefined));
    res.json({ ok: true, ...(short ? { degraded: [short] } : {}) });
  });
  router.get('/metrics', async (_req, res) => {
    res.type(metrics.contentType).send(await metrics.text());
  });
  router.get(BACKLOG_ROUTE, async (_req, res) => {
    res.json({ [BACKLOG_FIELD]: await store.reads.backlog() });
  });
  return router;
}
