/**
 * The search tree: nodes that hold statistics (never states), and the tree policy that picks a
 * child by UCB among the moves legal in the current world.
 *
 * Children are keyed by (mover, move) and a world decides which are available, so UCB's log term
 * counts the times a child was available rather than its parent's visits (the subset-armed bandit
 * of information-set MCTS); at the root, where the agent's hand is known, the two are the same.
 */
import { ACTION_DISCARD, ACTION_STAGE, moveAction, moveCard, type Rng } from '../../engine/index.js';
import { isMilitary, isMixedResource, isResourceCard, isScience } from '../features.js';
import type { MctsParams } from '../params.js';
import type { Logits } from '../logits.js';

export class Node {
  children: Node[] = [];
  visits = 0;
  /** Times this node's move was legal when its parent chose (UCB's log term). */
  avail = 0;
  /** Sum of the rewards of the seat that made `move`. */
  reward = 0;
  /** Sum of that seat's VP at the end of the simulations through here (the real-score bias). */
  vp = 0;
  /**
   * The network's logits for the decision taken at this node: prior=net, from the first world it
   * was reached in; prior=root, at the root only, from what the seat knows.
   */
  logits: Logits | undefined = undefined;
  constructor(
    /** The move, or a grouped arm's key (see arms.ts); −1 at the root. */
    readonly move: number,
    /** The seat that makes `move`; −1 at the root. */
    readonly mover: number,
  ) {}

  child(move: number, mover: number): Node | undefined {
    const children = this.children;
    for (let k = 0; k < children.length; k++) if (children[k].move === move && children[k].mover === mover) return children[k];
    return undefined;
  }
}

/**
 * Progressive widening's order (Robilliard et al. 2014): cards giving alternative resources, then
 * single-resource cards, military, science, the other builds, wonder stages, discards; within a
 * class by card id, so that the order does not depend on the sampled world.
 */
