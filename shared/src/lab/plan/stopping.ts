/**
 * A sweep's stopping rule (spec.stop) applied to its cells: each cell's games are fed to a
 * StoppingTest in the cell's play order, from the recorded results alone, so where a cell stops
 * does not depend on when its games arrived, and a sweep replayed from its results stops at the
 * same game. The coordinator does this after every feeder round and stops feeding a decided cell.
 */
import type { GameSummary } from '../game/game.js';
import { StoppingTest, type StopDecision, type StopRule, type StopState } from '../stats/sprt.js';
import type { Sweep } from './sweep.js';

/**
 * A game's outcome for the rule: for the SPRT, 1 when seat a's agent (wherever the seating put it)
 * scored more VP than seat b's, ½ on a tie, 0 otherwise; for the interval rule, 1 when seat a's
 * agent won. `roles[q]` is the spec's seat of the agent in the game's seat q.
 */
export function stopOutcome(rule: StopRule, game: GameSummary, roles: readonly number[]): number {
  const seatOf = (role: number) => roles.indexOf(role);
  if ('sprt' in rule) {
    const [a, b] = rule.sprt.seats.map((role) => game.players[seatOf(role)].score.total);
    return a > b ? 1 : a === b ? 0.5 : 0;
  }
  return game.players[seatOf(rule.seat)].winner ? 1 : 0;
}

/** A cell's stopping test, as the API reports it. */
export interface CellStop extends StopState {
  rule: 'sprt' | 'interval' | 'race';
  /** The SPRT's bounds on the LLR (accept H0 at or below the first, H1 at or above the second). */
  bounds?: [number, number];
}

/** A cell's test, fed from its games in play order. */
export class CellStopper {
  readonly test: StoppingTest;

  constructor(
    readonly sweep: Sweep,
    readonly cell: number,
    readonly rule: StopRule,
  ) {
    this.test = new StoppingTest(rule, 'sprt' in rule ? sweep.ordersPerDeal : 1);
  }

  /** Games evaluated so far: the next to feed is the cell's game of this rank. */
  get evaluated(): number {
    return this.test.state.games;
  }

  /** The indices of the cell's next `n` games in play order (fewer at the cell's end). */
  nextGames(n: number): number[] {
    const end = Math.min(this.sweep.gamesPerCell, this.evaluated + n);
    return Array.from({ length: Math.max(0, end - this.evaluated) }, (_, i) => this.sweep.cellGameAt(this.cell, this.evaluated + i));
  }

  /**
   * Feeds games in play order (the results of nextGames' indices, undefined where not recorded
   * yet), up to the first missing one or the decision; a cell whose every game is in undecided is
   * 'max'. Returns the decision, if any.
   */
  feed(results: readonly (GameSummary | undefined)[]): StopDecision | undefined {
    for (const game of results) {
      if (this.test.state.decision || !game) break;
      const roles = this.sweep.orders[this.sweep.game(game.index).seating];
      this.test.add(stopOutcome(this.rule, game, roles));
    }
    if (!this.test.state.decision && this.evaluated === this.sweep.gamesPerCell) this.test.finish();
    return this.test.state.decision;
  }

  report(bounds?: [number, number]): CellStop {
    return { rule: 'sprt' in this.rule ? 'sprt' : 'interval', ...this.test.state, trace: [...this.test.state.trace], ...(bounds ? { bounds } : {}) };
  }
}
