/**
 * The read side of a sweep's aggregates: the flat counter table (increments.ts writes it) as
 * statistics — win rates with intervals, VP quantiles, per-wonder results, card frequencies and
 * progression curves, per cell, label and role.
 */
import { SCORE_CATEGORIES } from '../../engine/index.js';
import { Z95, meanHalfWidth, normalHalfWidth, wilson, type Interval, type Summary } from '../stats/stats.js';
import type { SweepCell, SweptValues } from '../plan/sweep.js';
import { progressionBuckets } from './increments.js';
import { cellLabels, sweepConfigs } from './labels.js';

export interface RateEstimate {
  games: number;
  wins: number;
  winRate: number;
  /** Half-width of the normal-approximation 95 % interval (the papers' ±). */
  halfWidth: number;
  wilson: Interval;
}

/** The mean of per-group win rates over complete paired groups, with a 95 % normal interval. */
export interface PairedEstimate {
  groups: number;
  mean: number;
  halfWidth: number;
}

export interface WonderAggregate extends RateEstimate {
  wonder: string;
  side: string;
  meanStages: number;
  meanVp: number;
}

export interface LabelAggregate extends RateEstimate {
  label: string;
  /** The agent's canonical spec: the same configuration however a sweep writes it (its colour on the dashboard). */
  config: string;
  /** Seats of the cell with this agent. */
  seats: number;
  /** Most VP shared with another seat. */
  ties: number;
  /** Rulebook wins decided by coins after a VP tie (not counted as wins). */
  coinWins: number;
  vp: Summary;
  /** Half-width of the normal 95 % interval of the mean VP (vp.mean ± this; n = vp.n). */
  vpMeanHalfWidth: number;
  /** Mean points per category. */
  score: Record<string, number>;
  meanStages: number;
  /** Count per rank, index 0 = rank 1. */
  ranks: number[];
  decisionMs: number;
  iterationsPerSecond: number;
  cutShort: number;
  wonders: WonderAggregate[];
  /** Cards in this label's winning cities: count, and share of its wins that built the card. */
  cards: CardInWins[];
  /** Cumulative win rate after the games of each progression bucket (in the cell's play order). */
  progression: { games: number; winRate: number }[];
  paired?: PairedEstimate;
}

/** The agent of one seat of the spec, followed through every seating. */
export interface RoleAggregate extends RateEstimate {
  /** The spec's seat of this agent. */
  seat: number;
  agent: string;
  meanVp: number;
  paired?: PairedEstimate;
}

export interface CellAggregate {
  index: number;
  agents: string[];
  swept: SweptValues;
  games: number;
  decidedBy: { vp: number; coins: number; shared: number };
  labels: LabelAggregate[];
  /** One entry per seat of the spec: that seat's agent wherever the seating puts it. */
  roles: RoleAggregate[];
  /** Paired difference of the compared roles' win rates (first minus second). */
  pairedDifference?: PairedEstimate & { seats: [number, number]; labels: [string, string] };
}

export function rateEstimate(wins: number, games: number): RateEstimate {
  return { games, wins, winRate: games ? wins / games : NaN, halfWidth: normalHalfWidth(wins, games, Z95), wilson: wilson(wins, games) };
}

function pairedEstimate(sum: number, sumSq: number, n: number): PairedEstimate | undefined {
  if (n === 0) return undefined;
  const mean = sum / n;
  const variance = n > 1 ? Math.max(0, (sumSq - n * mean * mean) / (n - 1)) : 0;
  return { groups: n, mean, halfWidth: n > 1 ? Z95 * Math.sqrt(variance / n) : NaN };
}

/** Quantile (linear, type 7 — as simple-statistics computes it) of a histogram of integers. */
export function histogramQuantile(sorted: readonly [number, number][], n: number, p: number): number {
  const at = (rank: number) => {
    let seen = 0;
    for (const [value, count] of sorted) {
      seen += count;
      if (rank < seen) return value;
    }
    return sorted[sorted.length - 1][0];
  };
  const idx = (n - 1) * p;
  const lower = Math.floor(idx);
  const low = at(lower);
  return idx === lower ? low : low + (idx - lower) * (at(lower + 1) - low);
}

