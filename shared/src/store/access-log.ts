/**
 * One structured line per request (pino-http), for the coordinator and the dashboard: method, url,
 * status, response time and a request id. Headers are left out, the Authorization header above
 * all. Probes and scrapes that succeed (`quiet` paths) log at debug, so a kubelet polling /readyz
 * does not fill the log. With ACCESS_LOG=errors (the default of `npm start`, where the log is the
 * terminal a person reads) only refusals, errors and slow requests are logged at info or above.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { pinoHttp } from 'pino-http';
import { z } from 'zod';

/**
 * ACCESS_LOG: `all`, a line per request at info (a cluster's log collector keeps them); `errors`,
 * only 4xx, 5xx and requests slower than SLOW_REQUEST_MS at info or above, the rest at debug.
 */
export const ACCESS_LOG_MODES = ['all', 'errors'] as const;
export type AccessLogMode = (typeof ACCESS_LOG_MODES)[number];
export const accessLogSetting = (fallback: AccessLogMode) => z.enum(ACCESS_LOG_MODES).default(fallback);

/** A request answered later than this is worth a line even with ACCESS_LOG=errors. */
export const SLOW_REQUEST_MS = 1000;

const SANE_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/** The URL as the client sent it (a mounted router shortens req.url). */
const urlOf = (req: IncomingMessage) => (req as IncomingMessage & { originalUrl?: string }).originalUrl ?? req.url;

export interface AccessLogOptions {
  /** Paths whose successful requests log at debug (health probes, metric scrapes). */
  quiet: RegExp;
  /**
   * Whether this process owns the request id: the client's X-Request-Id when it is a sane one,
   * else a fresh one, echoed back. A proxy in front of the owner leaves it to the owner.
   */
  ownRequestIds: boolean;
  /** Which successful requests log at info (default: all). */
  mode?: AccessLogMode;
  /** Slow, for mode `errors` (default SLOW_REQUEST_MS). */
  slowMs?: number;
}

/** Echoes the client's X-Request-Id when it is a sane one, else makes one. */
function requestId(req: IncomingMessage, res: ServerResponse): string {
  const given = req.headers['x-request-id'];
  const id = typeof given === 'string' && SANE_ID.test(given) ? given : randomUUID();
  res.setHeader('x-request-id', id);
  return id;
}

/** When each request began: pino-http keeps its own start time private. */
const started = new WeakMap<IncomingMessage, number>();

/**
 * A response's level. An event stream lasts as long as its page is open: its length is no sign of
 * a slow lab, so it is never "slow".
 */
function levelOf(req: IncomingMessage, res: ServerResponse, err: Error | undefined, o: Required<Pick<AccessLogOptions, 'mode' | 'slowMs'>> & { quiet: RegExp }) {
  if (err || res.statusCode >= 500) return 'error';
  if (res.statusCode >= 400) return 'warn';
  if (o.quiet.test(req.url ?? '')) return 'debug';
  if (o.mode === 'all') return 'info';
  const stream = String(res.getHeader('content-type') ?? '').startsWith('text/event-stream');
  const ms = performance.now() - (started.get(req) ?? performance.now());
  return !stream && ms >= o.slowMs ? 'info' : 'debug';
}

export function accessLog(logger: Logger, { quiet, ownRequestIds, mode = 'all', slowMs = SLOW_REQUEST_MS }: AccessLogOptions) {
  const log = pinoHttp({
    logger,
    ...(ownRequestIds ? { genReqId: requestId } : {}),
    customLogLevel: (req, res, err) => levelOf(req, res, err, { quiet, mode, slowMs }),
    customSuccessMessage: (req, res) => `${req.method} ${urlOf(req)} ${res.statusCode}`,
    customErrorMessage: (req, res) => `${req.method} ${urlOf(req)} ${res.statusCode}`,
    // pino-http makes an Error with a stack for every 5xx: the line says the status already, and
    // the error handler logs real errors with their own stack.
    customErrorObject: (_req, _res, _err, fields: Record<string, unknown>) => ({ ...fields, err: undefined }),
    serializers: {
      req: (req: { id: string; method: string; url: string; raw?: IncomingMessage }) => ({ id: req.id, method: req.method, url: req.raw ? urlOf(req.raw) : req.url }),
      res: (res: { statusCode: number }) => ({ status: res.statusCode }),
    },
  });
  return (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => {
    started.set(req, performance.now());
    log(req, res, next);
  };
}
