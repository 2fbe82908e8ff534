/**
 * The access log's levels: with ACCESS_LOG=all a line per request at info; with `errors` only
 * refusals (warn), errors (error) and slow requests (info) reach info, the rest is debug — an
 * event stream however long it stays open included.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { accessLog, type AccessLogMode } from '../src/store/access-log.js';

const SLOW_MS = 60;
const lines: { level: number; msg: string; mode: string }[] = [];
const servers: Record<string, Server> = {};

function serve(mode: AccessLogMode): Promise<Server> {
  const logger = pino({ level: 'debug', base: { mode } }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  const log = accessLog(logger, { quiet: /^\/healthz/, ownRequestIds: true, mode, slowMs: SLOW_MS });
  const server = createServer((req, res) =>
    log(req, res, () => {
      const status = { '/bad': 400, '/boom': 500 }[req.url ?? ''] ?? 200;
      const type = req.url === '/events' ? 'text/event-stream' : 'application/json';
      const wait = req.url === '/slow' || req.url === '/events' ? SLOW_MS + 40 : 0;
      setTimeout(() => res.writeHead(status, { 'content-type': type }).end('{}'), wait);
    }),
  );
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

beforeAll(async () => {
  for (const mode of ['all', 'errors'] as const) servers[mode] = await serve(mode);
});
afterAll(() => {
  for (const s of Object.values(servers)) s.close();
});

async function levels(mode: AccessLogMode): Promise<Record<string, number>> {
  const port = (servers[mode].address() as AddressInfo).port;
  for (const path of ['/ok', '/healthz', '/slow', '/events', '/bad', '/boom']) await (await fetch(`http://127.0.0.1:${port}${path}`)).text();
  return Object.fromEntries(lines.filter((l) => l.mode === mode).map((l) => [l.msg.split(' ')[1], l.level]));
}

describe('access log', () => {
  test('all: a line per request at info, probes at debug', async () => {
    expect(await levels('all')).toEqual({ '/ok': 30, '/healthz': 20, '/slow': 30, '/events': 30, '/bad': 40, '/boom': 50 });
  });

  test('errors: refusals, errors and slow requests only; an event stream is never slow', async () => {
    expect(await levels('errors')).toEqual({ '/ok': 20, '/healthz': 20, '/slow': 30, '/events': 20, '/bad': 40, '/boom': 50 });
  });
});
