/**
 * Rating fits off the caller's event loop, cached. A fit of k configurations costs up to O(k³)
 * (a 1000-configuration ladder about half a second); the lab's one process also feeds the queue,
 * streams live updates and answers health checks, so fits run on a worker thread of their own and
 * a request is answered from the cache: the fit of the data it asks about when that is ready
 * within a short wait, else the last fit of the same question (with its version and age), and
 * the newer fit lands for the next request. At most one fit per question runs and one waits
 * (the newest), however often it is asked. Problems too small to be worth the thread's round
 * trip are fitted in place.
 */
import { LatestCache, type Versioned } from './latest-cache.js';
import type { Ratings } from '../stats/ratings.js';
import { solveRatings, type RatingProblem } from '../stats/rating-problem.js';
import { ThreadClient } from './thread-client.js';

/** Ratings with the version of the data they were fitted on. */
export interface FittedRatings {
  ratings: Ratings;
  /** The data's version (games done) the fit is of, when it finished, and whether that is the version asked about. */
  version: number;
  fittedAt: number;
  current: boolean;
}

/** Configurations up to which a fit is made in place: well under a millisecond, less than posting it to the thread. */
export const INLINE_FIT_CONFIGS = 24;

export class RatingFits {
  private readonly thread = new ThreadClient<RatingProblem, Ratings>(new URL('./rating-thread.js', import.meta.url));
  private readonly cache: LatestCache<Ratings>;

  constructor(private readonly o: { cacheSize?: number; inlineConfigs?: number; onError?: (err: Error, key: string) => void } = {}) {
    this.cache = new LatestCache<Ratings>(o.cacheSize ?? 256, o.onError);
  }

  /**
   * The ratings of question `key` at data version `version` (increasing), waiting at most
   * `waitMs` for a fit of that version; else the last fit of the question (current: false), or
   * undefined before its first. A bad anchor throws a RangeError at once.
   */
  async get(key: string, version: number, problem: () => RatingProblem, waitMs: number): Promise<FittedRatings | undefined> {
    const hit = this.cache.fresh(key, version);
    if (hit) return fitted(hit);
    const p = problem();
    if (p.anchor !== undefined && !p.configs.includes(p.anchor)) throw new RangeError(`no configuration '${p.anchor}' among ${p.configs.join(', ')}`);
    const small = p.configs.length <= (this.o.inlineConfigs ?? INLINE_FIT_CONFIGS);
    const compute = small ? async () => solveRatings(p) : () => this.thread.call(p);
    try {
      const got = await this.cache.get(key, version, compute, small ? undefined : waitMs);
      return got && fitted(got);
    } catch {
      // A fit that failed (reported through onError) leaves the last one standing.
      const last = this.cache.last(key);
      return last && fitted(last);
    }
  }

  /** Forgets every fit (the data they were of is gone). */
  clear(): void {
    this.cache.clear();
  }

  /** Starts the thread now, so that the first large fit does not wait for it to load. */
  warm(): void {
    this.thread.warm();
  }

  close(): Promise<void> {
    return this.thread.close();
  }
}

const fitted = (v: Versioned<Ratings>): FittedRatings => ({ ratings: v.value, version: v.version, fittedAt: v.at, current: v.current });
