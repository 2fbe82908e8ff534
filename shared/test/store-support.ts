/**
 * A SweepStore on the real Redis (REDIS_URL) under a key prefix of this test file's own, opened
 * before its tests and deleted after them.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import type { Redis } from 'ioredis';
import { SweepStore, connectRedis, deleteKeys } from '../src/store/index.js';

export function storeForTests(tag: string): { prefix: string; redis: () => Redis; store: () => SweepStore } {
  const prefix = `wltest-${tag}-${process.pid}-${randomBytes(4).toString('hex')}`;
  let redis: Redis;
  let store: SweepStore;
  beforeAll(() => {
    redis = connectRedis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
    store = new SweepStore(redis, prefix);
  });
  afterAll(async () => {
    await deleteKeys(redis, prefix);
    await redis.quit();
  });
  return { prefix, redis: () => redis, store: () => store };
}
