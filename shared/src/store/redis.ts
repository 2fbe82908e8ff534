/** Redis connections for the lab, and the one check every process makes before it starts. */
import { Redis, type RedisOptions } from 'ioredis';

/** A connection for BullMQ and the store: commands wait for a reconnect instead of failing. */
export function connectRedis(url: string, options: RedisOptions = {}): Redis {
  return new Redis(url, { maxRetriesPerRequest: null, enableReadyCheck: true, ...options });
}

/** True when something answers PING at `url` within `timeoutMs`. */
export async function redisAnswers(url: string, timeoutMs = 1500): Promise<boolean> {
  const probe = new Redis(url, { lazyConnect: true, connectTimeout: timeoutMs, maxRetriesPerRequest: 0, retryStrategy: () => null, enableOfflineQueue: false });
  probe.on('error', () => {});
  try {
    await probe.connect();
    return (await probe.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}

/** Deletes every key under `prefix:` (tests and `wonderlab` maintenance); returns how many. */
export async function deleteKeys(redis: Redis, prefix: string): Promise<number> {
  let cursor = '0';
  let deleted = 0;
  do {
    const [next, batch] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
    cursor = next;
    if (batch.length) deleted += await redis.unlink(...batch);
  } while (cursor !== '0');
  return deleted;
}

/**
 * A connection for request paths (the API): while Redis is unreachable a command fails at once
 * instead of waiting for a reconnect, and a command Redis does not answer fails after
 * `commandTimeoutMs`, so a request gets a 503 rather than hanging. Not for BullMQ workers, whose
 * blocking connections must wait (connectRedis).
 */
export function connectRedisFailFast(url: string, commandTimeoutMs = 5000, options: RedisOptions = {}): Redis {
  return new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, commandTimeout: commandTimeoutMs, connectTimeout: 2000, ...options });
}

const UNAVAILABLE = /Stream isn't writeable|Connection is closed|Command timed out|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|ENOTFOUND|EAI_AGAIN|EPIPE|^LOADING|^MASTERDOWN|^TRYAGAIN/;

/** True when `err` says Redis cannot be reached now (down, restarting, loading its data), not that a command was wrong. */
export function isRedisUnavailable(err: unknown): boolean {
  const e = err as { name?: string; message?: string; code?: string } | undefined;
  if (!e) return false;
  return e.name === 'MaxRetriesPerRequestError' || UNAVAILABLE.test(e.message ?? '') || UNAVAILABLE.test(e.code ?? '');
}

/** Settles with true when `promise` settles within `ms`, with false when it does not. */
export async function within(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([promise.then(() => true, () => true), late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Closes a connection within `ms`: QUIT when Redis answers (pending replies arrive first), else at
 * once — a QUIT sent to an unreachable Redis would wait for the reconnect, forever.
 */
export async function closeRedis(redis: Redis, ms = 1000): Promise<void> {
  if (redis.status === 'ready' && (await within(redis.quit(), ms))) return;
  redis.disconnect();
}

/**
 * Arms the last resort of a stopping process: if it has not exited within `ms`, it logs and exits
 * with code 1. The timer does not keep the process alive.
 */
export function exitWithin(ms: number, logger: { error: (o: object, msg: string) => void }): void {
  setTimeout(() => {
    logger.error({ afterMs: ms }, 'shutdown did not finish in time: exiting');
    process.exit(1);
  }, ms).unref();
}