function histogramSummary(histogram: Map<number, number>, sum: number, sumSq: number): Summary {
  const sorted = [...histogram].filter(([, c]) => c > 0).sort((a, b) => a[0] - b[0]);
  const n = sorted.reduce((s, [, c]) => s + c, 0);
  if (n === 0) return { n: 0, mean: NaN, sd: NaN, min: NaN, q1: NaN, median: NaN, q3: NaN, max: NaN };
  const mean = sum / n;
  return {
    n,
    mean,
    sd: n > 1 ? Math.sqrt(Math.max(0, (sumSq - n * mean * mean) / (n - 1))) : 0,
    min: sorted[0][0],
    q1: histogramQuantile(sorted, n, 0.25),
    median: histogramQuantile(sorted, n, 0.5),
    q3: histogramQuantile(sorted, n, 0.75),
    max: sorted[sorted.length - 1][0],
  };
}

/** One cell's counters, split by owner: the cell's own, each label's and each role's (prefix removed). */
export interface CellFields {
  own: Map<string, number>;
  labels: Map<number, Map<string, number>>;
  roles: Map<number, Map<string, number>>;
}

/** Groups the aggregate table's fields by cell and owner once: c<cell>|L<label>|rest, c<cell>|R<role>|rest, c<cell>|rest. */
export function groupAggregateTable(table: ReadonlyMap<string, number> | Record<string, string | number>): Map<number, CellFields> {
  const byCell = new Map<number, CellFields>();
  const entries = table instanceof Map ? table.entries() : Object.entries(table);
  for (const [field, raw] of entries) {
    const value = Number(raw);
    const bar = field.indexOf('|');
    const cell = Number(field.slice(1, bar));
    let slot = byCell.get(cell);
    if (!slot) byCell.set(cell, (slot = { own: new Map(), labels: new Map(), roles: new Map() }));
    const rest = field.slice(bar + 1);
    if (rest[0] === 'L' || rest[0] === 'R') {
      const bar2 = rest.indexOf('|');
      const index = Number(rest.slice(1, bar2));
      const into = rest[0] === 'L' ? slot.labels : slot.roles;
      let own = into.get(index);
      if (!own) into.set(index, (own = new Map()));
      own.set(rest.slice(bar2 + 1), value);
    } else {
      slot.own.set(rest, value);
    }
  }
  return byCell;
}

/** A card in winning cities against its base rate in all of the agent's cities. */
export interface CardInWins {
  card: string;
  /** Wins whose city built it. */
  count: number;
  /** count / wins. */
  frequency: number;
  /** Games (won or not) whose city built it. */
  games: number;
  /** games / all games: how often the agent builds it at all. */
  baseRate: number;
  /** frequency / baseRate: above 1, the card is more common in wins than in the agent's games. */
  lift: number;
}

function cardInWins(card: string, count: number, wins: number, withCard: number, games: number): CardInWins {
  const frequency = wins ? count / wins : 0;
  // Records aggregated before base rates were counted have no `k` field: no base rate, no lift.
  const baseRate = withCard && games ? withCard / games : NaN;
  return { card, count, frequency, games: withCard, baseRate, lift: frequency / baseRate };
}

