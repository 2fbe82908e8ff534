/**
 * What the coordinator knows of Redis beyond "it answers" (issue 40): whether its memory is within
 * the headroom of `maxmemory` (then no game is queued and no sweep created: degraded, resuming by
 * itself), and whether the keyspace still holds the lab's data (its epoch key, lab-state.ts).
 *
 * On its first look the coordinator takes the keyspace's epoch, writing one when there is none
 * (with a warning: an empty keyspace is a new lab, or a Redis that lost its data before this
 * process started). When the epoch later goes missing or changes, the data it knew is gone: the
 * coordinator is not ready, says why (readyz, a metric, an error line at a bounded rate), queues
 * nothing, creates no sweep and forgets its ladder. It does not start a new epoch by itself: that
 * would hide the loss. An operator restarts the coordinators once the loss is understood (see the
 * README, "Operating the lab"); the epoch key coming back (a restored backup) clears the state.
 *
 * Before it takes the epoch, the first look brings the stored data to the current schema version
 * (store/schema.ts), so that nothing is fed from data of an older shape; data of a newer version
 * than this code knows keeps the coordinator not ready, saying so.
 */
import type { Logger } from 'pino';
import { SchemaTooNewError, ensureEpoch, epochCreated, isRedisUnavailable, memoryShort, migrateStore, type RedisMemory, type SweepStore } from '@wonderlab/shared/store';

export interface LabHealthOptions {
  /** Read through its connection (the API's, which fails fast); its epoch is set here. */
  store: SweepStore;
  /** Other stores of this process that stamp the epoch on what they create (or check it on what they write). */
  alsoStamp?: { epoch?: string }[];
  logger: Logger;
  intervalMs: number;
  /** While the data is lost, one error line at most this often. */
  logIntervalMs: number;
  /** Called once when the keyspace is found to have lost its data. */
  onLost?: () => void;
}

/** The keyspace lost its data: the epoch this coordinator took, and what the key holds now (null: nothing). */
export interface DataLoss {
  epoch: string;
  found: string | null;
  since: number;
}

export class LabHealth {
  /** The keyspace's epoch as this coordinator first found or made it (undefined until Redis answered). */
  epoch?: string;
  lost?: DataLoss;
  memory?: RedisMemory;
  /** Why memory holds the lab back (memoryShort), or undefined. */
  memoryReason?: string;
  /** Why the stored data cannot be used: its schema version is newer than this code's. */
  schemaRefusal?: string;
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private lastLossLog = 0;
  /** The last failed look that was logged: the same failure is logged once per logIntervalMs. */
  private lastFailure = { message: '', at: 0 };
  private stopped = false;

  constructor(private readonly o: LabHealthOptions) {}

