/**
 * How a simulation is scored once it leaves the tree (the `eval` option), behind one interface,
 * as OpenSpiel's MCTS takes an Evaluator: the search descends and backs up, the evaluator says
 * what the leaf is worth. Each writes every seat's score (final VP, or the VP standing where the
 * depth cut the simulation off) and reward (params.reward of those scores) into the arrays given.
 *
 * - playout: the playout policies play the rest of the game, or up to `depth` turns from the
 *   decision, and the world's scores are read;
 * - net: the network predicts every seat's final VP at the leaf, from the agent's place; no playout;
 * - mix: (1 − λ) · the playout's + λ · the network's (`lambda`; 0.5, their mean), the network
 *   first, on the leaf as the tree left it.
 */
import { PHASE_TURN, scoreTotal, seatActs, step, type GameState, type Rng } from '../../engine/index.js';
import { MAX_PLAYERS } from '../../engine/index.js';
import type { MctsParams } from '../params.js';
import type { NetworkGuide } from './network-guide.js';
import type { Playouts } from './policies.js';
import { fillRewards } from './reward.js';

export interface LeafEvaluator {
  /**
   * Scores `world` (a leaf, `turns` full turns after the decision; the playout may play it on) for
   * the search of seat `me`: scores and rewards per seat, in seat order.
   */
  evaluate(world: GameState, me: number, turns: number, rng: Rng, scores: Float64Array, rewards: Float64Array): void;
}

/** Plays on with the playout policies to the end or the depth, then scores the seats' VP. */
export class PlayoutEvaluator implements LeafEvaluator {
  private readonly moves = new Int32Array(MAX_PLAYERS);

  constructor(
    private readonly params: MctsParams,
    private readonly playouts: Playouts,
  ) {}

  evaluate(world: GameState, me: number, turns: number, rng: Rng, scores: Float64Array, rewards: Float64Array): void {
    const { params: p, playouts, moves } = this;
    const n = world.n;
    while (!world.isOver() && turns < p.depth) {
      for (let q = 0; q < n; q++) if (seatActs(world, q)) moves[q] = playouts.move(world, q, playouts.policyOf(q, me), rng);
      if (world.phase === PHASE_TURN) turns++;
      step(world, moves);
    }
    // A simulation cut off at the depth scores the seats' VP so far, as if the game ended there.
    for (let q = 0; q < n; q++) scores[q] = scoreTotal(world, q);
    fillRewards(p.reward, scores, n, rewards);
  }
}

/** The network's predicted final VP of every seat (a finished game is scored as it stands). */
export class NetworkEvaluator implements LeafEvaluator {
  constructor(
    private readonly reward: MctsParams['reward'],
    private readonly guide: NetworkGuide,
  ) {}

  evaluate(world: GameState, me: number, _turns: number, _rng: Rng, scores: Float64Array, rewards: Float64Array): void {
    const n = world.n;
    if (world.isOver()) {
      for (let q = 0; q < n; q++) scores[q] = scoreTotal(world, q);
    } else {
      this.guide.predictScores(world, me, scores);
    }
    fillRewards(this.reward, scores, n, rewards);
  }
}

/** eval=mix: the playout's and the network's evaluations of the leaf weighed by λ (a finished game: its scores). */
export class MixEvaluator implements LeafEvaluator {
  private readonly netScores = new Float64Array(MAX_PLAYERS);
  private readonly netRewards = new Float64Array(MAX_PLAYERS);

  constructor(
    private readonly network: NetworkEvaluator,
    private readonly playout: PlayoutEvaluator,
    private readonly lambda: number,
  ) {}

  evaluate(world: GameState, me: number, turns: number, rng: Rng, scores: Float64Array, rewards: Float64Array): void {
    if (world.isOver()) {
      this.playout.evaluate(world, me, turns, rng, scores, rewards);
      return;
    }
    // The network first: it reads the leaf as the tree left it, before the playout plays on.
    this.network.evaluate(world, me, turns, rng, this.netScores, this.netRewards);
    this.playout.evaluate(world, me, turns, rng, scores, rewards);
    mixInto(world.n, this.lambda, scores, rewards, this.netScores, this.netRewards, scores, rewards);
  }
}

/**
 * eval=mix's weighing, seats 0 … n − 1: out = (1 − λ) · playout + λ · network, for scores and
 * rewards alike (out may be either input). At λ = 0.5 this is the mean to the last bit, as before
 * the option: halving is exact, so 0.5·a + 0.5·b rounds as (a + b) / 2 does.
 */
export function mixInto(
  n: number,
  lambda: number,
  playoutScores: Float64Array,
  playoutRewards: Float64Array,
  netScores: Float64Array,
  netRewards: Float64Array,
  outScores: Float64Array,
  outRewards: Float64Array,
): void {
  const keep = 1 - lambda;
  for (let q = 0; q < n; q++) {
    outScores[q] = keep * playoutScores[q] + lambda * netScores[q];
    outRewards[q] = keep * playoutRewards[q] + lambda * netRewards[q];
  }
}

/** The evaluator of params.eval (a network where it reads one). */
export function leafEvaluator(params: MctsParams, playouts: Playouts, guide: NetworkGuide | undefined): LeafEvaluator {
  const playout = new PlayoutEvaluator(params, playouts);
  if (params.eval === 'playout') return playout;
  const network = new NetworkEvaluator(params.reward, guide!);
  return params.eval === 'net' ? network : new MixEvaluator(network, playout, params.lambda);
}
