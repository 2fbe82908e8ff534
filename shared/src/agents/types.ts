/**
 * The one interface every agent implements.
 *
 * An agent is asked for a move whenever its seat acts. It is handed a DecisionContext: its seat,
 * the legal moves (in the payment mode it asked for), its own seeded RNG, what it observes, and a
 * sampler of worlds consistent with that observation. It never receives the true state: the
 * sampler is the only way to look ahead, and it resamples everything the seat cannot know (in an
 * open-information game it returns the true position, with future Ages' decks still unknown).
 * Agents may keep state across turns; one agent instance plays one seat of one game.
 */
import type { GameState, MoveMode, Observation, Rng } from '../engine/index.js';

export interface DecisionContext {
  readonly seat: number;
  readonly players: number;
  /** 1, 2 or 3. */
  readonly age: number;
  /** Legal moves for this seat, in the agent's moveMode; never empty. */
  readonly legal: readonly number[];
  /** The agent's own generator: all of its randomness comes from here. */
  readonly rng: Rng;
  /** What the seat knows now (built on demand). */
  observe(): Observation;
  /**
   * A full game state consistent with what the seat knows, freshly sampled with `rng`; the
   * caller may mutate it. The seat's own hand and every public fact are exact.
   */
  sampleWorld(rng: Rng): GameState;
}

export interface Decision {
  move: number;
  /** Search iterations run (MCTS). */
  iterations?: number;
  /** True when a time limit stopped the search before its iteration budget. */
  cutShort?: boolean;
  /** Which rule chose the move (rule-based agents), e.g. 'rule 3: military'. */
  reason?: string;
}

export interface Agent {
  /** Which payments the legal moves offered to it should carry. */
  readonly moveMode: MoveMode;
  decide(ctx: DecisionContext): Decision;
}
