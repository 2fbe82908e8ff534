/**
 * The legal moves of a playout that caps the payment search (the `tl` option: the 2014 paper's
 * limit on the trade branches its playouts explore per card). The cap is an approximation a search
 * chooses, not a rule, so it lives with the agents: the engine's legalMoves never applies it, and
 * this list is legalMoves(s, p, 'cheapest') with each card's and the stage's payment searched at
 * most `branchLimit` nodes (playout-payment.ts), a payment not found within them counting as none.
 */
import {
  ACTION_DISCARD,
  ACTION_STAGE,
  NO_PAYMENT,
  PHASE_DISCARD_BUILD,
  PHASE_OVER,
  PHASE_SEVENTH,
  distinctHandCards,
  encodeMove,
  hasFreeBuild,
  legalMoves,
  loadSeat,
  paymentLeft,
  paymentRight,
  setListLength,
  type GameState,
} from '../engine/index.js';
import { cappedStagePayment, writeCappedBuilds } from './playout-payment.js';

const handCards = new Int32Array(7);

/** Fills `out` with seat p's cheapest-mode moves, payments capped at `branchLimit` (0: none), and returns it. */
export function playoutMoves(s: GameState, p: number, out: number[], branchLimit: number): number[] {
  // Uncapped, or where no payment is searched (builds from the discard pile, seats that do not
  // act), the rules' own list.
  if (branchLimit === 0 || s.phase === PHASE_DISCARD_BUILD || s.phase === PHASE_OVER || (s.phase === PHASE_SEVENTH && s.pendingSeventh !== p)) return legalMoves(s, p, 'cheapest', out);
  loadSeat(s, p);
  // In legalMoves' order: the stage's payment once, then per distinct card its builds, stage, discard.
  const stagePay = cappedStagePayment(s, p, branchLimit);
  const freeBuildReady = hasFreeBuild(s, p);
  const count = distinctHandCards(s, p, handCards);
  let k = 0;
  for (let i = 0; i < count; i++) {
    const c = handCards[i];
    k = writeCappedBuilds(s, p, c, freeBuildReady, out, k, branchLimit);
    if (stagePay !== NO_PAYMENT) out[k++] = encodeMove(c, ACTION_STAGE, paymentLeft(stagePay), paymentRight(stagePay));
    out[k++] = encodeMove(c, ACTION_DISCARD);
  }
  setListLength(out, k);
  return out;
}
