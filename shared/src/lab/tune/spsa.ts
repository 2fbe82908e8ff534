/**
 * SPSA (simultaneous perturbation stochastic approximation; Spall 1992, "Multivariate stochastic
 * approximation using a simultaneous perturbation gradient approximation") for continuous and
 * integer options, as fishtest runs it for Stockfish (official-stockfish/fishtest,
 * server/fishtest/spsa_workflow.py and spsa_handler.py; worker/games.py): every step perturbs all
 * parameters at once by ±c_k along random signs δ, plays θ + c_k δ against θ − c_k δ at one table
 * on one deal with the seats swapped, and moves θ by the result.
 *
 * Our reading for a multi-player card game, and the constants:
 * - θ lives on [0, 1] per dimension (space.ts: each option mapped on its linear or log scale), so
 *   that one c_end and r_end fit every option; the values played are clipped to [0, 1].
 * - N steps (pairs) in the budget; A = 0.1·N, α = 0.602, γ = 0.101 (fishtest's defaults, Spall's
 *   recommended exponents). The gains run backwards from their final values, as fishtest's do:
 *     c = c_end·N^γ,  a = r_end·c_end²·(A + N)^α,
 *     c_k = c / (k + 1)^γ,  R_k = a / (A + k + 1)^α / c_k²   (k = steps applied before this one),
 *   so that c_k = c_end and R_k = r_end at the last step.
 * - c_end = 0.05 (5 % of each option's range) and r_end = 0.02 by default: with a 2-game pair's
 *   result s in [−2, 2], a step moves θ by R_k·c_k·s·δ ≈ 0.001·s at the end; over a few hundred
 *   steps a steady edge of one game in ten (s̄ = 0.2) moves θ by about a tenth of the range while
 *   the noise walks about as far — the scale at which a tune of a few thousand games still tells
 *   something. Both are settings of the tune.
 * - The result s of a step: over its two games, +1 each game θ+ scores more VP than θ−, −1 each
 *   game it scores fewer, 0 a tie (fishtest's wins − losses, draws 0); the step is not divided by
 *   the games (fishtest's is not either).
 * - Integer options: the value played is rounded at random, ⌊x + U⌋ with U uniform (fishtest's
 *   rule: equal to x in expectation, so that the objective stays continuous); θ stays real.
 * - The signs δ and the rounding draws of step k come from a generator seeded by the tune's seed
 *   and k, so that a step is the same whenever it is proposed again (a restart).
 *
 * Steps may be proposed before the results of the earlier ones are in (asynchronous SPSA, as
 * fishtest's workers are): a proposal records the θ, k and gains it was made with, and its result
 * is applied with those, in the order results are recorded. replaySpsa rebuilds the state from the
 * recorded proposals and results, so a coordinator killed mid-tune resumes on the same trajectory.
 */
import { Rng } from '../../engine/index.js';

export const SPSA_ALPHA = 0.602;
export const SPSA_GAMMA = 0.101;
/** A as a fraction of the steps (fishtest's default). */
export const SPSA_A_RATIO = 0.1;
export const SPSA_C_END = 0.05;
export const SPSA_R_END = 0.02;

export interface SpsaConfig {
  /** Steps (game pairs) in the budget. */
  steps: number;
  /** θ at the start, each in [0, 1]. */
  start: readonly number[];
  /** Which dimensions are integers (rounded at random when played): their unit width, else 0. */
  integerStep?: readonly number[];
  cEnd?: number;
  rEnd?: number;
  seed: string;
}

/** One step's game pair, as proposed. */
export interface SpsaProposal {
  k: number;
  /** θ the step was proposed from. */
  theta: number[];
  flips: number[];
  ck: number;
  rk: number;
  /** The points played (in [0, 1]): θ + c_k δ and θ − c_k δ, clipped, integers rounded. */
  plus: number[];
  minus: number[];
}

export interface SpsaState {
  theta: number[];
  /** Steps applied. */
  applied: number;
  /** θ after each applied step (the trajectory), with the c_k it was proposed with. */
  trajectory: { k: number; theta: number[]; ck: number; s: number }[];
}

const clip = (x: number) => Math.min(1, Math.max(0, x));

export function spsaGains(config: SpsaConfig, k: number): { ck: number; rk: number } {
  const n = config.steps;
  const cEnd = config.cEnd ?? SPSA_C_END;
  const rEnd = config.rEnd ?? SPSA_R_END;
  const a0 = SPSA_A_RATIO * n;
  const c = cEnd * n ** SPSA_GAMMA;
  const a = rEnd * cEnd * cEnd * (a0 + n) ** SPSA_ALPHA;
  const ck = c / (k + 1) ** SPSA_GAMMA;
  const rk = a / (a0 + k + 1) ** SPSA_ALPHA / (ck * ck);
  return { ck, rk };
}

export function startSpsa(config: SpsaConfig): SpsaState {
  if (!(config.steps >= 1)) throw new RangeError(`SPSA needs at least one step, got ${config.steps}`);
  for (const x of config.start) if (!(x >= 0 && x <= 1)) throw new RangeError(`SPSA's start must be in [0, 1] per dimension, got ${x}`);
  return { theta: [...config.start], applied: 0, trajectory: [] };
}

/**
 * Step k's pair, proposed from θ (the state's now): its signs, gains and the two points. `k` counts
 * the steps proposed before it (applied or not), so that gains follow the proposals' order.
 */
export function proposeSpsa(config: SpsaConfig, state: SpsaState, k: number): SpsaProposal {
  const rng = new Rng(`${config.seed}:spsa:${k}`);
  const flips = state.theta.map(() => (rng.int(2) === 0 ? -1 : 1));
  const { ck, rk } = spsaGains(config, k);
  const play = (sign: number) =>
    state.theta.map((t, i) => {
      const x = clip(t + sign * ck * flips[i]);
      const w = config.integerStep?.[i] ?? 0;
      // ⌊x + U⌋ on the integer grid of width w (in unit terms), then clipped.
      return w > 0 ? clip(Math.floor(x / w + rng.float()) * w) : x;
    });
  return { k, theta: [...state.theta], flips, ck, rk, plus: play(1), minus: play(-1) };
}

/** Applies a step's result s (θ+'s wins minus losses over its games) with the gains it was proposed with. */
export function applySpsa(state: SpsaState, p: SpsaProposal, s: number): SpsaState {
  const theta = state.theta.map((t, i) => clip(t + p.rk * p.ck * s * p.flips[i]));
  return { theta, applied: state.applied + 1, trajectory: [...state.trajectory, { k: p.k, theta, ck: p.ck, s }] };
}

/** The state after the recorded results, in their recorded order (each with its proposal). */
export function replaySpsa(config: SpsaConfig, results: readonly { proposal: SpsaProposal; s: number }[]): SpsaState {
  return results.reduce((state, r) => applySpsa(state, r.proposal, r.s), startSpsa(config));
}
