/**
 * Monte Carlo Tree Search with a fresh determinization per iteration (PIMC), as in Minenko
 * (2025), with the enhancements of Robilliard, Fonlupt and Teytaud (2014) as parameters (see
 * MctsParams in spec.ts).
 *
 * One iteration: sample a world from what the agent knows; descend the tree, choosing among the
 * children whose moves are legal in that world by UCB (adding one untried legal move when there is
 * one); play the rest of the game, or `depth` turns from the decision, with the playout policy;
 * score it; back the reward up the path.
 *
 * Children are keyed by move, and a world decides which are available, so UCB's log term counts
 * the times a child was available rather than the parent's visits (the usual subset-armed bandit
 * of information-set MCTS); at the root, where the agent's hand is known, the two are the same.
 */
import {
  ACTION_DISCARD,
  ACTION_STAGE,
  MAX_PLAYERS,
  PHASE_DISCARD_BUILD,
  PHASE_SEVENTH,
  PHASE_TURN,
  legalMoves,
  moveAction,
  moveCard,
  scoreSeat,
  setPaymentBranchLimit,
  step,
  type GameState,
  type Rng,
} from '../engine/index.js';
import { isMilitary, isMixedResource, isResourceCard, isScience } from './features.js';
import { thesisRulesMove } from './playout-rules.js';
import type { MctsParams } from './spec.js';
import type { Agent, Decision, DecisionContext } from './types.js';

class Node {
  children: Node[] = [];
  visits = 0;
  /** Times this node's move was legal when its parent chose (UCB's log term). */
  avail = 0;
  /** Sum of the rewards of the seat that made `move`. */
  reward = 0;
  /** Sum of that seat's VP at the end of the simulations (the real-score bias). */
  vp = 0;
  constructor(
    readonly move: number,
    readonly mover: number,
  ) {}
}

const acts = (s: GameState, p: number): boolean =>
  s.phase === PHASE_TURN ||
  (s.phase === PHASE_SEVENTH && s.pendingSeventh === p) ||
  (s.phase === PHASE_DISCARD_BUILD && s.pendingDiscardBuilds[p] > 0);

/**
 * Progressive widening's order (Robilliard et al. 2014): cards giving alternative resources, then
 * single-resource cards, military, science, the other builds, wonder stages, discards; within a
 * class by card id, so that the order does not depend on the sampled world.
 */
function widenRank(m: number): number {
  const c = moveCard(m);
  const a = moveAction(m);
  let cls: number;
  if (a === ACTION_DISCARD) cls = 6;
  else if (a === ACTION_STAGE) cls = 5;
  else if (isMixedResource(c)) cls = 0;
  else if (isResourceCard(c)) cls = 1;
  else if (isMilitary(c)) cls = 2;
  else if (isScience(c)) cls = 3;
  else cls = 4;
  // The move's own bits break ties: card, action, payment.
  return cls * 2 ** 27 + m;
}

export class MctsAgent implements Agent {
  readonly moveMode: 'cheapest' | 'all';
  private readonly moves = new Int32Array(MAX_PLAYERS);
  private readonly treeLegal: number[] = [];
  private readonly playoutLegal: number[] = [];
  private readonly candidates: number[] = [];
  private readonly scores = new Int32Array(MAX_PLAYERS);
  private readonly rewards = new Float64Array(MAX_PLAYERS);
  private readonly path: Node[] = [];
  private rootSeat = -1;

  constructor(readonly params: MctsParams) {
    this.moveMode = params.trades;
  }

  decide(ctx: DecisionContext): Decision {
    if (ctx.legal.length === 1) return { move: ctx.legal[0], iterations: 0 };
    const p = this.params;
    const budget = Math.max(1, Math.round(p.iterations * p.ageScale[ctx.age - 1]));
    const c = p.cSchedule === 'age' ? p.c / 2 ** (ctx.age - 1) : p.c;
    const deadline = p.timeLimit > 0 ? performance.now() + p.timeLimit * 1000 : Infinity;
    const root = new Node(-1, -1);
    this.rootSeat = ctx.seat;
    let done = 0;
    let cutShort = false;
    while (done < budget) {
      // Reading the clock every iteration would cost more than a short playout.
      if ((done & 7) === 0 && done > 0 && performance.now() >= deadline) {
        cutShort = true;
        break;
      }
      this.iterate(ctx, root, c);
      done++;
    }
    return { move: this.finalMove(root, ctx.legal), iterations: done, cutShort };
  }

  private finalMove(root: Node, legal: readonly number[]): number {
    let best: Node | undefined;
    const key = (n: Node) => (this.params.final === 'visits' ? n.visits + (n.visits ? n.reward / n.visits : 0) * 1e-6 : n.visits ? n.reward / n.visits : -1);
    for (const child of root.children) if (child.mover === this.rootSeat && (!best || key(child) > key(best))) best = child;
    return best ? best.move : legal[0];
  }

