/**
 * The lab's results store on Redis, as a process opens it: the exactly-once ledger that writes a
 * sweep's state (sweep-ledger.ts), the read side (sweep-reads.ts), and the connection's health.
 */
import type { Redis } from 'ioredis';
import { keys, type Keys } from './keys.js';
import { recentMemory, type RedisMemory } from './lab-state.js';
import { SweepLedger } from './sweep-ledger.js';
import { SweepReads } from './sweep-reads.js';

export { SWEEP_STATUSES, SweepReads, type LoadedSweep, type SweepMeta, type SweepStatus } from './sweep-reads.js';
export { KeyspaceLostError, SweepLedger, claimOffer, newSweepId, stepSweepId, type CreateOptions, type GameMaking } from './sweep-ledger.js';

export class SweepStore {
  readonly keys: Keys;
  readonly reads: SweepReads;
  readonly ledger: SweepLedger;

  constructor(
    readonly redis: Redis,
    prefix: string,
  ) {
    this.keys = keys(prefix);
    this.reads = new SweepReads(redis, this.keys);
    this.ledger = new SweepLedger(redis, this.keys, this.reads);
  }

  /** The keyspace's epoch as the coordinator found it, stamped by the ledger on the sweeps it creates. */
  get epoch(): string | undefined {
    return this.ledger.epoch;
  }

  set epoch(epoch: string | undefined) {
    this.ledger.epoch = epoch;
  }


  /** Whether the connection is up now (no round trip). */
  isReady(): boolean {
    return this.redis.status === 'ready';
  }


  /** The connection's state as ioredis names it ('ready', 'reconnecting', …), for messages. */
  connectionStatus(): string {
    return this.redis.status;
  }


  /** Redis's memory against maxmemory, read at most once per `maxAgeMs`; undefined when Redis refuses INFO (lab-state.ts). */
  memory(maxAgeMs = 1000): Promise<RedisMemory | undefined> {
    return recentMemory(this.redis, maxAgeMs);
  }


  /** Whether Redis answers PING within `timeoutMs`. */
  async ping(timeoutMs: number): Promise<boolean> {
    if (!this.isReady()) return false;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
    try {
      return await Promise.race([this.redis.ping().then((r) => r === 'PONG', () => false), late]);
    } finally {
      clearTimeout(timer);
    }
  }
}
