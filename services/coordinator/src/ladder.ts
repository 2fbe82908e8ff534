/**
 * The lab's one rating ladder (issue 18): every agent configuration ever played, by its canonical
 * spec, rated from the finishing orders of every recorded game of every sweep. The aggregates keep
 * each cell's finishing orders as counters (`c<cell>|O<order>`), so the ladder reads only the
 * counters that grew since it last looked — no game is read twice. The batch Plackett–Luce fit over
 * all the counts (there are no online ratings: see lab/stats/ladder.ts) runs on the rating
 * thread (RatingFits) when new games came in, so a request gets the last fit at once, with the
 * number of games it is of.
 */
import type { Logger } from 'pino';
import { cellLabels, configOf, parseFinishingOrder, type RatingFits, type RatingProblem, type Ranking, type Ratings } from '@wonderlab/shared';
import type { PlayStore, SweepStore } from '@wonderlab/shared/store';

export interface LadderReport {
  /** What 0 is (the rule-based player when it has played). */
  anchor: string;
  /** Games with two or more configurations at the table. */
  games: number;
  /** The batch Plackett–Luce fit with 95 % intervals (null before the first fit of a large ladder is ready). */
  batch: Ratings | null;
  /** Which games the batch fit is of (it runs apart and may lag the games fed), when it was made, and whether it is of every game fed. */
  batchFit: { games: number | null; fittedAt: string | null; current: boolean };
}

export class LadderService {
  /** Per sweep: the finishing-order counters already fed, and the games done when last read. */
  private readonly seen = new Map<string, { counts: Map<string, number>; done: number }>();
  /** Every finishing order seen, by its canonical configurations (best first, ties grouped), and how often. */
  private readonly orders = new Map<string, { groups: string[][]; count: number }>();
  /** The play games' finishing orders already fed, and how many of each. */
  private readonly seenPlay = new Map<string, number>();
  /** Games fed so far: the version of the data the batch fit is of. */
  private fed = 0;
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  /** Counts resets: a read begun before one feeds nothing after it. */
  private generation = 0;

  constructor(
    private readonly store: SweepStore,
    private readonly intervalMs: number,
    private readonly logger: Logger,
    private readonly fits: RatingFits,
    private readonly fitWaitMs: number,
    /** The play page's games that asked to join the ladder (the person as `human`). */
    private readonly plays?: PlayStore,
  ) {}

  start(): void {
    const tick = () => {
      // New games: the default anchor's fit is started now (no waiting), for the next request.
      this.update()
        .then(() => this.fit(DEFAULT_ANCHOR, 0))
        .catch((err) => this.logger.warn({ err }, 'updating the ladder failed'))
        .finally(() => (this.timer = setTimeout(tick, this.intervalMs)));
    };
    this.timer = setTimeout(tick, 0);
  }

  stop(): void {
    clearTimeout(this.timer);
  }

  /** Forgets every game fed (the keyspace lost its data: the sweeps they came from are gone). */
  reset(): void {
    this.generation++;
    this.seen.clear();
    this.seenPlay.clear();
    this.orders.clear();
  }

  /** Feeds the games every sweep finished since the last update. */
  update(): Promise<void> {
    this.running ??= this.read().finally(() => (this.running = undefined));
    return this.running;
  }

  private async read(): Promise<void> {
    const generation = this.generation;
    for (const meta of await this.store.reads.list()) {
      const seen = this.seen.get(meta.id) ?? { counts: new Map<string, number>(), done: -1 };
      if (meta.done === seen.done) continue;
      const loaded = await this.store.reads.load(meta.id);
      if (!loaded) continue;
      const counters = await this.store.reads.finishingOrders(meta.id);
      if (generation !== this.generation) return;
      for (const [field, total] of counters) {
        if (!/^c\d+\|O/.test(field)) continue;
        const fed = seen.counts.get(field) ?? 0;
        if (total <= fed) continue;
        const bar = field.indexOf('|');
        const labels = cellLabels(loaded.sweep.cells[Number(field.slice(1, bar))]).map(configOf);
        this.feed(parseFinishingOrder(field.slice(bar + 2)).map((g) => g.map((L) => labels[L])), total - fed);
        seen.counts.set(field, total);
      }
      seen.done = meta.done;
      this.seen.set(meta.id, seen);
    }
    if (!this.plays) return;
    const played = await this.plays.finishingOrders();
    if (generation !== this.generation) return;
    for (const [order, total] of played) {
      const fed = this.seenPlay.get(order) ?? 0;
      if (total <= fed) continue;
      this.feed(JSON.parse(order) as string[][], total - fed);
      this.seenPlay.set(order, total);
    }
  }

  /** Adds `count` games that ended in this order (groups of configurations, best first). */
  private feed(groups: string[][], count: number): void {
    this.fed += count;
    const key = JSON.stringify(groups);
    const known = this.orders.get(key);
    if (known) known.count += count;
    else this.orders.set(key, { groups, count });
  }

  /** The ladder now: the batch fit over every game so far (or the last one, while a newer is made). */
  async report(anchor = DEFAULT_ANCHOR): Promise<LadderReport> {
    await this.update();
    const { problem, games, zero } = this.problem(anchor);
    const fit = await this.fit(anchor, this.fitWaitMs, problem);
    return {
      anchor: fit?.ratings.anchor ?? zero ?? 'the mean of each component',
      games,
      batch: fit?.ratings ?? null,
      batchFit: fit ? { games: fit.ratings.games, fittedAt: new Date(fit.fittedAt).toISOString(), current: fit.current } : { games: null, fittedAt: null, current: false },
    };
  }

  private fit(anchor: string, waitMs: number, problem?: RatingProblem) {
    return this.fits.get(`ladder:${anchor}`, this.fed, () => problem ?? this.problem(anchor).problem, waitMs);
  }

  /** The batch fit's problem over every finishing order fed; the anchor at 0 when it has played. */
  private problem(anchor: string): { problem: RatingProblem; games: number; zero?: string } {
    const configs = [...new Set([...this.orders.values()].flatMap((o) => o.groups.flat()))].sort();
    const index = new Map(configs.map((c, i) => [c, i]));
    const rankings: Ranking[] = [...this.orders.values()].map((o) => ({ groups: o.groups.map((g) => g.map((c) => index.get(c)!)), count: o.count }));
    const games = rankings.filter((r) => new Set(r.groups.flat()).size > 1).reduce((s, r) => s + r.count, 0);
    const zero = index.has(anchor) ? anchor : undefined;
    return { problem: { model: 'plackett-luce', configs, rankings, games, ...(zero ? { anchor: zero } : {}) }, games, zero };
  }
}

/** What 0 is on the ladder unless asked otherwise: the rule-based player, when it has played. */
const DEFAULT_ANCHOR = 'rulebased';
