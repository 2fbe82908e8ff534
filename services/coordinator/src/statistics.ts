/**
 * A sweep's statistics for its detail, off the event loop and cached. Computing them costs in
 * proportion to the sweep's cells (a 1000-cell sweep: a ~100,000-field hash read, pooling, a
 * rating fit of 1000 configurations and 3 MB of JSON, about a second); the coordinator's one
 * event loop also feeds the queue and answers health checks. So a thread of their own reads and
 * computes them (statistics-thread.ts), and each page of a sweep is kept as JSON text by version
 * (its games finished, failed and skipped): a finished sweep's is made once; a running sweep's
 * detail waits at most `waitMs` for the statistics of the games done now, else gets the last ones
 * (`statisticsAsOf` says which), and never more than one computation per page runs at a time. A
 * finished sweep's detail always waits for its final statistics.
 */
import type { SweepMeta } from '@wonderlab/shared/store';
import { LatestCache, ThreadClient, type Versioned } from '@wonderlab/shared';

export interface StatisticsThreadData {
  redisUrl: string;
  prefix: string;
  commandTimeoutMs: number;
}

/** A page of a sweep's statistics, or its configurations against each other with `anchor` at 0 (GET /api/sweeps/:id/ratings). */
export type StatisticsRequest = { kind: 'page'; id: string; offset: number; limit: number } | { kind: 'versus'; id: string; anchor?: string };

/** Which games a detail's statistics are of: the version (finished, failed and skipped), when they were computed, whether that is now. */
export interface StatisticsAsOf {
  version: number;
  computedAt: string;
  current: boolean;
}

export class SweepStatistics {
  private readonly thread: ThreadClient<StatisticsRequest, string>;
  private readonly cache = new LatestCache<string>(64);
  /** How long each page's last computation took: a running sweep's is computed again no sooner than twice that after it. */
  private readonly took = new Map<string, number>();

  constructor(
    data: StatisticsThreadData,
    private readonly waitMs: number,
  ) {
    this.thread = new ThreadClient(new URL('./statistics-thread.js', import.meta.url), data);
  }

  /** The statistics of a page of the sweep as JSON text (an object), and which games they are of. */
  page(meta: SweepMeta, offset: number, limit: number): Promise<{ json: string; asOf: StatisticsAsOf }> {
    return this.get(meta, `${meta.id}:${offset}:${limit}`, { kind: 'page', id: meta.id, offset, limit });
  }

  /**
   * The sweep's head-to-head matrix and ratings with `anchor` at 0, as JSON text
   * (`{ headToHead, ratings, note? }`); an anchor that is no configuration of the sweep is a
   * RangeError (by name: it crossed from the thread).
   */
  versus(meta: SweepMeta, anchor?: string): Promise<{ json: string; asOf: StatisticsAsOf }> {
    return this.get(meta, `${meta.id}:versus:${anchor ?? ''}`, { kind: 'versus', id: meta.id, ...(anchor !== undefined ? { anchor } : {}) });
  }

  private async get(meta: SweepMeta, key: string, request: StatisticsRequest): Promise<{ json: string; asOf: StatisticsAsOf }> {
    const version = meta.done + meta.failed + meta.skipped;
    const last = this.cache.last(key);
    // A finished sweep's statistics are final: computed once and waited for, never served stale
    // (a client that waited for `done` reads the last games in them).
    const finished = meta.status === 'done' || meta.status === 'cancelled';
    // A running sweep's are computed again no sooner than twice the last computation's time after
    // it: a watched running sweep keeps the thread busy a third of the time at most. Statistics
    // that took less than the wait (a sweep of a few cells) are always brought up to date.
    const took = this.took.get(key) ?? 0;
    const cheap = took < this.waitMs;
    if (!finished && !cheap && last && last.version < version && Date.now() - last.at < 2 * took) return this.asText(last);
    const compute = async () => {
      const started = Date.now();
      const json = await this.thread.call(request);
      this.took.set(key, Date.now() - started);
      return json;
    };
    // The first time, there is nothing to serve meanwhile: wait (the event loop stays free).
    return this.asText((await this.cache.get(key, version, compute, last && !finished && !cheap ? this.waitMs : undefined))!);
  }

  private asText(got: Versioned<string>): { json: string; asOf: StatisticsAsOf } {
    return { json: got.value, asOf: { version: got.version, computedAt: new Date(got.at).toISOString(), current: got.current } };
  }

  /** Forgets every page (the data they were of is gone). */
  clear(): void {
    this.cache.clear();
    this.took.clear();
  }

  warm(): void {
    this.thread.warm();
  }

  close(): Promise<void> {
    return this.thread.close();
  }
}
