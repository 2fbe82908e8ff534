/**
 * Grouped arms (arms=grouped, parms=grouped): one discard arm and one wonder-stage arm per
 * decision instead of one per card, because discarding or burying a card under the wonder gives
 * the same 3 coins or the same stage whichever card it is, and a move list with a discard and a
 * stage per card gives those near-identical moves most of a uniform policy's weight.
 *
 * An arm is a move with the card ARM_CARD; a stage arm keeps its payment (with trades=all the
 * tree has one stage arm per payment). The card an arm uses is chosen by the bury rule (BURY_RULE
 * in params.ts): the card whose build the thesis's rule-based player ranks lowest for the mover.
 */
import {
  ACTION_BUILD,
  ACTION_DISCARD,
  ACTION_FREE_BUILD,
  ACTION_STAGE,
  CARDS,
  drawnCard,
  drawnCardBuildable,
  encodeMove,
  moveAction,
  moveCard,
  movePayLeft,
  movePayRight,
  priceDrawnHand,
  setListLength,
  WHOLE_HAND_CARD,
  type GameState,
  type Rng,
} from '../../engine/index.js';
import { producedBy, strongestInWar, thesisBuildRule } from '../playout-rules.js';

/** The card id of an arm: outside the catalogue's ids, the one the engine's grouped draws use. */
export const ARM_CARD = WHOLE_HAND_CARD;
export const DISCARD_ARM = encodeMove(ARM_CARD, ACTION_DISCARD);

export const isArm = (key: number): boolean => moveCard(key) === ARM_CARD;

/** The arm a move belongs to: its discard or stage arm, or the move itself. */
export function armOf(m: number): number {
  const a = moveAction(m);
  if (a === ACTION_DISCARD) return DISCARD_ARM;
  if (a === ACTION_STAGE) return encodeMove(ARM_CARD, ACTION_STAGE, movePayLeft(m), movePayRight(m));
  return m;
}

/** Fills `out` with the distinct arms of `legal`, in order of first appearance; returns it. */
export function groupArms(legal: readonly number[], out: number[]): number[] {
  let k = 0;
  for (let i = 0; i < legal.length; i++) {
    const m = legal[i];
    const arm = armOf(m);
    if (arm === m || !listed(out, k, arm)) out[k++] = arm;
  }
  setListLength(out, k);
  return out;
}

/** Whether x is among list[0..k) (the list's entries from k on are stale). */
function listed(list: readonly number[], k: number, x: number): boolean {
  for (let i = 0; i < k; i++) if (list[i] === x) return true;
  return false;
}

/** Bits of a move that say its card and action, without the payment. */
const CARD_AND_ACTION = 0x3ff;

/**
 * How the tree tells a seat's moves apart. With trades=cheapest the payment is not a choice but
 * what the world's resources force, so it is left out and one child serves the card and action in
 * every world; with trades=all whom to pay is part of the move. Grouped arms then pool discards
 * and stages.
 */
export class MoveKeys {
  private readonly withPayment: boolean;
  /** key as a function, made once: resolve passes it to resolveArm at every tree step of an arm. */
  private readonly keyOf = (m: number): number => this.key(m);

  constructor(
    private readonly grouped: boolean,
    trades: 'cheapest' | 'all',
  ) {
    this.withPayment = trades === 'all';
  }

  /** The tree's key of move m. */
  key(m: number): number {
    const base = this.withPayment ? m : m & CARD_AND_ACTION;
    return this.grouped ? armOf(base) : base;
  }

  /** Fills `out` with the distinct keys of `legal`, in order of first appearance; returns it. */
  keys(legal: readonly number[], out: number[]): number[] {
    let k = 0;
    for (let i = 0; i < legal.length; i++) {
      const key = this.key(legal[i]);
      if (!listed(out, k, key)) out[k++] = key;
    }
    setListLength(out, k);
    return out;
  }

