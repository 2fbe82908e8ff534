/** The worker's settings, from environment variables. */
import { availableParallelism } from 'node:os';
import { z } from 'zod';
import { StoreEnvSchema, WORKER_LOCK, parseEnv, positiveInt } from '@wonderlab/shared/store';

/** AGENT_SUSPEND_AFTER's default: five failures in a row are the agent's, not bad luck. */
export const AGENT_SUSPEND_AFTER = 5;

export const WorkerEnvSchema = StoreEnvSchema.extend({
  /** Games played at once: one per CPU by default (each on its own thread). */
  WORKER_SLOTS: positiveInt(availableParallelism()),
  /** On SIGTERM, how long running games may take to finish before they are handed back. */
  SHUTDOWN_GRACE_MS: positiveInt(20_000),
  /**
   * A job's lock, renewed every half of it; a killed worker's games go back to the queue within
   * LOCK_DURATION_MS + STALLED_INTERVAL_MS (WORKER_LOCK says why these are short). Under a second,
   * a garbage collection or a slow Redis reply would take games from live workers.
   */
  LOCK_DURATION_MS: z.coerce.number().int().min(1000, 'at least 1000 ms: a shorter lock lapses under a live worker').default(WORKER_LOCK.lockDuration),
  STALLED_INTERVAL_MS: positiveInt(WORKER_LOCK.stalledInterval),
  /** An outside agent that fails this many games of a sweep in a row suspends the sweep (paused, saying why). */
  AGENT_SUSPEND_AFTER: positiveInt(AGENT_SUSPEND_AFTER),
  /** Port of /healthz and /readyz (0: no health server). */
  HEALTH_PORT: z.coerce.number().int().min(0).max(65535).default(0),
});

export type WorkerConfig = z.infer<typeof WorkerEnvSchema>;

export function workerConfig(env: NodeJS.ProcessEnv = process.env): WorkerConfig {
  return parseEnv(WorkerEnvSchema, env);
}
