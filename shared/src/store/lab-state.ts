/**
 * Two states of Redis that used to pass unnoticed (issue 40): memory at `maxmemory` (with
 * `noeviction`, writes are refused), and a keyspace that lost its data (a FLUSHALL, a Redis
 * restarted without persistence). The first is read from INFO; the second from the keyspace's
 * epoch, a key a coordinator writes when it first finds the keyspace and whose absence later (or
 * a different value) means the data this coordinator knew is gone.
 */
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Keys } from './keys.js';

/** Redis's memory as it judges `maxmemory`: used (less the buffers it does not count) and the limit (0: none). */
export interface RedisMemory {
  used: number;
  max: number;
}

export async function redisMemory(redis: Redis): Promise<RedisMemory> {
  const info = await redis.info('memory');
  const field = (name: string) => Number(new RegExp(`^${name}:(\\d+)`, 'm').exec(info)?.[1] ?? 0);
  // Redis leaves replication and AOF buffers out of its own check (mem_not_counted_for_evict).
  return { used: Math.max(0, field('used_memory') - field('mem_not_counted_for_evict')), max: field('maxmemory') };
}

/** INFO refused: an ACL user without @dangerous, or a managed Redis that hides the command. */
const INFO_REFUSED = /^(NOPERM|ERR unknown command)/;

const recent = new WeakMap<Redis, { at: number; memory: Promise<RedisMemory | undefined> }>();

/**
 * redisMemory read at most once per `maxAgeMs` per connection (every view of a list asks for it);
 * undefined when this Redis does not let the lab read INFO: the memory is then unknown, and the API
 * serves as before rather than failing every view.
 */
export function recentMemory(redis: Redis, maxAgeMs = 1000, now = Date.now()): Promise<RedisMemory | undefined> {
  const cached = recent.get(redis);
  if (cached && now - cached.at < maxAgeMs) return cached.memory;
  const memory = redisMemory(redis).catch((err: Error) => {
    if (INFO_REFUSED.test(err.message)) return undefined;
    throw err;
  });
  recent.set(redis, { at: now, memory });
  // A failed read is not kept: the next caller asks again.
  memory.catch(() => recent.get(redis)?.memory === memory && recent.delete(redis));
  return memory;
}

/**
 * Share of `maxmemory` kept for what must go on when memory runs short: games in flight storing
 * their results, jobs moving through the queue, pauses and cancels. Within it no new game is
 * queued and no sweep created; the result scripts themselves are refused only at `maxmemory`
 * (their deny-oom flag), so the games already queued can still finish meanwhile.
 */
export const MEMORY_HEADROOM = 0.05;

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** Why the lab takes no more work now (memory within the headroom of `maxmemory`), or undefined (also when unknown). */
export function memoryShort(m: RedisMemory | undefined, headroom = MEMORY_HEADROOM): string | undefined {
  if (!m || m.max <= 0 || m.used < m.max * (1 - headroom)) return undefined;
  return (
    `Redis is out of memory: ${mb(m.used)} used of maxmemory ${mb(m.max)}; no new games are queued and no sweep is created ` +
    `until less than ${Math.round((1 - headroom) * 100)} % is used (free memory or raise maxmemory: the sweeps then resume by themselves)`
  );
}

/** A new epoch: its creation time in milliseconds and 32 random bits. */
export function newEpoch(now = Date.now()): string {
  return `${now}-${randomBytes(4).toString('hex')}`;
}

/** When an epoch was created (ms), or undefined for a value not made by newEpoch. */
export function epochCreated(epoch: string): number | undefined {
  const m = /^(\d+)-[0-9a-f]+$/.exec(epoch);
  return m ? Number(m[1]) : undefined;
}

/**
 * How a coordinator found the keyspace's epoch: there already ('found'), written for an empty
 * keyspace ('created': a new lab, or a Redis that lost its data before this process started), or
 * written for a keyspace of sweeps stored before epochs ('adopted').
 */
export interface EpochStart {
  epoch: string;
  how: 'found' | 'created' | 'adopted';
}

/** The keyspace's epoch, written if absent (SET NX: coordinators starting together agree on one). */
export async function ensureEpoch(redis: Redis, k: Keys, now = Date.now()): Promise<EpochStart> {
  const found = await redis.get(k.epoch);
  if (found) return { epoch: found, how: 'found' };
  const data = (await redis.exists(k.sweeps, k.stats)) > 0;
  const fresh = newEpoch(now);
  if (await redis.set(k.epoch, fresh, 'NX')) return { epoch: fresh, how: data ? 'adopted' : 'created' };
  const other = await redis.get(k.epoch);
  if (!other) throw new Error(`the epoch key ${k.epoch} was written and deleted while this coordinator read it`);
  return { epoch: other, how: 'found' };
}
