/**
 * Incremental aggregates of a sweep. Each finished game becomes a list of counter increments
 * (field → delta) that a store adds to one flat table, so reading the aggregates never rescans
 * the games; `summarizeAggregates` turns that table into win rates with intervals, VP quantiles,
 * per-wonder results, card frequencies and progression curves.
 *
 * Fields are `c<cell>|…` for a cell, `c<cell>|L<label>|…` for one of its labels (a label is a
 * distinct agent spec of the cell, in seat order; seats with the same spec are pooled, as in
 * `wonderlab play`) and `c<cell>|R<role>|…` for one *role*: the agent the spec puts in seat
 * <role>, followed wherever a seating moves it (a matchup's row agent, a swap's first agent, even
 * when the same spec also sits elsewhere). Paired designs add per-group partial sums that are
 * folded into `…|px`, `…|px2`, `…|pn` (and `c<cell>|pd…` for the difference of the compared
 * roles) only when every game of the group is in; `AggregateFold` does that in memory exactly as
 * the Redis script does it in the store.
 */
import { canonicalSpec, parseAgentSpec } from '../agents/index.js';
import { SCORE_CATEGORIES } from '../engine/index.js';
import type { GameSummary } from './game.js';
import { Z95, meanHalfWidth, normalHalfWidth, wilson, type Interval, type Summary } from './stats.js';
import type { Sweep, SweepCell, SweptValues } from './sweep.js';

/** Progression curves keep at most this many points per cell. */
export const PROGRESSION_POINTS = 100;

/** Where a game sits in its sweep: what the increments need to know besides the summary. */
export interface GamePlacement {
  cell: number;
  /** Its place in its cell's play order (Sweep.playRank): the progression curve's order. */
  playRank: number;
  gamesPerCell: number;
  /** The cell's distinct agent specs, in seat order. */
  labels: readonly string[];
  /** The paired group (board set and deal) and its size, when a deal is played in several seat orders. */
  group?: { key: string; size: number };
  /** Role (the spec's seat of the agent) of each seat of this game. */
  roles: readonly number[];
  /** The compared roles of a paired design (swap seats, matchup seats). */
  compared?: [number, number];
}

const canonical = new Map<string, string>();
/** A label's canonical spec (cached: labels repeat over every cell and every request). */
export function configOf(label: string): string {
  let c = canonical.get(label);
  if (c === undefined) canonical.set(label, (c = canonicalSpec(parseAgentSpec(label))));
  return c;
}

/** A cell's labels: its distinct agent specs in seat order. */
export function cellLabels(cell: SweepCell): string[] {
  return [...new Set(cell.agents)];
}

/** Where game k sits in its sweep; `plan` is sweep.game(k), for a caller that has built it already. */
export function placementOf(sweep: Sweep, k: number, plan = sweep.game(k)): GamePlacement {
  const cell = sweep.cells[plan.cell];
  const labels = cellLabels(cell);
  const orders = sweep.ordersPerDeal;
  return {
    cell: plan.cell,
    playRank: sweep.playRank(k),
    gamesPerCell: sweep.gamesPerCell,
    labels,
    ...(orders > 1 ? { group: { key: `c${plan.cell}|s${plan.set}|d${plan.deal}`, size: orders } } : {}),
    roles: sweep.orders[plan.seating],
    ...(cell.compared ? { compared: cell.compared } : {}),
  };
}

export function progressionBuckets(gamesPerCell: number): number {
  return Math.min(gamesPerCell, PROGRESSION_POINTS);
}

function labelIndex(placement: GamePlacement, agent: string, id: string): number {
  const i = placement.labels.indexOf(agent);
  if (i < 0) throw new Error(`game ${id}: agent '${agent}' is not one of its cell's agents`);
  return i;
}

/**
 * A game's finishing order by VP as its seats' label indices, best first: `>` between different VP,
 * `=` within a tie (each tie's labels in ascending order), e.g. `1>0=2`. Counted per cell (field
 * `c<cell>|O<order>`), it is all the head-to-head matrix and the ratings need, and takes no more
 * fields than there are distinct orders.
 */
