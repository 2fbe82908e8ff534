/**
 * The games queue (BullMQ). Jobs carry only (sweep id, game index); the coordinator feeds a
 * bounded window of them per sweep and the workers play them.
 */
import { Queue, type ConnectionOptions } from 'bullmq';
import type { Keys, GameJobData } from './keys.js';

/**
 * How jobs are retried. A game that throws is retried twice (a crash of the process that played
 * it is not an attempt: that is a stalled job, see WORKER_LOCK). After the last attempt the
 * worker records the failure itself, so BullMQ keeps no failed jobs.
 */
export const JOB_OPTIONS = {
  attempts: 3,
  backoff: { type: 'exponential', delay: 1000 },
  removeOnComplete: true,
  removeOnFail: true,
} as const;

/**
 * Lock settings. A game runs on a worker thread, so the event loop renews locks on time; a worker
 * killed mid-game loses its lock after `lockDuration` and the stalled check hands the job to
 * another worker. `maxStalledCount` is high because scale-downs stall jobs by design: a stall
 * must never fail a game.
 */
export const WORKER_LOCK = {
  lockDuration: 30_000,
  stalledInterval: 15_000,
  maxStalledCount: 1000,
} as const;

export function gameQueue(connection: ConnectionOptions, k: Keys, name: string): Queue<GameJobData> {
  return new Queue<GameJobData>(name, { connection, prefix: k.bullPrefix, defaultJobOptions: JOB_OPTIONS });
}
