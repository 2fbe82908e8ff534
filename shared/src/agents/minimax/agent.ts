/**
 * Minimax over determinized worlds, after Vermes's Sagrada agent (chapters 5 and 8.2): sample
 * `worlds` worlds consistent with what the seat knows (the sampler MCTS uses), search each to
 * `depth` plies, add each root move's values over the worlds, play the best.
 *
 * 7 Wonders' seats choose at once; the search sequentializes a turn: the acting seats choose one
 * after another from the agent's own seat (our reading), each ply one seat's choice, and the turn
 * is applied (the engine's step) once all have chosen. With search=paranoid every other seat
 * minimizes the agent's margin (alpha-beta prunes); with search=maxn each seat maximizes its own
 * margin. Below the root only the first `keep` moves of the ordering are searched (forward
 * pruning); the ordering is the thesis's rule-based ranking, with one stage and one discard per
 * seat (MCTS's grouped arms, resolved by the bury rule). Iterative deepening runs depth 1, 2, …
 * under the time cap; a depth the cap cuts is dropped for the last complete one.
 *
 * Deterministic given its RNG when the time cap does not bind: the worlds and the bury rule's
 * ties are its only draws.
 */
import {
  MAX_PLAYERS,
  copyState,
  clone,
  legalMoves,
  seatActs,
  step,
  type GameState,
} from '../../engine/index.js';
import type { Agent, AgentOptions, Decision, DecisionContext, RootMoveStatistics, SearchStatistics } from '../types.js';
import { evaluate, margin } from './evaluate.js';
import { SEARCH_TOP_MOVES } from '../mcts/statistics.js';
import { MoveOrdering, orderedMoves, type OrderedMoves } from './ordering.js';
import type { MinimaxParams } from './params.js';


/** Thrown through the search when the time cap is reached; the depth it cuts is dropped. */
class OutOfTime extends Error {}
const OUT_OF_TIME = new OutOfTime('out of time');

/** How often (in nodes) the clock is read. */
const CLOCK_EVERY = 64;

/** One level of the search's own memory, reused from decision to decision. */
interface Ply extends OrderedMoves {
  legal: number[];
  /** max-n: the best child's values. */
  best: Float64Array;
}

export class MinimaxAgent implements Agent {
  readonly moveMode = 'cheapest' as const;
  private readonly ordering = new MoveOrdering();
  private readonly plies: Ply[] = [];
  /** The state at the start of each turn the search is in (index: turns below the root). */
  private readonly turnStates: GameState[] = [];
  /** The moves chosen so far in each turn the search is in. */
  private readonly turnMoves: Int32Array[] = [];
  private readonly values = new Float64Array(MAX_PLAYERS);
  private me = 0;
  private deadline = Infinity;
  private nodes = 0;
  private readonly explains: boolean | 'all';

  constructor(
    readonly params: MinimaxParams,
    options: AgentOptions = {},
  ) {
    this.explains = options.searchStatistics ?? false;
  }