export function finishingOrder(g: GameSummary, at: GamePlacement): string {
  const seats = g.players.map((p) => ({ vp: p.score.total, label: labelIndex(at, p.agent, g.id) })).sort((a, b) => b.vp - a.vp || a.label - b.label);
  return seats.map((s, i) => (i === 0 ? '' : s.vp === seats[i - 1].vp ? '=' : '>') + s.label).join('');
}

/** The groups of a finishing order: label indices, best first, a VP tie in one group. */
export function parseFinishingOrder(text: string): number[][] {
  return text.split('>').map((group) => group.split('=').map(Number));
}

/** The counter increments one game adds (seats of the same label summed). */
export function gameIncrements(g: GameSummary, at: GamePlacement): Map<string, number> {
  const out = new Map<string, number>();
  const add = (field: string, delta: number) => {
    if (delta !== 0) out.set(field, (out.get(field) ?? 0) + delta);
  };
  const c = `c${at.cell}`;
  const best = Math.max(...g.players.map((p) => p.score.total));
  const bucket = Math.floor((at.playRank * progressionBuckets(at.gamesPerCell)) / at.gamesPerCell);
  add(`${c}|n`, 1);
  add(`${c}|dec:${g.decidedBy}`, 1);
  add(`${c}|O${finishingOrder(g, at)}`, 1);
  for (const p of g.players) {
    const R = `${c}|R${at.roles[p.seat]}`;
    add(`${R}|g`, 1);
    add(`${R}|w`, p.winner ? 1 : 0);
    add(`${R}|vp`, p.score.total);
    const L = `${c}|L${labelIndex(at, p.agent, g.id)}`;
    const win = p.winner ? 1 : 0;
    const vp = p.score.total;
    add(`${L}|g`, 1);
    add(`${L}|w`, win);
    add(`${L}|t`, !p.winner && vp === best ? 1 : 0);
    add(`${L}|cw`, g.decidedBy === 'coins' && g.winners.includes(p.seat) ? 1 : 0);
    add(`${L}|vp`, vp);
    add(`${L}|vp2`, vp * vp);
    add(`${L}|h${vp}`, 1);
    for (const cat of SCORE_CATEGORIES) add(`${L}|s:${cat}`, p.score[cat]);
    add(`${L}|st`, p.stages);
    add(`${L}|ms`, p.decisionMs * p.decisions);
    add(`${L}|d`, p.decisions);
    add(`${L}|it`, p.iterations);
    add(`${L}|cut`, p.cutShort);
    add(`${L}|r${p.rank}`, 1);
    const W = `${L}|W${p.city}:${p.side}`;
    add(`${W}|g`, 1);
    add(`${W}|w`, win);
    add(`${W}|st`, p.stages);
    add(`${W}|vp`, vp);
    // Every game's cards as well as the winners': a card's base rate, so that a card common in
    // every city does not look decisive in winning ones.
    for (const card of p.built) {
      add(`${L}|k${card}`, 1);
      if (win) add(`${L}|K${card}`, 1);
    }
    add(`${L}|b${bucket}|g`, 1);
    add(`${L}|b${bucket}|w`, win);
  }
  return out;
}

/**
 * Aggregate increments summed over several games, in a form that crosses threads cheaply (three
 * flat arrays rather than a Map per game): each field, its sum, and whether it ever took a
 * fractional delta (the store then adds it as a float even when the sum happens to be whole).
 */
export interface SummedIncrements {
  fields: string[];
  sums: number[];
  floats: boolean[];
}

/** Sums games' increments (gameIncrements) and other sums, field by field. */
export class IncrementSum {
  private readonly sums = new Map<string, { sum: number; float: boolean }>();

  /** Adds one game's increments. */
  add(increments: Iterable<[string, number]>): void {
    for (const [field, delta] of increments) this.addOne(field, delta, !Number.isInteger(delta));
  }

  /** Adds a sum made elsewhere (on a game thread). */
  addSummed(summed: SummedIncrements): void {
    for (let i = 0; i < summed.fields.length; i++) this.addOne(summed.fields[i], summed.sums[i], summed.floats[i]);
  }