/** The counters of one label (or of one label pooled over cells) as statistics. */
export function summarizeLabelFields(f: ReadonlyMap<string, number>, players: number, buckets: number): Omit<LabelAggregate, 'label' | 'seats' | 'config'> {
  const get = (k: string) => f.get(k) ?? 0;
  const games = get('g');
  const histogram = new Map<number, number>();
  const ranks: number[] = [];
  const wonders = new Map<string, Map<string, number>>();
  const cards: CardInWins[] = [];
  for (const [k, v] of f) {
    if (k[0] === 'h') histogram.set(Number(k.slice(1)), v);
    else if (k[0] === 'r') ranks[Number(k.slice(1)) - 1] = v;
    else if (k[0] === 'K' && v > 0) cards.push(cardInWins(k.slice(1), v, get('w'), get(`k${k.slice(1)}`), games));
    else if (k[0] === 'W') {
      const bar = k.lastIndexOf('|');
      const key = k.slice(1, bar);
      let w = wonders.get(key);
      if (!w) wonders.set(key, (w = new Map()));
      w.set(k.slice(bar + 1), v);
    }
  }
  let cumGames = 0;
  let cumWins = 0;
  const progression: { games: number; winRate: number }[] = [];
  for (let b = 0; b < buckets; b++) {
    const g = get(`b${b}|g`);
    if (g === 0) continue;
    cumGames += g;
    cumWins += get(`b${b}|w`);
    progression.push({ games: cumGames, winRate: cumWins / cumGames });
  }
  const ms = get('ms');
  const paired = pairedEstimate(get('px'), get('px2'), get('pn'));
  const vp = histogramSummary(histogram, get('vp'), get('vp2'));
  return {
    ...rateEstimate(get('w'), games),
    ties: get('t'),
    coinWins: get('cw'),
    vp,
    vpMeanHalfWidth: meanHalfWidth(vp.sd, vp.n),
    score: Object.fromEntries(SCORE_CATEGORIES.map((cat) => [cat, games ? get(`s:${cat}`) / games : NaN])),
    meanStages: games ? get('st') / games : NaN,
    ranks: Array.from({ length: players }, (_, i) => ranks[i] ?? 0),
    decisionMs: get('d') ? ms / get('d') : 0,
    iterationsPerSecond: ms > 0 ? get('it') / (ms / 1000) : 0,
    cutShort: get('cut'),
    wonders: [...wonders]
      .map(([key, w]) => {
        const [wonder, side] = key.split(':');
        const g = w.get('g') ?? 0;
        return { wonder, side, ...rateEstimate(w.get('w') ?? 0, g), meanStages: g ? (w.get('st') ?? 0) / g : NaN, meanVp: g ? (w.get('vp') ?? 0) / g : NaN };
      })
      .sort((a, b) => a.wonder.localeCompare(b.wonder) || a.side.localeCompare(b.side)),
    cards: cards.sort((a, b) => b.count - a.count || a.card.localeCompare(b.card)),
    progression,
    ...(paired ? { paired } : {}),
  };
}

const emptyCell = (): CellFields => ({ own: new Map(), labels: new Map(), roles: new Map() });

/** Turns the aggregate table into per-cell statistics. */
export function summarizeAggregates(
  table: ReadonlyMap<string, number> | Record<string, string | number>,
  cells: readonly SweepCell[],
  gamesPerCell: number,
): CellAggregate[] {
  return summarizeCells(groupAggregateTable(table), cells, gamesPerCell);
}

/** The same from the table grouped by cell (groupAggregateTable). */
export function summarizeCells(byCell: ReadonlyMap<number, CellFields>, cells: readonly SweepCell[], gamesPerCell: number): CellAggregate[] {
  const buckets = progressionBuckets(gamesPerCell);
  const configOf = sweepConfigs(cells);
  return cells.map((cell) => {
    const slot = byCell.get(cell.index) ?? emptyCell();
    const own = (k: string) => slot.own.get(k) ?? 0;
    const labels = cellLabels(cell);
    const labelAggregates = labels.map(
      (label, L): LabelAggregate => ({
        label,
        config: configOf(label),
        seats: cell.agents.filter((a) => a === label).length,
        ...summarizeLabelFields(slot.labels.get(L) ?? new Map<string, number>(), cell.agents.length, buckets),
      }),
    );
    const roles = cell.agents.map((agent, seat): RoleAggregate => {
      const f = slot.roles.get(seat) ?? new Map<string, number>();
      const get = (k: string) => f.get(k) ?? 0;
      const paired = pairedEstimate(get('px'), get('px2'), get('pn'));
      return { seat, agent, ...rateEstimate(get('w'), get('g')), meanVp: get('g') ? get('vp') / get('g') : NaN, ...(paired ? { paired } : {}) };
    });
    const diff = pairedEstimate(own('pd'), own('pd2'), own('pdn'));
    const compared = cell.compared;
    return {
      index: cell.index,
      agents: cell.agents,
      swept: cell.swept,
      games: own('n'),
      decidedBy: { vp: own('dec:vp'), coins: own('dec:coins'), shared: own('dec:shared') },
      labels: labelAggregates,
      roles,
      ...(diff && compared ? { pairedDifference: { ...diff, seats: compared, labels: [cell.agents[compared[0]], cell.agents[compared[1]]] as [string, string] } } : {}),
    };
  });
}
