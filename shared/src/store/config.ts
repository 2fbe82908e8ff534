/**
 * Settings every lab process shares, from environment variables (validated: a bad value stops
 * the process with a message naming the variable).
 */
import { z } from 'zod';

export const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';
/** Prefix of every Redis key the lab writes (the queue's keys are under `<prefix>:bull`). */
export const DEFAULT_KEY_PREFIX = 'wl';
/** The BullMQ queue of games. */
export const DEFAULT_QUEUE_NAME = 'games';
/** The coordinator's port (PORT). */
export const DEFAULT_PORT = 8080;
/** Where `npm start` serves the lab: what the dashboard's own process and `wonderlab remote` call by default. */
export const DEFAULT_LAB_URL = `http://127.0.0.1:${DEFAULT_PORT}`;

const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);

export const StoreEnvSchema = z.object({
  REDIS_URL: z.string().url().default(DEFAULT_REDIS_URL),
  KEY_PREFIX: z.string().regex(/^[A-Za-z0-9_.-]+$/, 'letters, digits, _ . - only').default(DEFAULT_KEY_PREFIX),
  QUEUE_NAME: z.string().regex(/^[A-Za-z0-9_.-]+$/, 'letters, digits, _ . - only').default(DEFAULT_QUEUE_NAME),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** While Redis is unreachable: one log line at most this often (the first error is logged at once). */
  OUTAGE_LOG_INTERVAL_MS: z.coerce.number().int().positive().default(30_000),
  /**
   * On SIGTERM, how long closing connections may take (after a worker's games' grace) before the
   * process exits anyway: a Redis that does not answer must not keep a process from stopping.
   */
  SHUTDOWN_CLOSE_MS: z.coerce.number().int().positive().default(5000),
});

export type StoreEnv = z.infer<typeof StoreEnvSchema>;

export class ConfigError extends Error {}

/** Parses `env` with `schema`; the error names every bad variable. */
export function parseEnv<S extends z.ZodType>(schema: S, env: NodeJS.ProcessEnv = process.env): z.infer<S> {
  const result = schema.safeParse(env);
  if (result.success) return result.data;
  const problems = result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
  throw new ConfigError(`bad environment: ${problems.join('; ')}`);
}

export { positiveInt };
