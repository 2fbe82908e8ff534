/**
 * A sweep's games per second and time to go, on its *active* clock: time it spent running, so a
 * pause (or the queue serving other sweeps first) does not count as slow play. While it runs, the
 * rate is the recent one: games finished in the last RATE_SLOTS buckets of RATE_BUCKET_MS active
 * time (a ring the store keeps, see store/scripts.ts RECORD_RESULT), so a change in the number of
 * workers shows within minutes. Once finished, the rate is over its whole active time.
 */

/** Width of one bucket of the throughput ring, and how many buckets it keeps: 5 minutes. */
export const RATE_BUCKET_MS = 10_000;
export const RATE_SLOTS = 30;

/** The ring as stored: per bucket (⌊active ms / RATE_BUCKET_MS⌋) the games that finished in it. */
export type RateRing = { bucket: number; games: number }[];

/** What the rate is computed from (a sweep's stored meta). */
export interface SweepClock {
  status: 'running' | 'paused' | 'cancelled' | 'done';
  done: number;
  failed: number;
  total: number;
  /** Games a stopping rule will never play. */
  skipped?: number;
  firstDone?: number;
  lastDone?: number;
  activeMs: number;
  runningSince?: number;
  firstDoneActive?: number;
  lastDoneActive?: number;
}

export interface Throughput {
  gamesPerSecond: number;
  /** Seconds to go at that rate: null when not running or when no rate is known yet. */
  etaSeconds: number | null;
  /** Active (running) seconds so far. */
  activeSeconds: number;
  /** Over what the rate was measured: the recent window, or the whole active time. */
  basis: 'recent' | 'whole';
}

/** The active clock's reading at `now`. */
export function activeMillis(c: SweepClock, now: number): number {
  return c.activeMs + (c.runningSince !== undefined ? Math.max(0, now - c.runningSince) : 0);
}

export function throughput(c: SweepClock, ring: RateRing, now: number): Throughput {
  const remaining = c.total - c.done - c.failed - (c.skipped ?? 0);
  const eta = (rate: number) => (c.status === 'running' && rate > 0 ? remaining / rate : null);
  const active = activeMillis(c, now);
  if (c.status === 'done' || c.status === 'cancelled') {
    const span = (c.lastDoneActive ?? 0) - (c.firstDoneActive ?? 0);
    const rate = c.done > 1 && span > 0 ? (c.done - 1) / (span / 1000) : 0;
    return { gamesPerSecond: rate, etaSeconds: null, activeSeconds: active / 1000, basis: 'whole' };
  }
  if (c.firstDoneActive === undefined) return { gamesPerSecond: 0, etaSeconds: null, activeSeconds: active / 1000, basis: 'recent' };
  const current = Math.floor(active / RATE_BUCKET_MS);
  const oldest = current - RATE_SLOTS + 1;
  const inWindow = ring.filter((b) => b.bucket >= oldest && b.bucket <= current).reduce((s, b) => s + b.games, 0);
  const windowStart = oldest * RATE_BUCKET_MS;
  // A window reaching back past the first game: measured from the first game (its own time is not
  // in the span, so it is not counted), as over the whole run.
  const [games, span] = windowStart <= c.firstDoneActive ? [inWindow - 1, active - c.firstDoneActive] : [inWindow, active - windowStart];
  const rate = games > 0 && span > 0 ? games / (span / 1000) : 0;
  return { gamesPerSecond: rate, etaSeconds: eta(rate), activeSeconds: active / 1000, basis: 'recent' };
}
