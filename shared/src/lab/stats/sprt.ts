/**
 * Sequential tests that stop a comparison as soon as it is decided (issue: adaptive sweeps).
 *
 * SPRT on a head-to-head score: each game scores 1 when agent a ends with more VP than agent b,
 * ½ on a tie, 0 otherwise. H0: a is `elo0` stronger than b; H1: `elo1` stronger, on the logistic
 * Elo scale (expected score 1 / (1 + 10^(−elo/400))). The log-likelihood ratio is the generalized
 * SPRT's (Van den Bergh's approximation, as chess-engine testing uses it): with n outcomes of mean
 * x̄ and variance σ², LLR ≈ n · (s1 − s0) · (2x̄ − s0 − s1) / (2σ²), where s0, s1 are the expected
 * scores under H0 and H1. It needs no model of draws, so it holds for the trinomial outcomes of
 * single games and, on seat-swapped pairs (the mean of a deal's games in every seat order), for
 * the pentanomial outcomes whose smaller variance is what pairing buys. The test accepts H1 once
 * LLR ≥ ln((1 − β)/α) and H0 once LLR ≤ ln(β/(1 − α)).
 *
 * The interval rule stops once seat a's Wilson 95 % win-rate interval is at most `halfWidth` wide
 * on each side.
 *
 * Both are evaluated game by game in the sweep's play order, so where a cell stops depends only on
 * the recorded results in that order, never on when they arrived.
 */
import { Z95, wilson } from './stats.js';

export interface SprtRule {
  /** The spec's seats whose agents are compared: a against b. */
  seats: [number, number];
  elo0: number;
  elo1: number;
  alpha: number;
  beta: number;
}

/** A cell's stopping rule: the SPRT, or the interval rule (seat a's Wilson 95 % half-width, a fraction: 0.02 is ±2 points). */
export type StopRule = { sprt: SprtRule } | { ciHalfWidth: number; seat: number };

/**
 * H0 / H1: the SPRT accepted that hypothesis; interval: narrow enough; max: every game played,
 * undecided. A racing tune's arms (lab/plan/race.ts): out, dropped from the race; won, the arm the
 * race returned; raced, still racing when the race decided for another.
 */
export type StopDecision = 'H0' | 'H1' | 'interval' | 'max' | 'out' | 'won' | 'raced';

/** Expected score of a side `elo` stronger, on the logistic Elo scale. */
export function eloScore(elo: number): number {
  return 1 / (1 + 10 ** (-elo / 400));
}

/** The SPRT's bounds on the LLR: accept H0 at or below `lower`, H1 at or above `upper`. */
export function sprtBounds(alpha: number, beta: number): { lower: number; upper: number } {
  return { lower: Math.log(beta / (1 - alpha)), upper: Math.log((1 - beta) / alpha) };
}

/** Outcomes before a test may decide: an estimate of the variance from fewer is not trusted. */
export const MIN_OUTCOMES = 16;
/** Floor of the outcomes' variance (a score's is at most ¼): a run of equal outcomes must not make the LLR infinite. */
const MIN_VARIANCE = 0.01;

/** Running sums of outcomes (game scores, or the means of seat-swapped groups). */
export class OutcomeSums {
  n = 0;
  sum = 0;
  sumSquares = 0;

  add(x: number): void {
    this.n++;
    this.sum += x;
    this.sumSquares += x * x;
  }

  get mean(): number {
    return this.n ? this.sum / this.n : NaN;
  }

  /** The outcomes' (population) variance. */
  get variance(): number {
    return this.n ? Math.max(0, this.sumSquares / this.n - this.mean ** 2) : NaN;
  }
}