  private iterate(ctx: DecisionContext, root: Node, c: number): void {
    const p = this.params;
    const rng = ctx.rng;
    const me = ctx.seat;
    const world = ctx.sampleWorld(rng);
    const n = world.n;
    const moves = this.moves;
    const path = this.path;
    path.length = 0;
    path.push(root);
    let node = root;
    let turns = 0;
    let expanded = false;
    // Descent: one tree level per acting seat that the tree models, the agent's own first (the
    // root's children are its moves; the order of simultaneous choices is otherwise immaterial).
    while (!expanded && !world.isOver() && turns < p.depth) {
      for (let k = 0; k < n; k++) {
        const q = me + k < n ? me + k : me + k - n;
        if (!acts(world, q)) continue;
        if (expanded || (p.tree === 'joint' && q !== me)) {
          moves[q] = this.playoutMove(world, q, rng);
          continue;
        }
        legalMoves(world, q, p.trades, this.treeLegal);
        const next = this.selectChild(node, q, this.treeLegal, c, rng);
        if (next.visits === 0) expanded = true;
        node = next;
        path.push(node);
        moves[q] = node.move;
      }
      if (world.phase === PHASE_TURN) turns++;
      step(world, moves);
    }
    // Playout.
    while (!world.isOver() && turns < p.depth) {
      for (let q = 0; q < n; q++) if (acts(world, q)) moves[q] = this.playoutMove(world, q, rng);
      if (world.phase === PHASE_TURN) turns++;
      step(world, moves);
    }
    this.evaluate(world);
    for (const visited of path) {
      visited.visits++;
      if (visited.mover >= 0) {
        visited.reward += this.rewards[visited.mover];
        visited.vp += this.scores[visited.mover];
      }
    }
  }

  /** The child to follow from `node` for seat q given its legal moves here; may create it. */
  private selectChild(node: Node, q: number, legal: number[], c: number, rng: Rng): Node {
    const p = this.params;
    let limit = legal.length;
    if (p.pw > 0) {
      legal.sort((a, b) => widenRank(a) - widenRank(b));
      limit = Math.min(legal.length, Math.max(1, Math.floor(p.pwq * (node.visits + 1) ** p.pw)));
    }
    const untried = this.candidates;
    untried.length = 0;
    let best: Node | undefined;
    let bestValue = -Infinity;
    const children = node.children;
    for (let i = 0; i < limit; i++) {
      const m = legal[i];
      let child: Node | undefined;
      for (let k = 0; k < children.length; k++) {
        if (children[k].move === m && children[k].mover === q) {
          child = children[k];
          break;
        }
      }
      if (!child) {
        untried.push(m);
        continue;
      }
      child.avail++;
      if (untried.length > 0) continue;
      const mean = child.reward / child.visits;
      let value = mean + c * Math.sqrt(Math.log(child.avail) / child.visits);
      if (p.kscore > 0) value += (p.kscore / Math.log(1 + child.visits)) * (child.vp / child.visits / 100);
      if (value > bestValue) {
        bestValue = value;
        best = child;
      }
    }
    if (untried.length > 0) {
      const child = new Node(untried[rng.int(untried.length)], q);
      child.avail = 1;
      children.push(child);
      return child;
    }
    return best!;
  }

  private playoutMove(world: GameState, q: number, rng: Rng): number {
    const p = this.params;
    const policy = q !== this.rootSeat && p.opponents !== 'same' ? p.opponents : p.playout;
    const legal = this.playoutLegal;
    const limit = p.tradeLimit[world.age - 1];
    if (limit > 0) setPaymentBranchLimit(limit);
    legalMoves(world, q, 'cheapest', legal);
    if (limit > 0) setPaymentBranchLimit(0);
    if (policy === 'rulebased') return thesisRulesMove(world, q, legal, rng);
    if (policy === 'nodiscard') {
      let keep = 0;
      for (let i = 0; i < legal.length; i++) if (moveAction(legal[i]) !== ACTION_DISCARD) legal[keep++] = legal[i];
      // With nothing but discards, the list is untouched.
      if (keep > 0) legal.length = keep;
    }
    return legal[rng.int(legal.length)];
  }

  /** Fills scores and rewards from the world's VP standing (final, or at the depth cut-off). */
  private evaluate(world: GameState): void {
    const n = world.n;
    const scores = this.scores;
    for (let q = 0; q < n; q++) scores[q] = scoreSeat(world, q).total;
    for (let q = 0; q < n; q++) {
      let bestOther = -Infinity;
      let above = 0;
      for (let o = 0; o < n; o++) {
        if (o === q) continue;
        if (scores[o] > bestOther) bestOther = scores[o];
        if (scores[o] > scores[q]) above++;
      }
      let r: number;
      if (this.params.reward === 'win') r = scores[q] > bestOther ? 1 : 0;
      else if (this.params.reward === 'rank') r = (n - 1 - above) / (n - 1);
      else r = Math.min(1, Math.max(0, 0.5 + (scores[q] - bestOther) / 40));
      this.rewards[q] = r;
    }
  }
}