  decide(ctx: DecisionContext): Decision {
    const p = this.params;
    if (ctx.legal.length === 1) return { move: ctx.legal[0], iterations: 0 };
    const rng = ctx.rng;
    this.me = ctx.seat;
    this.nodes = 0;
    this.ordering.reset(rng);
    this.deadline = p.time > 0 ? performance.now() + p.time * 1000 : Infinity;
    const worlds: GameState[] = [];
    for (let w = 0; w < p.worlds; w++) worlds.push(ctx.sampleWorld(rng));
    // The root's moves: every key of the decision's legal moves, in the ordering. The agent's own
    // moves depend only on what it knows, so every world lists the same ones.
    const root = this.ply(0);
    this.ordering.order(worlds[0], ctx.seat, ctx.legal, 0, root);
    const rootKeys = [...root.keys];
    const count = rootKeys.length;
    // Summed values of the root keys at the deepest depth every world completed, and in how many worlds.
    let sums = new Float64Array(count);
    let searched = 0;
    let depthDone = 0;
    let cutShort = false;
    for (let depth = 1; depth <= p.depth && !cutShort; depth++) {
      const total = new Float64Array(count);
      let done = 0;
      try {
        for (const world of worlds) {
          this.searchRoot(world, ctx.legal, rootKeys, depth, total);
          done++;
        }
      } catch (err) {
        if (err !== OUT_OF_TIME) throw err;
        cutShort = true;
      }
      if (done === worlds.length || depthDone === 0) {
        // A complete depth, or (the cap cut even depth 1) the worlds of depth 1 it finished.
        sums = total;
        searched = done;
        if (done === worlds.length) depthDone = depth;
      }
    }
    let best = 0;
    if (searched > 0) for (let i = 1; i < count; i++) if (sums[i] > sums[best]) best = i;
    const key = rootKeys[best];
    const move = this.ordering.resolve(worlds[0], ctx.seat, key, ctx.legal);
    const decision: Decision = { move, iterations: this.nodes, cutShort };
    if (this.explains) decision.search = this.explain(ctx, worlds[0], rootKeys, sums, searched, best, move, depthDone);
    return decision;
  }

  /** The root statistics: every root move with the worlds that valued it and its mean value, best first. */
  private explain(ctx: DecisionContext, world: GameState, rootKeys: readonly number[], sums: Float64Array, searched: number, best: number, move: number, depth: number): SearchStatistics {
    const moves: RootMoveStatistics[] = rootKeys.map((key, i) => ({
      move: i === best ? move : this.ordering.resolve(world, ctx.seat, key, ctx.legal),
      visits: searched,
      value: searched > 0 ? sums[i] / searched : 0,
    }));
    const order = moves.map((_, i) => i).sort((a, b) => (a === best ? -1 : b === best ? 1 : sums[b] - sums[a] || a - b));
    const ranked = order.map((i) => moves[i]);
    return { iterations: this.nodes, depth, moves: this.explains === 'all' ? ranked : ranked.slice(0, SEARCH_TOP_MOVES) };
  }

  private ply(i: number): Ply {
    return (this.plies[i] ??= { ...orderedMoves(), legal: [], best: new Float64Array(MAX_PLAYERS) });
  }

  /** The turn-level memory of turn t below the root, holding a copy of `from`. */
  private turnState(t: number, from: GameState): GameState {
    const have = this.turnStates[t];
    if (have && have.n === from.n) return copyState(have, from);
    this.turnMoves[t] ??= new Int32Array(MAX_PLAYERS);
    return (this.turnStates[t] = clone(from));
  }

  /** Adds each root key's value in `world`, searched to `depth` plies, to `total`. */
  private searchRoot(world: GameState, rootLegal: readonly number[], rootKeys: readonly number[], depth: number, total: Float64Array): void {
    const me = this.me;
    const start = this.turnState(0, world);
    const moves = this.turnMoves[0];
    const seats = this.actingFrom(start, me);
    const root = this.ply(0);
    // The root ply's moves in this world (the bury rule reads only the seat's own hand and public facts).
    this.ordering.order(start, me, rootLegal, 0, root);
    for (let i = 0; i < rootKeys.length; i++) {
      moves[me] = root.moves[i];
      total[i] +=
        this.params.search === 'paranoid'
          ? this.paranoid(0, seats, 1, 1, depth - 1, -Infinity, Infinity)
          : (this.maxn(0, seats, 1, 1, depth - 1, this.ply(1).best), margin(this.ply(1).best, start.n, me));
    }
  }

  /** The seats acting in s, from seat `from` on (wrapping), in order. */
  private actingFrom(s: GameState, from: number): number[] {
    const seats: number[] = [];
    for (let k = 0; k < s.n; k++) {
      const q = (from + k) % s.n;
      if (seatActs(s, q)) seats.push(q);
    }
    return seats;
  }

