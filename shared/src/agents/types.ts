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
   * caller may mutate it. The seat's own hand and every public fact are exact. Given `into` (a
   * world of an earlier call, no longer needed), it may be overwritten and returned instead of
   * a new state: use the returned one.
   */
  sampleWorld(rng: Rng, into?: GameState): GameState;
  /**
   * The seat's observation vector for learned agents (agents/encoding.ts) over out, which holds
   * observationSize(players) bytes.
   */
  writeObservation(out: Uint8Array): void;
}

export interface Decision {
  move: number;
  /** Search iterations run (MCTS), or nodes searched (minimax). */
  iterations?: number;
  /** True when a time limit stopped the search before its iteration budget. */
  cutShort?: boolean;
  /** Which rule chose the move (rule-based agents), e.g. 'rule 3: military'. */
  reason?: string;
  /** What the search saw at its root (MCTS asked for it, and more than one legal move). */
  search?: SearchStatistics;
}

/** One move at the root of a search, with what the search learned of it. */
export interface RootMoveStatistics {
  /** The legal move (for a grouped arm, the card its bury rule picks). */
  move: number;
  visits: number;
  /**
   * MCTS: the deciding seat's mean reward over those visits, in [0, 1]. Minimax: its mean value over
   * the worlds (visits), its estimated VP margin over the best other seat.
   */
  value: number;
  /** det=pimc: how many of the trees chose it (their votes can decide the move). */
  votes?: number;
}

/** A search's root statistics: enough to explain its move beside it. */
export interface SearchStatistics {
  /** Iterations run for this decision (minimax: nodes searched). */
  iterations: number;
  /** Minimax: the deepest depth (plies) every world was searched to. */
  depth?: number;
  /**
   * reuse=on: visits the kept subtree already had when the search began, so the moves' visits
   * add up to at most iterations + carried.
   */
  carried?: number;
  /** The most visited root moves, most visited first, bounded; the move played is always among them. */
  moves: RootMoveStatistics[];
  /**
   * A search guided by a network with values: the network's prediction of every seat's final VP
   * (seat order), read from the deciding seat's own observation of the position.
   */
  network?: number[];
}

/** How an agent is made, beyond its spec. */
export interface AgentOptions {
  /**
   * Return each search's root statistics with its decision (Decision.search), e.g. for a game
   * record. Never changes the move or consumes the agent's RNG; off, the agent does no extra work.
   * true keeps the most visited root moves (SEARCH_TOP_MOVES); 'all' keeps every root move, the
   * whole visit distribution a network is trained on (a sweep's `training` field).
   */
  searchStatistics?: boolean | 'all';
  /**
   * The sha256 each model file must have, by model name (a sweep's record of them, taken at
   * submit): a file that differs now is a ModelError as the agent is made, so its game fails
   * rather than being played by another network than the one recorded.
   */
  models?: Readonly<Record<string, string>>;
}

export interface Agent {
  /** Which payments the legal moves offered to it should carry. */
  readonly moveMode: MoveMode;
  decide(ctx: DecisionContext): Decision;
  /** The game is over, or failed (an outside agent's process may then forget it). */
  endGame?(): void;
  /** Why the seat forfeited (an outside agent that failed with fault=forfeit: random played on), if it did. */
  forfeited?(): string | undefined;
}