/** The generalized SPRT's log-likelihood ratio of H1 (score s1) against H0 (score s0). */
export function sprtLlr(sums: OutcomeSums, elo0: number, elo1: number): number {
  if (sums.n === 0) return 0;
  const [s0, s1] = [eloScore(elo0), eloScore(elo1)];
  const variance = Math.max(sums.variance, MIN_VARIANCE);
  return (sums.n * (s1 - s0) * (2 * sums.mean - s0 - s1)) / (2 * variance);
}

/** One point of a test's trace: after `games` games, the LLR (SPRT) or the interval's half-width. */
export interface TracePoint {
  games: number;
  value: number;
}

/** Where a stopping rule stands after the outcomes it has been given. */
export interface StopState {
  /** Games evaluated (in play order). */
  games: number;
  /** The decision, once made, and the games it took (later games do not change it). */
  decision?: StopDecision;
  /** The current statistic: the LLR, or the interval's half-width. */
  value: number;
  /** The statistic every so many games (at most about TRACE_POINTS points over any run), and at the decision. */
  trace: TracePoint[];
  /**
   * The SPRT's mean score of a against b over its outcomes (a deal's seat-swapped games one
   * outcome), with the half-width of its 95 % interval from their spread (absent before two).
   */
  score?: { mean: number; halfWidth: number; outcomes: number };
}

const TRACE_POINTS = 200;

/**
 * A stopping rule fed one game at a time in play order. For the SPRT on seat-swapped designs, a
 * deal's games (its seat orders, `groupSize` of them) are one outcome: their mean score.
 */
export class StoppingTest {
  private readonly sums = new OutcomeSums();
  private group: number[] = [];
  private wins = 0;
  /** Games between trace points: doubled, and every other point dropped, whenever the trace fills. */
  private traceEvery = 25;
  readonly state: StopState = { games: 0, value: 0, trace: [] };

  constructor(
    readonly rule: StopRule,
    /** Games per paired group (the seat orders of a deal); 1 when games are not paired. */
    readonly groupSize = 1,
  ) {}

  /** The next game's outcome: its head-to-head score for the SPRT (1, ½, 0), a win (1) or not (0) for the interval. */
  add(outcome: number): StopDecision | undefined {
    if (this.state.decision) return this.state.decision;
    this.state.games++;
    if ('sprt' in this.rule) {
      this.group.push(outcome);
      if (this.group.length === this.groupSize) {
        this.sums.add(this.group.reduce((s, x) => s + x, 0) / this.groupSize);
        this.group = [];
      }
      const { elo0, elo1, alpha, beta } = this.rule.sprt;
      this.state.value = sprtLlr(this.sums, elo0, elo1);
      const n = this.sums.n;
      if (n >= 2) this.state.score = { mean: this.sums.mean, halfWidth: Z95 * Math.sqrt((this.sums.variance * n) / (n - 1) / n), outcomes: n };
      const { lower, upper } = sprtBounds(alpha, beta);
      if (this.sums.n >= MIN_OUTCOMES / this.groupSize && this.group.length === 0) {
        if (this.state.value >= upper) this.state.decision = 'H1';
        else if (this.state.value <= lower) this.state.decision = 'H0';
      }
    } else {
      this.wins += outcome;
      const w = wilson(this.wins, this.state.games, Z95);
      this.state.value = (w.high - w.low) / 2;
      if (this.state.games >= MIN_OUTCOMES && this.state.value <= this.rule.ciHalfWidth) this.state.decision = 'interval';
    }
    if (this.state.decision || this.state.games % this.traceEvery === 0) this.state.trace.push({ games: this.state.games, value: this.state.value });
    if (this.state.trace.length > TRACE_POINTS) {
      this.state.trace = this.state.trace.filter((_, i) => i % 2 === 1);
      this.traceEvery *= 2;
    }
    return this.state.decision;
  }

  /** Every game of the cell played without a decision. */
  finish(): StopDecision {
    if (!this.state.decision) {
      this.state.decision = 'max';
      this.state.trace.push({ games: this.state.games, value: this.state.value });
    }
    return this.state.decision;
  }
}