  private tick(): void {
    if (++this.nodes % CLOCK_EVERY === 0 && performance.now() >= this.deadline) throw OUT_OF_TIME;
  }

  /**
   * The turn at level t has had seats[0..i) choose (turnMoves[t]); fills in the rest with the
   * first move of each one's ordering when `left` is 0, applies the turn and returns the state
   * after it in turnStates[t + 1].
   */
  private finishTurn(t: number, seats: readonly number[], i: number, plyIndex: number): GameState {
    const s = this.turnStates[t];
    const moves = this.turnMoves[t];
    for (let k = i; k < seats.length; k++) {
      const q = seats[k];
      const ply = this.ply(plyIndex);
      legalMoves(s, q, 'cheapest', ply.legal);
      moves[q] = this.ordering.order(s, q, ply.legal, 1, ply)[0];
    }
    const next = this.turnState(t + 1, s);
    step(next, moves);
    return next;
  }

  /**
   * Paranoid value (the agent's margin) of turn level t with seats[0..i) chosen and `left` plies
   * to go, seat ply index `plyIndex`; alpha-beta.
   */
  private paranoid(t: number, seats: readonly number[], i: number, plyIndex: number, left: number, alpha: number, beta: number): number {
    this.tick();
    const s = this.turnStates[t];
    if (i === seats.length || left === 0) {
      const next = this.finishTurn(t, seats, i, plyIndex);
      if (left === 0 || next.isOver()) {
        evaluate(next, this.params.eval, this.values);
        return margin(this.values, next.n, this.me);
      }
      return this.paranoid(t + 1, this.actingFrom(next, this.me), 0, plyIndex, left, alpha, beta);
    }
    const q = seats[i];
    const ply = this.ply(plyIndex);
    legalMoves(s, q, 'cheapest', ply.legal);
    this.ordering.order(s, q, ply.legal, this.params.keep, ply);
    const moves = this.turnMoves[t];
    const maximizing = q === this.me;
    let best = maximizing ? -Infinity : Infinity;
    // ply.moves is overwritten deeper down only at other ply indices: read it by index.
    for (let k = 0; k < ply.moves.length; k++) {
      moves[q] = ply.moves[k];
      const v = this.paranoid(t, seats, i + 1, plyIndex + 1, left - 1, alpha, beta);
      if (maximizing) {
        if (v > best) best = v;
        if (best > alpha) alpha = best;
      } else {
        if (v < best) best = v;
        if (best < beta) beta = best;
      }
      if (alpha >= beta) break;
    }
    return best;
  }

  /** Max-n: fills `out` with every seat's value of the line each seat chooses by its own margin. */
  private maxn(t: number, seats: readonly number[], i: number, plyIndex: number, left: number, out: Float64Array): void {
    this.tick();
    const s = this.turnStates[t];
    if (i === seats.length || left === 0) {
      const next = this.finishTurn(t, seats, i, plyIndex);
      if (left === 0 || next.isOver()) {
        evaluate(next, this.params.eval, out);
        return;
      }
      this.maxn(t + 1, this.actingFrom(next, this.me), 0, plyIndex, left, out);
      return;
    }
    const q = seats[i];
    const ply = this.ply(plyIndex);
    legalMoves(s, q, 'cheapest', ply.legal);
    this.ordering.order(s, q, ply.legal, this.params.keep, ply);
    const moves = this.turnMoves[t];
    const child = this.ply(plyIndex + 1).best;
    let bestMargin = -Infinity;
    for (let k = 0; k < ply.moves.length; k++) {
      moves[q] = ply.moves[k];
      this.maxn(t, seats, i + 1, plyIndex + 1, left - 1, child);
      const m = margin(child, s.n, q);
      if (m > bestMargin) {
        bestMargin = m;
        out.set(child.subarray(0, s.n));
      }
    }
  }
}
