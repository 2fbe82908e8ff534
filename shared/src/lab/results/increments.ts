/**
 * Incremental aggregates of a sweep. Each finished game becomes a list of counter increments
 * (field → delta) that a store adds to one flat table, so reading the aggregates never rescans
 * the games; `summarizeAggregates` (summaries.ts) turns that table into win rates with intervals, VP quantiles,
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
import { SCORE_CATEGORIES } from '../../engine/index.js';
import type { GameSummary } from '../game/game.js';
import type { Sweep } from '../plan/sweep.js';
import { cellLabels, finishingOrder, labelIndex } from './labels.js';

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
  add(`${c}|O${finishingOrder(g, at.labels)}`, 1);
  for (const p of g.players) {
    const R = `${c}|R${at.roles[p.seat]}`;
    add(`${R}|g`, 1);
    add(`${R}|w`, p.winner ? 1 : 0);
    add(`${R}|vp`, p.score.total);
    const L = `${c}|L${labelIndex(at.labels, p.agent, g.id)}`;
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
    const i = labelIndex(at.labels, p.agent, g.id);
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
