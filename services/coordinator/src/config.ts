/** The coordinator's settings, from environment variables. */
import { z } from 'zod';
import { StoreEnvSchema, parseEnv, positiveInt } from '@wonderlab/shared/store';

export const CoordinatorEnvSchema = StoreEnvSchema.extend({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default('0.0.0.0'),
  /** When set, every mutating route needs `Authorization: Bearer <API_TOKEN>` (empty: unset, as compose passes it). */
  API_TOKEN: z.preprocess((v) => (v === '' ? undefined : v), z.string().min(1).optional()),
  /** The largest sweep accepted, in games. */
  MAX_GAMES: positiveInt(5_000_000),
  /** Games of one sweep in the queue at once; the rest wait behind the sweep's cursor. */
  FEED_WINDOW: positiveInt(2000),
  FEED_INTERVAL_MS: positiveInt(250),
  /** How often Server-Sent Events check a sweep for news. */
  EVENTS_INTERVAL_MS: positiveInt(1000),
});

export type CoordinatorConfig = z.infer<typeof CoordinatorEnvSchema>;

export function coordinatorConfig(env: NodeJS.ProcessEnv = process.env): CoordinatorConfig {
  return parseEnv(CoordinatorEnvSchema, env);
}