  start(): void {
    this.stopped = false;
    const tick = () => {
      this.check()
        .catch((err: Error) => {
          // Unreachable Redis is the outage log's (and readyz's) business; anything else (an OOM
          // refusing the first epoch's write) would repeat every look.
          const now = Date.now();
          if (isRedisUnavailable(err) || (err.message === this.lastFailure.message && now - this.lastFailure.at < this.o.logIntervalMs)) return;
          this.lastFailure = { message: err.message, at: now };
          this.o.logger.warn({ err }, 'checking the state of Redis failed');
        })
        .finally(() => {
          if (!this.stopped) this.timer = setTimeout(tick, this.o.intervalMs);
        });
    };
    tick();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  /** One look at the epoch and the memory (a look already under way is shared). */
  check(now = Date.now()): Promise<void> {
    this.running ??= this.look(now).finally(() => (this.running = undefined));
    return this.running;
  }

  private async look(now: number): Promise<void> {
    const { store, logger } = this.o;
    const key = store.keys.epoch;
    if (this.epoch === undefined) {
      await this.migrate(now);
      const { epoch, how } = await ensureEpoch(store.redis, store.keys, now);
      this.epoch = epoch;
      for (const s of [store, ...(this.o.alsoStamp ?? [])]) s.epoch = epoch;
      if (how === 'created') logger.warn({ epoch, key }, 'redis held no lab data: a new keyspace epoch was written (a new lab, or a Redis that lost its data before this coordinator started)');
      else if (how === 'adopted') logger.warn({ epoch, key }, 'the keyspace had sweeps but no epoch (stored before epochs): it was given one');
      else logger.info({ epoch, key }, 'keyspace epoch found');
    } else {
      const found = await store.redis.get(key);
      if (found === this.epoch) {
        if (this.lost) logger.warn({ epoch: this.epoch, lostForMs: now - this.lost.since }, 'the keyspace epoch is back (its data was restored): the lab resumes');
        this.lost = undefined;
      } else if (!this.lost) {
        this.lost = { epoch: this.epoch, found, since: now };
        this.lastLossLog = now;
        logger.error({ epoch: this.epoch, found, key }, `redis lost the lab's data: ${this.lossReason()}`);
        this.o.onLost?.();
      } else {
        // What the key holds now (readyz names it), however often it is logged.
        this.lost.found = found;
        if (now - this.lastLossLog >= this.o.logIntervalMs) {
          this.lastLossLog = now;
          logger.error({ epoch: this.epoch, found, key, lostForMs: now - this.lost.since }, `redis still lacks the lab's data: ${this.lossReason()}`);
        }
      }
    }
    const memory = await store.memory(Math.min(1000, this.o.intervalMs));
    const reason = memoryShort(memory);
    if (reason && !this.memoryReason) logger.warn({ used: memory?.used, max: memory?.max }, reason);
    else if (!reason && this.memoryReason) logger.info({ used: memory?.used, max: memory?.max }, 'redis memory is available again: games are queued again');
    this.memory = memory;
    this.memoryReason = reason;
  }

  /** Brings the stored data to the current schema version, once (see the file's note). */
  private async migrate(now: number): Promise<void> {
    const { store, logger } = this.o;
    try {
      const report = await migrateStore(store.redis, store.keys, now);
      this.schemaRefusal = undefined;
      for (const step of report.steps) logger.warn({ key: store.keys.schema, to: step.to, sweeps: step.sweeps }, `stored data migrated to schema version ${step.to}: ${step.what}`);
    } catch (err) {
      if (!(err instanceof SchemaTooNewError)) throw err;
      if (this.schemaRefusal === undefined) logger.error({ key: store.keys.schema, found: err.found, known: err.known }, err.message);
      this.schemaRefusal = err.message;
      throw err;
    }
  }

  /** What readyz and the logs say of a loss. */
  lossReason(): string {
    const l = this.lost;
    if (!l) return '';
    const what = l.found === null ? `the epoch key ${this.o.store.keys.epoch} is missing (FLUSHALL, or Redis restarted without its data)` : `the epoch key now holds ${l.found}, not ${l.epoch} (another coordinator started a new epoch)`;
    return `${what}; sweeps and results of epoch ${l.epoch} are gone, nothing is queued or stored; restart the coordinators to start a new epoch (README: Operating the lab)`;
  }

  /** Why /readyz is not ready (beyond Redis answering), or undefined. */
  notReady(): string | undefined {
    if (this.schemaRefusal) return this.schemaRefusal;
    return this.lost ? `redis lost the lab's data: ${this.lossReason()}` : undefined;
  }

  /** Why no game may be queued now (the feeder's gate), or undefined. */
  feedBlocker(): string | undefined {
    if (this.schemaRefusal) return this.schemaRefusal;
    if (this.epoch === undefined) return 'the keyspace has not been checked yet';
    return this.notReady() ?? this.memoryReason;
  }

  /**
   * Why no sweep may be created now (a 503), or undefined. Looks again first (a GET and an INFO): a
   * sweep created in a keyspace emptied since the last look would carry the old epoch, and no
   * worker could ever store its games.
   */
  async refuseNewWork(): Promise<string | undefined> {
    // Data of a newer schema: the refusal is the answer (the look that found it throws each time).
    await this.check().catch((err: unknown) => {
      if (this.schemaRefusal === undefined) throw err;
    });
    return this.notReady() ?? memoryShort(await this.o.store.memory(0));
  }

  /** When the epoch this coordinator works in was created (seconds since 1970), for the metric. */
  epochStartSeconds(): number | undefined {
    const ms = this.epoch === undefined ? undefined : epochCreated(this.epoch);
    return ms === undefined ? undefined : ms / 1000;
  }
}
