/**
 * Resolving a grouped arm drawn by the engine's drawUniformMove (engine/uniform-draw.ts) without
 * listing the hand: the draw has priced some of its cards already, and the bury rule needs the
 * rest.
 */
import {
  ACTION_DISCARD,
  ACTION_STAGE,
  drawnCard,
  drawnCardBuildable,
  encodeMove,
  moveAction,
  movePayLeft,
  movePayRight,
  priceDrawnHand,
  type GameState,
  type Rng,
} from '../engine/index.js';
import { buryPick, buryRank } from './mcts/arms.js';
import { producedBy, strongestInWar } from './playout-rules.js';

/**
 * The move that a grouped arm just drawn by drawUniformMove(s, p, …) stands for: the bury rule's
 * card, ties drawn with `rng` in hand order — the move resolveArm (mcts/arms.ts) picks from the
 * full listing, drawing the same numbers — but pricing only the cards the draw did not price.
 * Only for cheapest payments (`branchLimit` as in the draw): with a random payment order, pricing
 * draws numbers too, so the caller lists the hand instead. `s` must not have changed since the draw.
 */
export function resolveDrawnArm(s: GameState, p: number, arm: number, rng: Rng, branchLimit: number): number {
  const count = priceDrawnHand(s, p, branchLimit);
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
