/**
 * What every route shares: the error that becomes a JSON response, zod parsing that names the
 * field, the token check, the JSON body reader with its limits, the request deadline, and the one
 * error handler that turns every error into `{ error, field?, problems? }` — 4xx for bad input, 503 while
 * Redis is unreachable, 500 without internals otherwise.
 */
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import type { Logger } from 'pino';
import type { z } from 'zod';
import { isOutOfMemory, isRedisUnavailable, type OutageLog } from '@wonderlab/shared/store';
import { tokenMatches } from './auth.js';
import type { LimitsConfig } from './config.js';
import { JsonTooDeepError, jsonDepth } from './json-depth.js';

/** One of several problems of a refused body: its field and what is wrong there. */
export interface FieldProblem {
  field: string;
  error: string;
}

/** An error that becomes a JSON response; `problems`, when a body has more than one, lists them all (the first is `field`'s). */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly field?: string,
    readonly problems?: readonly FieldProblem[],
  ) {
    super(message);
  }
}

/** `value` parsed by `schema`, or a 400 naming the field (`where` + the issue's path). */
export function parse<S extends z.ZodType>(schema: S, value: unknown, where: string): z.infer<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = [where, ...issue.path].join('.');
  throw new HttpError(400, `${field}: ${issue.message}`, field);
}

/** With a token set, a 401 unless the request carries it (see auth.ts); without one, nothing. */
export function requireToken(token: string | undefined): RequestHandler {
  return (req, _res, next) => {
    if (token && !tokenMatches(req.get('authorization'), token)) {
      throw new HttpError(401, 'this route needs the header Authorization: Bearer <API_TOKEN>');
    }
    next();
  };
}

/** The methods that change something: each must come with a JSON content type. */
const CHANGING_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * The API's rule against cross-site requests: a POST, PUT, PATCH or DELETE needs
 * `Content-Type: application/json`, with a body or without. An HTML form on another site can send
 * only form or text bodies, and a script on another site cannot send this type without a CORS
 * preflight, which the API never grants. A 415 (the status for a content type the route does not
 * take) naming the header, before the token check and before any body is read.
 */
export const requireJsonContentType: RequestHandler = (req, _res, next) => {
  if (CHANGING_METHODS.has(req.method)) {
    const given = req.get('content-type');
    const mediaType = given?.split(';')[0].trim().toLowerCase();
    if (mediaType !== 'application/json') {
      throw new HttpError(415, `a ${req.method} to the API needs the header Content-Type: application/json, even without a body (got ${given === undefined ? 'none' : `'${given}'`})`, 'headers.content-type');
    }
  }
  next();
};

/**
 * The JSON body reader of the routes that take a body: at most MAX_BODY_BYTES, nested at most
 * MAX_JSON_DEPTH deep (counted on the raw bytes, before parsing).
 */
export function jsonBody(limits: LimitsConfig): RequestHandler {
  return express.json({
    limit: limits.MAX_BODY_BYTES,
    verify: (_req, _res, body) => {
      const depth = jsonDepth(body, limits.MAX_JSON_DEPTH);
      if (depth > limits.MAX_JSON_DEPTH) throw new JsonTooDeepError(depth, limits.MAX_JSON_DEPTH);
    },
  });
}

/**
 * The backstop for a request that waits on Redis (a command the fail-fast connection let through
 * just before an outage, or the feeder's connection in an action): a 503 instead of a hang.
 * Streams (export, events) are answered before the timer fires and are left alone.
 */
export function requestDeadline(ms: number): RequestHandler {
  return (_req, res, next) => {
    const timer = setTimeout(() => {
      if (!res.headersSent) res.status(503).set('retry-after', '5').json({ error: `Redis did not let this request finish within ${ms} ms (REQUEST_TIMEOUT_MS): it may be unreachable; retry shortly` });
    }, ms);
    res.on('close', () => clearTimeout(timer));
    next();
  };
}

/** The 404: a JSON body for every unknown path, whatever the method. */
export const noSuchRoute: RequestHandler = () => {
  throw new HttpError(404, 'no such route (see /api/openapi.json)');
};

/** The one error handler (express 5 passes rejected promises of async handlers here). */
export function errorHandler(limits: LimitsConfig, logger: Logger, outage?: OutageLog) {
  return (err: unknown, _req: Request, res: Response, _next: NextFunction) => {
    const e = err as { type?: string; status?: number; message?: string; code?: string };
    if (res.headersSent && (e.code === 'ERR_HTTP_HEADERS_SENT' || isRedisUnavailable(err))) {
      // Answered already (the request deadline's 503, or a stream cut by an outage): nothing to add.
      if (isRedisUnavailable(err)) outage?.error(err, 'api');
      res.end();
    } else if (isRedisUnavailable(err)) {
      outage?.error(err, 'api');
      res.status(503).set('retry-after', '5').json({ error: `Redis is unreachable (${e.message}): the lab cannot answer this now; retry shortly` });
    } else if (isOutOfMemory(err)) {
      // A write refused by a full Redis (maxmemory, noeviction): the lab's state, not a bug.
      res.status(503).set('retry-after', '30').json({ error: `Redis is out of memory (${e.message}): nothing was written; free memory or raise maxmemory, then retry` });
    } else if (err instanceof HttpError) {
      res.status(err.status).json({ error: err.message, ...(err.field ? { field: err.field } : {}), ...(err.problems && err.problems.length > 1 ? { problems: err.problems } : {}) });
    } else if (e.type === 'entity.parse.failed') {
      res.status(400).json({ error: `the body is not valid JSON: ${e.message}`, field: '(body)' });
    } else if (err instanceof JsonTooDeepError) {
      res.status(400).json({ error: err.message, field: '(body)' });
    } else if (e.type === 'entity.too.large') {
      // A 400 like every other refusal of bad input (the project's rule), naming size and limit.
      const { length } = err as { length?: number };
      const size = length !== undefined ? `has ${length} bytes` : `is larger than ${limits.MAX_BODY_BYTES} bytes`;
      res.status(400).json({ error: `the body ${size}, over this lab's limit of ${limits.MAX_BODY_BYTES} bytes (MAX_BODY_BYTES)`, field: '(body)' });
    } else if (typeof e.status === 'number' && e.status >= 400 && e.status < 500) {
      res.status(e.status).json({ error: e.message ?? 'bad request' });
    } else {
      logger.error({ err }, 'request failed');
      if (res.headersSent) res.end();
      else res.status(500).json({ error: 'internal error (see the coordinator log)' });
    }
  };
}
