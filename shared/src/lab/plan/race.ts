/**
 * A racing tune (spec.tune, method 'racing') applied to a sweep's cells: the cells are the arms —
 * the values of the tuned seat's swept parameters, or a matchup's specs — and lab/tune/racing.ts
 * decides which leave the race. Each cell's games are read in the cell's play order from the
 * recorded results, a deal at a time (its seat orders together: one score in [0, 1], the mean of
 * its games' outcomes), so where the race stops does not depend on when games arrived. A look is
 * taken each time every arm still racing has `roundDeals` more deals; the tallies at a look count
 * exactly those deals, whatever an arm has played beyond them.
 *
 * The outcome of a game for the arm: with `against`, 1 when the tuned seat's agent scored more VP
 * than the agent of seat `against` (½ on a tie, 0 otherwise: the SPRT's head-to-head score);
 * without, 1 when it won (strictly the most VP).
 */
import type { GameSummary } from '../game/game.js';
import { raceLeader, raceLook, raceRadius, startRace, type ArmTally, type RaceState } from '../tune/racing.js';
import type { Sweep } from './sweep.js';

export interface RaceRule {
  seat: number;
  against?: number;
  delta: number;
  epsilon: number;
  roundDeals: number;
}

/** One arm as the API reports it. */
export interface RaceArm {
  cell: number;
  /** The tuned seat's agent in this arm. */
  agent: string;
  /** Deals counted at the last look, and the mean score over them. */
  deals: number;
  mean: number;
  alive: boolean;
  eliminatedAt?: number;
}

/** The race as the API reports it (saved after every look). */
export interface RaceReport {
  rule: RaceRule;
  looks: number;
  /** The radius at the last look (null before the first). */
  radius: number | null;
  arms: RaceArm[];
  /** The arm leading now (its cell), and, once decided, the arm returned and why. */
  leader: number;
  decided?: { cell: number; agent: string; by: 'elimination' | 'epsilon' | 'budget' };
  /** Every look: the deals each arm racing then had, the radius, and each arm's mean (null once out). */
  history: { look: number; deals: number; radius: number; means: (number | null)[] }[];
}

/** A game's outcome for the race; `roles[q]` is the spec's seat of the agent at the game's seat q. */
export function raceOutcome(rule: RaceRule, game: GameSummary, roles: readonly number[]): number {
  const at = (role: number) => game.players[roles.indexOf(role)];
  const me = at(rule.seat);
  if (rule.against === undefined) return me.winner ? 1 : 0;
  const other = at(rule.against).score.total;
  return me.score.total > other ? 1 : me.score.total === other ? 0.5 : 0;
}

export class RaceStopper {
  /** Games read per cell, in its play order. */
  private readonly read: number[];
  /** Per cell, the score of each complete deal, in play order. */
  private readonly scores: number[][];
  /** Per cell, the outcomes of its deal in progress. */
  private readonly partial: number[][];
  state: RaceState;
  private lastRadius: number | null = null;
  private readonly history: RaceReport['history'] = [];
  private budgetSpent = false;

  constructor(
    readonly sweep: Sweep,
    readonly rule: RaceRule,
  ) {
    const k = sweep.cells.length;
    this.read = new Array<number>(k).fill(0);
    this.scores = Array.from({ length: k }, () => []);
    this.partial = Array.from({ length: k }, () => []);
    this.state = startRace(k);
  }

  get decided(): boolean {
    return this.state.decided !== undefined || this.budgetSpent;
  }

  /** Whether cell c still races (its games are wanted). */
  alive(cell: number): boolean {
    return !this.decided && this.state.alive[cell];
  }

  /** The game indices of cell c to read next, in play order (up to n; fewer at the cell's end). */
  nextGames(cell: number, n: number): number[] {
    const from = this.read[cell];
    const end = Math.min(this.sweep.gamesPerCell, from + n);
    return Array.from({ length: Math.max(0, end - from) }, (_, i) => this.sweep.cellGameAt(cell, from + i));
  }

  /** Reads cell c's games in play order (undefined where not recorded yet), up to the first missing one. */
  feed(cell: number, results: readonly (GameSummary | undefined)[]): void {
    const orders = this.sweep.ordersPerDeal;
    for (const game of results) {
      if (!game) break;
      this.read[cell]++;
      this.partial[cell].push(raceOutcome(this.rule, game, this.sweep.orders[this.sweep.game(game.index).seating]));
      if (this.partial[cell].length === orders) {
        this.scores[cell].push(this.partial[cell].reduce((a, b) => a + b, 0) / orders);
        this.partial[cell] = [];
      }
    }
  }

  /** The looks now possible (every arm racing has its next round of deals); true when one was taken. */
  lookAll(): boolean {
    let looked = false;
    while (!this.decided) {
      const t = (this.state.looks + 1) * this.rule.roundDeals;
      const live = this.state.alive.flatMap((a, i) => (a ? [i] : []));
      if (live.some((i) => this.scores[i].length < t)) {
        // An arm that has played every deal of the sweep without reaching the round: the budget is spent.
        if (live.every((i) => this.read[i] === this.sweep.gamesPerCell)) this.budgetSpent = true;
        break;
      }
      const before = this.state.alive;
      const tallies = this.tallies(t);
      this.state = raceLook(this.state, tallies, this.rule);
      this.lastRadius = raceRadius(this.state.alive.length, this.state.looks, t, this.rule.delta);
      this.history.push({ look: this.state.looks, deals: t, radius: this.lastRadius, means: tallies.map((x, i) => (before[i] ? x.sum / x.deals : null)) });
      looked = true;
    }
    return looked;
  }

  /** Each arm's tally over its first t deals (fewer for an arm eliminated before). */
  private tallies(t: number): ArmTally[] {
    return this.scores.map((s) => {
      const deals = Math.min(t, s.length);
      let sum = 0;
      for (let i = 0; i < deals; i++) sum += s[i];
      return { deals, sum };
    });
  }

  report(): RaceReport {
    const t = this.state.looks * this.rule.roundDeals;
    const tallies = this.tallies(Math.max(t, 1));
    const agent = (cell: number) => this.sweep.cells[cell].agents[this.rule.seat];
    const arms = this.state.alive.map((alive, cell): RaceArm => {
      const counted = t > 0 ? tallies[cell] : { deals: 0, sum: 0 };
      return { cell, agent: agent(cell), deals: counted.deals, mean: counted.deals ? counted.sum / counted.deals : 0, alive, ...(this.state.eliminatedAt[cell] !== undefined ? { eliminatedAt: this.state.eliminatedAt[cell] } : {}) };
    });
    const leader = t > 0 ? raceLeader(this.state, tallies) : 0;
    const decided = this.state.decided
      ? { cell: this.state.decided.arm, agent: agent(this.state.decided.arm), by: this.state.decided.by }
      : this.budgetSpent
        ? { cell: leader, agent: agent(leader), by: 'budget' as const }
        : undefined;
    return { rule: this.rule, looks: this.state.looks, radius: this.lastRadius, arms, leader, ...(decided ? { decided } : {}), history: [...this.history] };
  }
}
