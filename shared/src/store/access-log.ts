/**
 * One structured line per request (pino-http), for the coordinator and the dashboard: method, url,
 * status, response time and a request id. Headers are left out, the Authorization header above
 * all. Probes and scrapes that succeed (`quiet` paths) log at debug, so a kubelet polling /readyz
 * does not fill the log.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { pinoHttp } from 'pino-http';

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
}

/** Echoes the client's X-Request-Id when it is a sane one, else makes one. */
function requestId(req: IncomingMessage, res: ServerResponse): string {
  const given = req.headers['x-request-id'];
  const id = typeof given === 'string' && SANE_ID.test(given) ? given : randomUUID();
  res.setHeader('x-request-id', id);
  return id;
}

export function accessLog(logger: Logger, { quiet, ownRequestIds }: AccessLogOptions) {
  return pinoHttp({
    logger,
    ...(ownRequestIds ? { genReqId: requestId } : {}),
    customLogLevel: (req, res, err) => (err || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : quiet.test(req.url ?? '') ? 'debug' : 'info'),
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
}
