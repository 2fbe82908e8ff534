/**
 * Head-to-head: for two agents that sat at the same table, how often one scored more VP than the
 * other (a tie counts half). Unlike "won the game", this compares the two directly, whoever else
 * played: the question a matrix of agents asks ("which of the two is stronger, by how much?").
 */
import type { GameSummary } from '../game/game.js';
import { wilson, type Interval } from '../stats/stats.js';

export interface HeadToHeadPair {
  /** Canonical specs, a before b in sort order. */
  a: string;
  b: string;
  /** Seat pairs compared (one per game when each sits once). */
  games: number;
  /** Games a scored more VP than b, and ties. */
  aMore: number;
  ties: number;
  /** (aMore + ties / 2) / games: a's score against b. */
  score: number;
  /** Wilson 95 % interval of that score (ties as half a success). */
  interval: Interval;
}

/** a's score against b in a matrix: its points, comparisons and Wilson interval (NaN when they never met). */
export interface HeadToHeadCell {
  games: number;
  more: number;
  ties: number;
  score: number;
  interval: Interval;
}

/**
 * Folds games into every pair of different agents' head-to-head counts: game summaries (add), or
 * finishing orders counted in a sweep's aggregates (addOrdering).
 */
export class HeadToHead {
  private readonly counts = new Map<string, { a: string; b: string; games: number; aMore: number; ties: number }>();

  /** One comparison of x's seat and y's seat, `count` times: x scored more (1), the same (0) or less (−1). */
  private tally(x: string, y: string, outcome: 1 | 0 | -1, count: number): void {
    if (x === y) return;
    if (y < x) {
      [x, y] = [y, x];
      outcome = -outcome as 1 | 0 | -1;
    }
    const key = `${x}\u0000${y}`;
    let c = this.counts.get(key);
    if (!c) this.counts.set(key, (c = { a: x, b: y, games: 0, aMore: 0, ties: 0 }));
    c.games += count;
    if (outcome === 1) c.aMore += count;
    else if (outcome === 0) c.ties += count;
  }

  add(g: GameSummary): void {
    const players = g.players;
    for (let i = 0; i < players.length; i++) {
      for (let j = i + 1; j < players.length; j++) {
        const [x, y] = [players[i], players[j]];
        this.tally(x.canonical, y.canonical, x.score.total > y.score.total ? 1 : x.score.total === y.score.total ? 0 : -1, 1);
      }
    }
  }

  /** `count` games that ended in this order: each seat's agent, best VP first, VP ties grouped. */
  addOrdering(groups: readonly (readonly string[])[], count = 1): void {
    const seats = groups.flatMap((g, place) => g.map((agent) => ({ agent, place })));
    for (let p = 0; p < seats.length; p++) {
      for (let q = p + 1; q < seats.length; q++) this.tally(seats[p].agent, seats[q].agent, seats[p].place === seats[q].place ? 0 : 1, count);
    }
  }

  pairs(): HeadToHeadPair[] {
    return [...this.counts.values()]
      .sort((p, q) => p.a.localeCompare(q.a) || p.b.localeCompare(q.b))
      .map((c) => {
        const points = c.aMore + c.ties / 2;
        return { ...c, score: points / c.games, interval: wilson(points, c.games) };
      });
  }

  /** a's score against b, whichever order they are given in (undefined when they never met). */
  score(a: string, b: string): { score: number; games: number; interval: Interval } | undefined {
    const flip = b < a;
    const pair = this.pairs().find((p) => p.a === (flip ? b : a) && p.b === (flip ? a : b));
    if (!pair) return undefined;
    if (!flip) return { score: pair.score, games: pair.games, interval: pair.interval };
    return { score: 1 - pair.score, games: pair.games, interval: { low: 1 - pair.interval.high, high: 1 - pair.interval.low } };
  }

  /** rows[i][j]: agents[i] against agents[j] (more VP in the same game, ties half); null on the diagonal. */
  matrix(agents: readonly string[]): (HeadToHeadCell | null)[][] {
    return agents.map((x) =>
      agents.map((y) => {
        if (x === y) return null;
        const [a, b] = y < x ? [y, x] : [x, y];
        const c = this.counts.get(`${a}\u0000${b}`);
        if (!c) return { games: 0, more: 0, ties: 0, score: NaN, interval: { low: NaN, high: NaN } };
        const more = a === x ? c.aMore : c.games - c.aMore - c.ties;
        const points = more + c.ties / 2;
        return { games: c.games, more, ties: c.ties, score: points / c.games, interval: wilson(points, c.games) };
      }),
    );
  }
}
