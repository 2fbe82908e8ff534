/**
 * The DecisionContext an agent decides in: built from the true state by whoever runs the game,
 * handing the agent only what its seat may know.
 */
import { Determinizer, clone, copyState, observe, type GameState, type Rng } from '../engine/index.js';
import { writeObservation } from './encoding.js';
import type { DecisionContext } from './types.js';

/**
 * The context for `seat` at state s; sampleWorld hides what the seat cannot know (open: every
 * hand visible). `legal` must be legalMoves(s, seat, agent.moveMode).
 */
export function decisionContext(s: GameState, seat: number, legal: number[], rng: Rng, open: boolean): DecisionContext {
  // Built at the first draw: a search draws hundreds of worlds of this one state.
  let determinizer: Determinizer | undefined;
  return {
    seat,
    players: s.n,
    age: s.age,
    legal,
    rng,
    observe: () => observe(s, seat),
    writeObservation: (out: Uint8Array) => void writeObservation(s, seat, out),
    sampleWorld: (r: Rng, into?: GameState) => {
      if (!open) return (determinizer ??= new Determinizer(s, seat)).sample(r, into);
      // Open information: every hand is visible, but later Ages' decks are not dealt yet.
      const world = into ? copyState(into, s) : clone(s);
      r.forkInto(world.rng);
      return world;
    },
  };
}
