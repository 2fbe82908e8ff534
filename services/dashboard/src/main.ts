/**
 * A dashboard process on its own (`node services/dashboard/dist/src/main.js`): the pages, with
 * /api, /healthz, /readyz and /metrics passed through to the coordinator at COORDINATOR_URL (so
 * the browser talks to one origin; Server-Sent Events stream through). SIGTERM ends the event
 * streams at once and exits within SHUTDOWN_CLOSE_MS.
 */
import { request, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import express from 'express';
import { allowedHosts, hostsToAllow, reachedAt, securityHeaders } from '@wonderlab/shared/http';
import { ConfigError, accessLog, exitWithin, parseEnv, within } from '@wonderlab/shared/store';
import { DashboardEnvSchema } from './config.js';
import { dashboardRouter } from './dashboard.js';

let config;
try {
  config = parseEnv(DashboardEnvSchema);
} catch (err) {
  if (!(err instanceof ConfigError)) throw err;
  console.error(`dashboard: ${err.message}`);
  process.exit(2);
}
const logger = pino({ level: config.LOG_LEVEL, base: { service: 'dashboard', pid: process.pid } });
const upstream = new URL(config.COORDINATOR_URL);
/** Event streams passed through: they never end on their own, so a stop ends them. */
const streams = new Set<ServerResponse>();
const app = express();
app.disable('x-powered-by');
// One line per request; requests passed through to the coordinator are logged there too, with
// the same X-Request-Id when the client sent one.
app.use(accessLog(logger, { quiet: /^\/(dashboard\/)?healthz/, ownRequestIds: false, mode: config.ACCESS_LOG }));
// The pages' headers; answers passed through from the coordinator carry its own, the same.
app.use(securityHeaders());
app.use(allowedHosts(hostsToAllow(config.ALLOWED_HOSTS, reachedAt(config))));
app.get('/dashboard/healthz', (_req, res) => {
  res.json({ ok: true });
});
app.use(['/api', '/healthz', '/readyz', '/metrics'], (req, res) => {
  const proxied = request(
    // The Host as the browser sent it: the coordinator checks the same name against the same
    // ALLOWED_HOSTS (compose gives both one setting), and a rebinding page is refused by both.
    { hostname: upstream.hostname, port: upstream.port || 80, path: req.originalUrl, method: req.method, headers: req.headers },
    (up) => {
      clearTimeout(timer);
      res.writeHead(up.statusCode ?? 502, up.headers);
      if (String(up.headers['content-type']).startsWith('text/event-stream')) {
        streams.add(res);
        res.on('close', () => streams.delete(res));
      }
      up.pipe(res);
    },
  );
  // A coordinator that accepts the connection but never answers would hold the request forever.
  const timer = setTimeout(() => {
    logger.warn({ url: req.originalUrl, afterMs: config.UPSTREAM_TIMEOUT_MS }, 'coordinator did not answer in time');
    if (!res.headersSent) res.status(504).json({ error: `the coordinator at ${config.COORDINATOR_URL} did not answer within ${config.UPSTREAM_TIMEOUT_MS} ms (UPSTREAM_TIMEOUT_MS)` });
    proxied.destroy();
  }, config.UPSTREAM_TIMEOUT_MS);
  proxied.on('error', (err) => {
    clearTimeout(timer);
    logger.warn({ err: err.message }, 'coordinator unreachable');
    if (!res.headersSent) res.status(502).json({ error: `the coordinator at ${config.COORDINATOR_URL} does not answer` });
    else res.end();
  });
  req.pipe(proxied);
  res.on('close', () => {
    clearTimeout(timer);
    proxied.destroy();
  });
});
app.use(dashboardRouter({ presetsDir: config.PRESETS_DIR }));
// express's own 404 page would replace the security headers with its own.
app.use((_req, res) => {
  res.status(404).json({ error: 'no such page' });
});
// Errors of the pages' routes (a malformed path under /static, say) answer without a stack: a 4xx
// keeps its status and message, anything else is a 500 and is logged.
app.use((err: { status?: unknown; message?: string }, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
  const status = typeof err.status === 'number' && err.status >= 400 && err.status < 500 ? err.status : 500;
  if (status === 500) logger.error({ err }, 'request failed');
  if (res.headersSent) res.end();
  else res.status(status).json({ error: status === 500 ? 'internal error (see the dashboard log)' : (err.message ?? 'bad request') });
});
const server = app.listen(config.PORT, config.HOST, () => logger.info({ port: (server.address() as AddressInfo).port, coordinator: config.COORDINATOR_URL }, 'dashboard listening'));

let stopping = false;
const stop = async (signal: string) => {
  if (stopping) return;
  stopping = true;
  exitWithin(config.SHUTDOWN_CLOSE_MS + 1000, logger);
  logger.info({ signal, streams: streams.size }, 'stopping');
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  for (const res of streams) res.end();
  server.closeIdleConnections();
  const clean = await within(closed, config.SHUTDOWN_CLOSE_MS);
  server.closeAllConnections();
  logger.info({ clean }, 'dashboard stopped');
  process.exit(0);
};
process.on('SIGTERM', () => void stop('SIGTERM'));
process.on('SIGINT', () => void stop('SIGINT'));
