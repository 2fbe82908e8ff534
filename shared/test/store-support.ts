/**
 * A SweepStore on the real Redis (REDIS_URL) under a key prefix of this test file's own, opened
 * before its tests and deleted after them.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import type { Redis } from 'ioredis';
import { IncrementSum, placementOf } from '../src/lab/results/increments.js';
import type { GameSummary } from '../src/lab/game/game.js';
import type { PackedGame } from '../src/lab/results/codec.js';
import type { GameKey, PartGame, PlayedPart } from '../src/lab/threads/game-messages.js';
import { packGame } from '../src/lab/results/codec.js';
import type { WorkerIdentity } from '../src/lab/results/provenance.js';
import { SweepStore, connectRedis, deleteKeys, type Keys, type LoadedSweep } from '../src/store/index.js';

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

// Reads and writes only tests make. They take the store's connection and key names (public), not
// the class, so that a service's test can pass the store of its lab (the built package's class).

/** What the helpers below need of a SweepStore. */
interface StoreLike {
  readonly redis: Redis;
  readonly keys: Keys;
}

/** How many games of a sweep are stored (its results hash). */
export async function resultCount(store: StoreLike, id: string): Promise<number> {
  return store.redis.hlen(store.keys.sweep(id).results);
}

/** Games finished lab-wide since the store began (the counter GET /metrics reports). */
export async function gamesDone(store: StoreLike): Promise<number> {
  return Number((await store.redis.hget(store.keys.stats, 'done')) ?? 0);
}

/**
 * Up to `window` minus the outstanding games' indices, now outstanding (CLAIM_GAMES): the claim
 * the feeder makes, by game index. The ledger keeps it private (the feeder asks for jobs,
 * claimJobs); a test reads it directly to see which games a claim hands out.
 */
export async function claim(store: StoreLike, id: string, window: number, now = Date.now()): Promise<number[]> {
  const raw = (store as unknown as { ledger: unknown }).ledger as { claimRaw(id: string, window: number, now: number): Promise<{ indices: number[] }> };
  return (await raw.claimRaw(id, window, now)).indices;
}

/** The summary of a game that comes without its packed form, which must then be whole to be packed here. */
function whole(summary: GameSummary | GameKey): GameSummary {
  if (!('players' in summary)) throw new Error(`game ${summary.id} came with neither its whole summary nor its packed form`);
  return summary;
}

/** A finished game for recordBatch: its whole summary, or its key with the game packed (PlayedGame). */
export type StorableGame = { summary: GameSummary; cpuMs?: number; packed?: undefined } | { summary: GameKey; cpuMs?: number; packed: PackedGame };

/**
 * Stores a batch of finished games in one step as one part of recordParts (what a worker's thread
 * sends), their aggregate increments summed over the batch, each game packed here unless it
 * comes packed; when one of them was stored before, each is stored on its own. Returns how many
 * were stored (the others were duplicates). Typed by shape, so that a test of the built package
 * passes its store and loaded sweep as well.
 */
export async function recordBatch<L extends { sweep: unknown }>(
  store: { ledger: { recordParts(loaded: L, parts: readonly PlayedPart[], now?: number, worker?: WorkerIdentity): Promise<number> } },
  loaded: L,
  games: readonly StorableGame[],
  now = Date.now(),
  worker?: WorkerIdentity,
): Promise<number> {
  if (games.length === 0) return 0;
  const sum = new IncrementSum();
  const parted: PartGame[] = games.map(({ summary, cpuMs, packed }) => {
    const ready = packed ?? packGame(whole(summary), placementOf(loaded.sweep as LoadedSweep['sweep'], summary.index));
    sum.add(ready.increments);
    return { key: { id: summary.id, index: summary.index }, cpuMs: cpuMs ?? NaN, summary: ready.summary, record: ready.record, share: ready.share };
  });
  return store.ledger.recordParts(loaded, [{ games: parted, increments: sum.summed() }], now, worker);
}
