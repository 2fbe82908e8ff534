/**
 * Playout policies: how a seat moves in the simulated part of an iteration (and, with tree=joint,
 * how the other seats move inside the tree's steps), and MAST's statistics.
 */
import { ACTION_DISCARD, MAX_PLAYERS, NO_DRAW, PHASE_TURN, drawUniformMove, moveAction, moveCard, type DrawPricing, type GameState, type Rng } from '../../engine/index.js';
import type { MctsParams } from '../params.js';
import { playoutMoves } from '../playout-moves.js';
import { cappedPricing } from '../playout-payment.js';
import { thesisRulesMoveLazily } from '../playout-rules.js';
import { armOf, groupArms, isArm, resolveArm, resolveDrawnArm } from './arms.js';

export type PolicyName = MctsParams['playout'];

/** MAST keys per seat: card (7 bits) × action (3 bits); payments are not told apart. */
const KEYS = 1 << 10;
/** Moves one simulation can make: 3 Ages × 7 slots × 7 seats, plus Halikarnassos's builds. */
const TRAIL = 256;
/** The probability that a mast playout picks uniformly rather than the best mean (ε-greedy). */
const MAST_EPSILON = 0.1;

/**
 * Move-Average Sampling Technique (Finnsson & Björnsson 2008): the mean reward of every move (by
 * seat, card and action) over the simulations of the current decision, whatever the position it
 * was made in. A move never tried counts as the best possible (1), so each is tried.
 */
export class Mast {
  private readonly sum = new Float64Array(MAX_PLAYERS * KEYS);
  private readonly count = new Float64Array(MAX_PLAYERS * KEYS);
  private readonly trail = new Int32Array(TRAIL);
  private trailLen = 0;

  constructor(private readonly grouped: boolean) {}

  /** The statistics' key of move m by seat q: grouped playouts pool a decision's discards and stages. */
  key(q: number, m: number): number {
    const k = this.grouped ? armOf(m) : m;
    return q * KEYS + ((moveCard(k) << 3) | moveAction(k));
  }

  /** Forgets everything (a new decision). */
  reset(): void {
    this.sum.fill(0);
    this.count.fill(0);
    this.trailLen = 0;
  }

  /** Notes that seat q made move m in the running simulation. */
  note(q: number, m: number): void {
    if (this.trailLen < TRAIL) this.trail[this.trailLen++] = this.key(q, m);
  }

  /** Credits every noted move with its seat's reward, and starts a new trail. */
  update(rewards: Float64Array): void {
    for (let i = 0; i < this.trailLen; i++) {
      const k = this.trail[i];
      this.sum[k] += rewards[(k / KEYS) | 0];
      this.count[k]++;
    }
    this.trailLen = 0;
  }

  /** Mean reward of seat q's move m (1 when never tried). */
  value(q: number, m: number): number {
    const k = this.key(q, m);
    return this.count[k] > 0 ? this.sum[k] / this.count[k] : 1;
  }
}

/** The playout policies' move chooser, with its scratch buffers (one per agent). */
export class Playouts {
  private readonly legal: number[] = [];
  private readonly arms: number[] = [];
  /** MAST's statistics, when some seat's policy is mast. */
  readonly mast: Mast | undefined;
  /** Per Age, the lazy draws' pricing with that Age's payment cap: looked up once, not at every step. */
  private readonly pricings: readonly DrawPricing[];

  constructor(private readonly params: MctsParams) {
    this.pricings = params.tl.map((cap) => cappedPricing(cap));
    const usesMast = params.playout === 'mast' || params.opp === 'mast';
    this.mast = usesMast ? new Mast(params.parms === 'grouped') : undefined;
  }

  /** The policy seat q follows when `me` is the searching seat. */
  policyOf(q: number, me: number): PolicyName {
    const p = this.params;
    return q !== me && p.opp !== 'same' ? p.opp : p.playout;
  }

  /** Seat q's move in `world` under `policy`. */
  move(world: GameState, q: number, policy: PolicyName, rng: Rng): number {
    const p = this.params;
    const legal = this.legal;
    let m: number;
    // ε-greedy heavy playouts: the draw is made only when pe > 0, so pe = 0 plays the same games.
    if (policy === 'rulebased' && p.pe > 0 && rng.float() < p.pe) policy = 'nodiscard';
    if (policy === 'rulebased') {
      m = thesisRulesMoveLazily(world, q, rng, p.tl[world.age - 1]);
    } else if (policy !== 'mast' && world.phase === PHASE_TURN) {
      m = this.drawLazily(world, q, policy === 'nodiscard', rng);
    } else {
      playoutMoves(world, q, legal, p.tl[world.age - 1]);
      const grouped = p.parms === 'grouped';
      const options = grouped ? groupArms(legal, this.arms) : legal;
      if (policy === 'nodiscard') {
        let keep = 0;
        for (let i = 0; i < options.length; i++) if (moveAction(options[i]) !== ACTION_DISCARD) options[keep++] = options[i];
        // With nothing but discards, the list is untouched.
        if (keep > 0) options.length = keep;
      }
      const choice = policy === 'mast' ? this.mastChoice(q, options, rng) : options[rng.int(options.length)];
      m = grouped ? resolveArm(world, q, choice, legal, rng) : choice;
    }
    this.mast?.note(q, m);
    return m;
  }

  /**
   * A random or no-discard move without listing the hand (engine/uniform-draw.ts), priced with the
   * playouts' payment cap (playout-payment.ts): the same choice among
   * the same options as listing them and drawing one, at the cost of the cards it looks at. A
   * drawn arm is resolved from the draw's own pricing too (resolveDrawnArm).
   */
  private drawLazily(world: GameState, q: number, noDiscard: boolean, rng: Rng): number {
    const grouped = this.params.parms === 'grouped';
    const pricing = this.pricings[world.age - 1];
    let choice = drawUniformMove(world, q, rng, grouped, noDiscard, pricing);
    // A no-discard draw from a hand that can only be sold sells one, as the listing's draw does.
    if (choice === NO_DRAW) choice = drawUniformMove(world, q, rng, grouped, false, pricing);
    if (!isArm(choice)) return choice;
    return resolveDrawnArm(world, q, choice, rng);
  }

  /** MAST's pick among `options`: ε-greedy on the moves' mean rewards. */
  private mastChoice(q: number, options: readonly number[], rng: Rng): number {
    const mast = this.mast!;
    if (rng.float() < MAST_EPSILON) return options[rng.int(options.length)];
    let best = options[0];
    let bestValue = -Infinity;
    let ties = 0;
    for (let i = 0; i < options.length; i++) {
      const v = mast.value(q, options[i]);
      if (v > bestValue) {
        bestValue = v;
        best = options[i];
        ties = 1;
      } else if (v === bestValue && rng.int(++ties) === 0) {
        best = options[i];
      }
    }
    return best;
  }
}