  private addOne(field: string, delta: number, float: boolean): void {
    const acc = this.sums.get(field);
    if (acc) {
      acc.sum += delta;
      acc.float ||= float;
    } else this.sums.set(field, { sum: delta, float });
  }

  summed(): SummedIncrements {
    const out: SummedIncrements = { fields: [], sums: [], floats: [] };
    for (const [field, { sum, float }] of this.sums) {
      out.fields.push(field);
      out.sums.push(sum);
      out.floats.push(float);
    }
    return out;
  }

  /** The non-zero sums as the record scripts take them: a float sum with 17 digits, so that it is added with HINCRBYFLOAT. */
  forScript(): [string, string][] {
    const out: [string, string][] = [];
    for (const [field, { sum, float }] of this.sums) if (sum !== 0) out.push([field, float ? sum.toPrecision(17) : String(sum)]);
    return out;
  }
}

/**
 * One game's share of its paired group: wins and seats per key — `L<label>` for each label and
 * `R<role>` for each role — and the compared roles' keys.
 */
export interface PairedShare {
  group: string;
  size: number;
  keys: string[];
  wins: number[];
  seats: number[];
  compared?: [string, string];
}

export function pairedShare(g: GameSummary, at: GamePlacement): PairedShare | undefined {
  if (!at.group) return undefined;
  const wins = new Array<number>(at.labels.length).fill(0);
  const seats = new Array<number>(at.labels.length).fill(0);
  for (const p of g.players) {
    const i = labelIndex(at, p.agent, g.id);
    seats[i]++;
    if (p.winner) wins[i]++;
  }
  const labels = [...at.labels.keys()].filter((i) => seats[i] > 0);
  const players = [...g.players].sort((a, b) => at.roles[a.seat] - at.roles[b.seat]);
  return {
    group: at.group.key,
    size: at.group.size,
    keys: [...labels.map((i) => `L${i}`), ...players.map((p) => `R${at.roles[p.seat]}`)],
    wins: [...labels.map((i) => wins[i]), ...players.map((p) => (p.winner ? 1 : 0))],
    seats: [...labels.map((i) => seats[i]), ...players.map(() => 1)],
    ...(at.compared ? { compared: [`R${at.compared[0]}`, `R${at.compared[1]}`] as [string, string] } : {}),
  };
}

/**
 * The aggregate table built in memory, exactly as the store's script builds it: the reference
 * the store is tested against, and the aggregator of local runs.
 */
export class AggregateFold {
  readonly fields = new Map<string, number>();
  private readonly groups = new Map<string, { n: number; wins: Map<string, number>; seats: Map<string, number> }>();

  add(g: GameSummary, at: GamePlacement): void {
    for (const [field, delta] of gameIncrements(g, at)) this.bump(field, delta);
    const share = pairedShare(g, at);
    if (!share) return;
    let group = this.groups.get(share.group);
    if (!group) this.groups.set(share.group, (group = { n: 0, wins: new Map(), seats: new Map() }));
    group.n++;
    share.keys.forEach((key, i) => {
      group.wins.set(key, (group.wins.get(key) ?? 0) + share.wins[i]);
      group.seats.set(key, (group.seats.get(key) ?? 0) + share.seats[i]);
    });
    if (group.n < share.size) return;
    this.groups.delete(share.group);
    const c = share.group.split('|')[0];
    const rate = new Map<string, number>();
    for (const [key, seats] of group.seats) {
      const x = group.wins.get(key)! / seats;
      rate.set(key, x);
      this.bump(`${c}|${key}|px`, x);
      this.bump(`${c}|${key}|px2`, x * x);
      this.bump(`${c}|${key}|pn`, 1);
    }
    if (share.compared && rate.has(share.compared[0]) && rate.has(share.compared[1])) {
      const d = rate.get(share.compared[0])! - rate.get(share.compared[1])!;
      this.bump(`${c}|pd`, d);
      this.bump(`${c}|pd2`, d * d);
      this.bump(`${c}|pdn`, 1);
    }
  }

  private bump(field: string, delta: number): void {
    this.fields.set(field, (this.fields.get(field) ?? 0) + delta);
  }
}

// ---------------------------------------------------------------------------------------------
// Reading

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
