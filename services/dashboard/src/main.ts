/**
 * A dashboard process on its own (`node services/dashboard/dist/src/main.js`): the pages, with
 * /api, /healthz, /readyz and /metrics passed through to the coordinator at COORDINATOR_URL (so
 * the browser talks to one origin; Server-Sent Events stream through).
 */
import { request } from 'node:http';
import { pino } from 'pino';
import express from 'express';
import { ConfigError, parseEnv } from '@wonderlab/shared/store';
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
const app = express();
app.disable('x-powered-by');
app.get('/dashboard/healthz', (_req, res) => {
  res.json({ ok: true });
});
app.use(['/api', '/healthz', '/readyz', '/metrics'], (req, res) => {
  const proxied = request(
    { hostname: upstream.hostname, port: upstream.port || 80, path: req.originalUrl, method: req.method, headers: { ...req.headers, host: upstream.host } },
    (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    },
  );
  proxied.on('error', (err) => {
    logger.warn({ err: err.message }, 'coordinator unreachable');
    if (!res.headersSent) res.status(502).json({ error: `the coordinator at ${config.COORDINATOR_URL} does not answer` });
    else res.end();
  });
  req.pipe(proxied);
  res.on('close', () => proxied.destroy());
});
app.use(dashboardRouter({ presetsDir: config.PRESETS_DIR }));
const server = app.listen(config.PORT, config.HOST, () => logger.info({ port: config.PORT, coordinator: config.COORDINATOR_URL }, 'dashboard listening'));
const stop = () => server.close();
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
