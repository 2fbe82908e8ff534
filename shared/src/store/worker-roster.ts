/**
 * The workers the lab has heard from, so that lost capacity shows (the dashboard, /metrics): each
 * worker reports itself every HEARTBEAT_MS in one sorted set (who → when last heard), and takes
 * itself out when it stops cleanly. A worker last heard more than SEEN_WINDOW_MS ago stopped
 * without a word — killed, crashed, or cut off from Redis: its games went back to the queue by
 * their locks, but its slots are gone until it comes back. Entries older than SILENT_KEEP_MS are
 * dropped at the next report, so the set stays about the size of the fleet.
 *
 * Times are the reporting worker's clock against the reader's: skew between machines well under
 * the window (NTP) does not matter.
 */
import type { Redis } from 'ioredis';
import type { Keys } from './keys.js';

/** How often a running worker reports itself. */
export const HEARTBEAT_MS = 10_000;
/** A worker heard within this long counts as seen (several heartbeats, so one late report does not drop it). */
export const SEEN_WINDOW_MS = 60_000;
/** How long a worker that went silent stays listed as such. */
export const SILENT_KEEP_MS = 3_600_000;

/** A worker as the roster knows it. */
export interface RosterWorker {
  host: string;
  pid: number;
  /** Games it plays at once. */
  slots: number;
  /** The code it runs, where known. */
  commit?: string;
}

export interface RosterEntry extends RosterWorker {
  /** When it last reported (ms since the epoch). */
  lastSeen: number;
}

export interface Roster {
  /** Heard within SEEN_WINDOW_MS, most recent first. */
  seen: RosterEntry[];
  /** Silent since, without having stopped cleanly (heard SEEN_WINDOW_MS to SILENT_KEEP_MS ago), most recent first. */
  silent: RosterEntry[];
}

/** The set's member for a worker: the same text at every report. */
export const rosterMember = (w: RosterWorker): string => JSON.stringify({ host: w.host, pid: w.pid, slots: w.slots, ...(w.commit ? { commit: w.commit } : {}) });

export class WorkerRoster {
  constructor(
    private readonly redis: Redis,
    private readonly keys: Keys,
  ) {}

  /** `worker` is running now; entries older than SILENT_KEEP_MS go. */
  async report(worker: RosterWorker, now = Date.now()): Promise<void> {
    await this.redis.multi().zadd(this.keys.roster, now, rosterMember(worker)).zremrangebyscore(this.keys.roster, '-inf', now - SILENT_KEEP_MS).exec();
  }

  /** `worker` stopped on purpose: it is neither seen nor silent. */
  async leave(worker: RosterWorker): Promise<void> {
    await this.redis.zrem(this.keys.roster, rosterMember(worker));
  }

  async read(now = Date.now()): Promise<Roster> {
    const flat = await this.redis.zrevrangebyscore(this.keys.roster, '+inf', now - SILENT_KEEP_MS, 'WITHSCORES');
    const roster: Roster = { seen: [], silent: [] };
    for (let i = 0; i < flat.length; i += 2) {
      let worker: RosterWorker;
      try {
        worker = JSON.parse(flat[i]) as RosterWorker;
      } catch {
        continue; // not a member this code wrote
      }
      const entry = { ...worker, lastSeen: Number(flat[i + 1]) };
      (now - entry.lastSeen <= SEEN_WINDOW_MS ? roster.seen : roster.silent).push(entry);
    }
    return roster;
  }
}
