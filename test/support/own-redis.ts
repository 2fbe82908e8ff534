/**
 * A test file's own redis-server (privateRedis, never the machine's), with the vitest hooks every
 * such file needs: started before its tests and destroyed after them all; after each test, once
 * `cleanUp` has stopped what the test started (so that nothing writes meanwhile), it runs again
 * (a test may have stopped it), with no memory limit (a test may have set one) and empty.
 */
import { afterAll, afterEach, beforeAll } from 'vitest';
import { closeRedis, connectRedis } from '@wonderlab/shared/store';
import { privateRedis, type PrivateRedis } from './processes.js';

export function ownRedis(cleanUp: () => Promise<void>): { redis: PrivateRedis } {
  const own = {} as { redis: PrivateRedis };
  beforeAll(async () => {
    own.redis = await privateRedis();
  });
  afterEach(async () => {
    await cleanUp();
    const { redis } = own;
    if (!redis.proc || redis.proc.exitCode !== null || redis.proc.signalCode !== null) await redis.start();
    const c = connectRedis(redis.url);
    await c.config('SET', 'maxmemory', '0');
    await c.flushall();
    await closeRedis(c);
  });
  afterAll(async () => {
    await own.redis?.destroy();
  });
  return own;
}
