/**
 * How the tree chooses among a node's moves on the way down (the `prior` option), behind one
 * interface, beside the leaf evaluators (evaluation.ts):
 * - ucb: UCB1 over the moves available, untried moves first, with progressive widening (tree.ts);
 * - net: PUCT at every node, the network's move probabilities as priors (read once per node);
 * - root: PUCT at the decision's root only, its priors from the seat's own observation (set by the
 *   agent on the root before the search), UCB1 below.
 * With noise > 0, the root's priors (net and root) are mixed with the decision's Dirichlet draw.
 */
import type { GameState, Rng } from '../../engine/index.js';
import type { MctsParams } from '../params.js';
import type { MoveKeys } from './arms.js';
import { keyPriors, type NetworkGuide } from './network-guide.js';
import { selectByPrior, selectChild, type Node } from './tree.js';

export interface ChildSelection {
  /**
   * The child of `node` to descend to for seat q, among the keys `available` of the moves `legal`
   * in `world`; `depth` is the node's depth (0 at the root). `available` may be reordered.
   */
  select(node: Node, depth: number, world: GameState, q: number, available: number[], legal: readonly number[], c: number, rng: Rng): Node;
  /**
   * The noise (noise > 0) of the decision about to be searched: η per root key, mixed into the
   * priors at depth 0 as (1 − ε) · prior + ε · η; undefined, none.
   */
  rootNoise: Map<number, number> | undefined;
}

class UcbSelection implements ChildSelection {
  rootNoise: Map<number, number> | undefined = undefined;

  constructor(private readonly params: MctsParams) {}

  select(node: Node, _depth: number, _world: GameState, q: number, available: number[], _legal: readonly number[], c: number, rng: Rng): Node {
    return selectChild(this.params, node, q, available, c, rng);
  }
}

class PriorSelection implements ChildSelection {
  /** The priors of a node's keys (scratch). */
  private readonly priors = new Float64Array(1024);
  rootNoise: Map<number, number> | undefined = undefined;

  constructor(
    private readonly guide: NetworkGuide,
    private readonly keys: MoveKeys,
    /** PUCT at this depth and above only (Infinity: everywhere); UCB below. */
    private readonly deepest: number,
    private readonly below: UcbSelection,
    /** ptemp: the temperature of the priors' softmax. */
    private readonly temp: number,
    /** noise: ε, the share of the root's priors given to its noise. */
    private readonly epsilon: number,
  ) {}

  select(node: Node, depth: number, world: GameState, q: number, available: number[], legal: readonly number[], c: number, rng: Rng): Node {
    if (depth > this.deepest) return this.below.select(node, depth, world, q, available, legal, c, rng);
    node.logits ??= this.guide.logits(world, q);
    keyPriors(node.logits, available, legal, this.keys, this.priors, this.temp);
    const noise = depth === 0 ? this.rootNoise : undefined;
    if (noise) {
      const keep = 1 - this.epsilon;
      for (let i = 0; i < available.length; i++) this.priors[i] = keep * this.priors[i] + this.epsilon * (noise.get(available[i]) ?? 0);
    }
    return selectByPrior(node, q, available, this.priors, c, rng);
  }
}

/** The selection of params.prior (a network where it reads one). */
export function childSelection(params: MctsParams, keys: MoveKeys, guide: NetworkGuide | undefined): ChildSelection {
  const ucb = new UcbSelection(params);
  if (params.prior === 'ucb') return ucb;
  return new PriorSelection(guide!, keys, params.prior === 'root' ? 0 : Infinity, ucb, params.ptemp, params.noise);
}