  /**
   * The legal move that `key` stands for, for seat q in `world`: the only one with that key, or
   * for a grouped arm the bury rule's card (ties drawn with `rng`), which reads `world`.
   */
  resolve(world: GameState | undefined, q: number, key: number, legal: readonly number[], rng: Rng): number {
    if (isArm(key)) {
      if (!world) throw new Error('resolving a grouped arm needs a world');
      return resolveArm(world, q, key, legal, rng, this.keyOf);
    }
    for (let i = 0; i < legal.length; i++) if (this.key(legal[i]) === key) return legal[i];
    throw new Error(`no legal move has the key ${key}`);
  }
}

/**
 * How much seat q would rather bury card c than build it: 900 when `legal` has no build of it
 * (unaffordable, or a name it owns), else 100 × the thesis rule its build falls under, plus
 * (99 − VP) for blue cards (rule 5 prefers the most VP).
 */
function buryScore(c: number, legal: readonly number[], have: number, strongest: boolean): number {
  for (let i = 0; i < legal.length; i++) {
    const m = legal[i];
    const a = moveAction(m);
    if (moveCard(m) === c && (a === ACTION_BUILD || a === ACTION_FREE_BUILD)) return buryRank(c, true, have, strongest);
  }
  return buryRank(c, false, have, strongest);
}

/** buryScore of card c given whether seat q can build it at all (the bury rule, in one place). */
function buryRank(c: number, buildable: boolean, have: number, strongest: boolean): number {
  if (!buildable) return 900;
  const rule = thesisBuildRule(c, have, strongest);
  return rule * 100 + (rule === 5 ? 99 - CARDS[c].vp : 0);
}

/**
 * The highest-scoring of the moves offered one by one, ties drawn uniformly with the generator
 * (reservoir sampling: the k-th tied move replaces the kept one with probability 1/k): the bury
 * rule's pick among an arm's moves. One instance, reset per pick: picks do not nest.
 */
class BestPick {
  best = -1;
  private score = -1;
  private ties = 0;

  reset(): void {
    this.best = -1;
    this.score = -1;
    this.ties = 0;
  }

  offer(m: number, score: number, rng: Rng): void {
    if (score > this.score) {
      this.score = score;
      this.best = m;
      this.ties = 1;
    } else if (score === this.score && rng.int(++this.ties) === 0) {
      this.best = m;
    }
  }
}

/** The pick resolveArm and resolveDrawnArm make their bury-rule choice with. */
const buryPick = new BestPick();

/**
 * The move that arm `key` stands for, for seat q in `world` with legal moves `legal` (which hold
 * the arm's moves; `keyOf` says which: armOf unless payments are left out): the bury rule's card,
 * ties drawn with `rng`. A plain move is returned as is.
 */
export function resolveArm(world: GameState, q: number, key: number, legal: readonly number[], rng: Rng, keyOf: (m: number) => number = armOf): number {
  if (!isArm(key)) return key;
  const have = producedBy(world, q);
  const strongest = strongestInWar(world, q);
  buryPick.reset();
  for (let i = 0; i < legal.length; i++) {
    const m = legal[i];
    if (keyOf(m) === key) buryPick.offer(m, buryScore(moveCard(m), legal, have, strongest), rng);
  }
  if (buryPick.best < 0) throw new Error(`arm ${key} has no move among the legal moves`);
  return buryPick.best;
}

/**
 * The move that a grouped arm just drawn by the engine's drawUniformMove(s, p, …) stands for: the
 * bury rule's card, ties drawn with `rng` in hand order — the move resolveArm picks from the full
 * listing, drawing the same numbers — but pricing only the cards the draw did not price
 * (priceDrawnHand), with the draw's own pricing. `s` must not have changed since the draw.
 */
export function resolveDrawnArm(s: GameState, p: number, arm: number, rng: Rng): number {
  const count = priceDrawnHand(s, p);
  const discard = moveAction(arm) === ACTION_DISCARD;
  const have = producedBy(s, p);
  const strongest = strongestInWar(s, p);
  buryPick.reset();
  for (let i = 0; i < count; i++) {
    const c = drawnCard(i);
    const m = discard ? encodeMove(c, ACTION_DISCARD) : encodeMove(c, ACTION_STAGE, movePayLeft(arm), movePayRight(arm));
    buryPick.offer(m, buryRank(c, drawnCardBuildable(i), have, strongest), rng);
  }
  return buryPick.best;
}
