/**
 * The games queue (BullMQ). Jobs carry only (sweep id, game index); the coordinator feeds a
 * bounded window of them per sweep and the workers play them.
 */
import { Queue, type ConnectionOptions } from 'bullmq';
import type { Keys, GameJobData } from './keys.js';

/**
 * Job options, kept short on purpose: a job hash whose fields all stay under 64 bytes is stored
 * compactly by Redis (listpack), about 250 bytes instead of 650. A game that throws is retried
 * at once, twice (a crash of the process that played it is not an attempt: that is a stalled
 * job, see WORKER_LOCK); after the last attempt the worker records the failure itself. Finished
 * jobs are deleted by the worker (REMOVE_FINISHED), so BullMQ keeps none.
 */
export const JOB_OPTIONS = { attempts: 3 } as const;
export const REMOVE_FINISHED = { removeOnComplete: { count: 0 }, removeOnFail: { count: 0 } } as const;

/**
 * The BullMQ priority of a sweep's jobs. BullMQ serves jobs without a priority before
 * prioritized ones, and prioritized ones by number, so spec priority 1 (the default) maps to no
 * priority — also the cheaper path, about 25 % faster to enqueue — and 2, 3, … follow in order.
 */
export function bullPriority(specPriority: number): { priority?: number } {
  return specPriority > 1 ? { priority: specPriority } : {};
}

/**
 * Lock settings. A worker holds a lock on each job it plays and BullMQ renews it from the event
 * loop every lockDuration/4 to lockDuration/2 (its lockRenewTime, lockDuration/2 by default); the
 * games play on threads (lab/threads), so the loop is free to renew however long a batch takes: the
 * lock need not outlast a batch, only a renewal. A worker killed mid-batch stops renewing: its
 * lock lapses within `lockDuration`, and the next stalled check after that (one per
 * `stalledInterval`, lab-wide; the job was marked at the check before) moves the job back to the
 * queue — at most lockDuration + stalledInterval = 3.5 s after the kill (BullMQ's own defaults,
 * 30 s each, left a batch waiting half a minute). The price is a lock renewal per worker about
 * every second and a stalled check every half second, small scripts for Redis (the checks of
 * other workers in between find the check done and return). A loop (or Redis) stalled for longer
 * than a renewal's slack, 1.5 s at least, would let another worker take a live job: its games are
 * then played twice and stored once. `maxStalledCount` is high because scale-downs stall jobs by
 * design: a stall must never fail a game.
 */
export const WORKER_LOCK = {
  lockDuration: 3000,
  stalledInterval: 500,
  maxStalledCount: 1000,
} as const;

export function gameQueue(connection: ConnectionOptions, k: Keys, name: string): Queue<GameJobData> {
  return new Queue<GameJobData>(name, { connection, prefix: k.bullPrefix, defaultJobOptions: JOB_OPTIONS });
}