export function widenRank(m: number): number {
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

const byWidenRank = (a: number, b: number) => widenRank(a) - widenRank(b);

/** Scratch list of the untried moves (the search is single-threaded per agent). */
const untried: number[] = [];

/**
 * Math.log of the small counts UCB1 reads (a child's availability), looked up: the library call
 * was 1 % of an `mcts-strong` game. The table holds Math.log's own values, so the search is the
 * same to the last bit.
 */
const LOG_OF_COUNT = Float64Array.from({ length: 4096 }, (_, k) => Math.log(k));
const logOfCount = (k: number): number => (k < LOG_OF_COUNT.length ? LOG_OF_COUNT[k] : Math.log(k));

/**
 * The child to follow from `node` for seat q given its available moves `legal` (reordered when
 * progressive widening is on); creates an untried one when there is one. UCB ties are broken
 * with `rng`, never by move order..
 */
export function selectChild(p: MctsParams, node: Node, q: number, legal: number[], c: number, rng: Rng): Node {
  let limit = legal.length;
  if (p.pw > 0) {
    legal.sort(byWidenRank);
    limit = Math.min(legal.length, Math.max(1, Math.floor(p.pwq * (node.visits + 1) ** p.pw)));
  }
  // The untried moves are untried[0..open): the list is reused, never emptied (see setListLength).
  let open = 0;
  let best: Node | undefined;
  let bestValue = -Infinity;
  let ties = 0;
  for (let i = 0; i < limit; i++) {
    const m = legal[i];
    const child = node.child(m, q);
    if (!child) {
      untried[open++] = m;
      continue;
    }
    child.avail++;
    if (open > 0) continue;
    const mean = child.reward / child.visits;
    let value = mean + c * Math.sqrt(logOfCount(child.avail) / child.visits);
    if (p.kscore > 0) value += (p.kscore / Math.log(1 + child.visits)) * (child.vp / child.visits / 100);
    if (value > bestValue) {
      bestValue = value;
      best = child;
      ties = 1;
    } else if (value === bestValue && rng.int(++ties) === 0) {
      best = child;
    }
  }
  if (open > 0) {
    const child = new Node(untried[rng.int(open)], q);
    child.avail = 1;
    node.children.push(child);
    return child;
  }
  return best!;
}

/**
 * prior=net (prior=root at the root): the child to follow from `node` for seat q by PUCT — mean
 * reward + c · prior · √(node visits) / (1 + child visits), a move not yet tried valued at the
 * visited moves' mean (0.5 before any) — creating it when it is new. `priors[i]` is the prior of `keys[i]`. Ties are
 * broken with `rng`.
 */
export function selectByPrior(node: Node, q: number, keys: readonly number[], priors: Float64Array, c: number, rng: Rng): Node {
  let visitedReward = 0;
  let visitedCount = 0;
  for (let i = 0; i < keys.length; i++) {
    const child = node.child(keys[i], q);
    if (child && child.visits > 0) {
      visitedReward += child.reward;
      visitedCount += child.visits;
    }
  }
  const unvisited = visitedCount > 0 ? visitedReward / visitedCount : 0.5;
  const explore = c * Math.sqrt(Math.max(1, node.visits));
  let best = -1;
  let bestChild: Node | undefined;
  let bestValue = -Infinity;
  let ties = 0;
  for (let i = 0; i < keys.length; i++) {
    const child = node.child(keys[i], q);
    if (child) child.avail++;
    const visits = child ? child.visits : 0;
    const mean = visits > 0 ? child!.reward / visits : unvisited;
    const value = mean + (explore * priors[i]) / (1 + visits);
    if (value > bestValue) {
      bestValue = value;
      best = i;
      bestChild = child;
      ties = 1;
    } else if (value === bestValue && rng.int(++ties) === 0) {
      best = i;
      bestChild = child;
    }
  }
  if (bestChild) return bestChild;
  const created = new Node(keys[best], q);
  created.avail = 1;
  node.children.push(created);
  return created;
}

/** One root move's statistics, summed over the trees of a decision. */
export interface RootMove {
  /** The move, or a grouped arm (card ARM_CARD: the bury rule picks the card). */
  move: number;
  visits: number;
  /** Mean reward of the deciding seat over those visits. */
  value: number;
  /** Trees whose own choice it was (det=pimc has one tree per world). */
  votes: number;
}

/**
 * The moves of seat `me` at the roots that are in `allowed`, with their statistics summed over
 * the trees, best first: by visits or mean reward (final), then by the other of the two; ties
 * drawn with `rng`, never by move order. Each tree's own choice is counted as its vote (shown in
 * the statistics of det=pimc).
 */
export function rankRootMoves(p: MctsParams, roots: readonly Node[], me: number, allowed: ReadonlySet<number>, rng: Rng): RootMove[] {
  type Stats = { visits: number; reward: number };
  const mean = (x: Stats) => (x.visits ? x.reward / x.visits : -1);
  const primary = (x: Stats) => (p.final === 'visits' ? x.visits : mean(x));
  const secondary = (x: Stats) => (p.final === 'visits' ? mean(x) : x.visits);
  const byMove = new Map<number, RootMove & Stats & { draw: number }>();
  for (const root of roots) {
    let best: Node | undefined;
    let ties = 0;
    for (const child of root.children) {
      if (child.mover !== me || !allowed.has(child.move)) continue;
      let entry = byMove.get(child.move);
      if (!entry) byMove.set(child.move, (entry = { move: child.move, visits: 0, value: 0, votes: 0, reward: 0, draw: 0 }));
      entry.visits += child.visits;
      entry.reward += child.reward;
      const cmp = best ? primary(child) - primary(best) || secondary(child) - secondary(best) : 1;
      if (cmp > 0) {
        best = child;
        ties = 1;
      } else if (cmp === 0 && rng.int(++ties) === 0) {
        best = child;
      }
    }
    if (best) byMove.get(best.move)!.votes++;
  }
  const entries = [...byMove.values()];
  for (const e of entries) {
    e.value = e.visits ? e.reward / e.visits : 0;
    e.draw = rng.float();
  }
  entries.sort((a, b) => primary(b) - primary(a) || secondary(b) - secondary(a) || a.draw - b.draw);
  return entries.map(({ move, visits, value, votes }) => ({ move, visits, value, votes }));
}

/**
 * Whether the move of seat `me` with the most visits at `root`, among those in `allowed`, stays
 * the one with the most whatever `remaining` more iterations do (stop=settled): an iteration adds
 * at most one visit to one root move, so a lead of more than `remaining` visits over every other
 * move cannot be caught, and final=visits plays that move after the whole budget too.
 */
export function rootSettled(root: Node, me: number, allowed: ReadonlySet<number>, remaining: number): boolean {
  let most = -1;
  let next = 0;
  for (const child of root.children) {
    if (child.mover !== me || !allowed.has(child.move)) continue;
    const v = child.visits;
    if (v > most) {
      next = most < 0 ? 0 : most;
      most = v;
    } else if (v > next) {
      next = v;
    }
  }
  return most > next + remaining;
}
