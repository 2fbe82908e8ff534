/** Uniform among the legal moves, each card and action at its cheapest payment. */
import type { Agent, Decision, DecisionContext } from './types.js';

export class RandomAgent implements Agent {
  readonly moveMode = 'cheapest' as const;

  decide(ctx: DecisionContext): Decision {
    return { move: ctx.legal[ctx.rng.int(ctx.legal.length)] };
  }
}
