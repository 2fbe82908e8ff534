/**
 * The fixed-size encoding of a seat's decision for learned agents: an observation vector (what the
 * seat may know, never the hidden state) and a discrete action index per legal move. One encoding
 * serves the Python environments (`wonderlab env`) and the `policy` agent, so a network trained in
 * one runs in the other. docs/python.md lists the fields; test/encoding.test.ts pins them.
 *
 * Actions: index = card type × 5 + action kind (build, stage, discard, freeBuild, buildDiscarded),
 * NUM_CARD_TYPES × 5 in all. Each index stands for the move the lab's agents play for that card
 * and kind: the cheapest payment (legalMoves' 'cheapest' mode, ties to the one that pays the right
 * neighbour least), so a card and kind name at most one legal move.
 *
 * Observation: unsigned bytes (counts and small numbers, clamped to 255), in this order:
 *   age (1–3), turn (1–6), phase (3, one-hot: turn, seventh card, build from discard),
 *   discard pile size, own hand (NUM_CARD_TYPES counts),
 *   the discard pile by card type (NUM_CARD_TYPES counts; zeros unless this seat is building from
 *   it now, when the rules let it look through the pile),
 *   then per seat in relative order — this seat, its left neighbour (seat + 1), …, its right
 *   neighbour (seat − 1) — SEAT_FIELDS bytes:
 *     wonder (7, one-hot), side (0 A, 1 B), stages built, coins, shields, defeat tokens,
 *     victory-token points, hand size, built cards (NUM_CARD_TYPES, 0/1), whether this seat has
 *     seen that hand (0/1), and the cards that hand may still hold as far as this seat knows
 *     (NUM_CARD_TYPES counts; zeros for its own hand and for hands it has not seen).
 */
import {
  BOARDS,
  NUM_CARD_TYPES,
  PHASE_DISCARD_BUILD,
  PHASE_SEVENTH,
  PHASE_TURN,
  cityBase,
  handBase,
  handCandidates,
  moveAction,
  moveCard,
  tokenBase,
  writeLegalMoves,
  TOKENS_PER_SEAT,
  type GameState,
} from '../engine/index.js';

/** The action kinds of an action index, in order (the engine's ACTION_* codes). */
export const ACTION_KINDS = ['build', 'stage', 'discard', 'freeBuild', 'buildDiscarded'] as const;
const KINDS = ACTION_KINDS.length;
/** How many action indices there are. */
export const ACTION_COUNT = NUM_CARD_TYPES * KINDS;

const GLOBAL_FIELDS = 1 + 1 + 3 + 1;
const WONDERS = BOARDS.length;
/** Bytes per seat block. */
export const SEAT_FIELDS = WONDERS + 1 + 1 + 1 + 1 + 1 + 1 + 1 + NUM_CARD_TYPES + 1 + NUM_CARD_TYPES;

/** The length of the observation vector in a game of `players`. */
export function observationSize(players: number): number {
  return GLOBAL_FIELDS + 2 * NUM_CARD_TYPES + players * SEAT_FIELDS;
}

/** The action index of a move code. */
export function actionIndex(move: number): number {
  return moveCard(move) * KINDS + moveAction(move);
}

/** The card type and action kind of an action index. */
export function actionParts(action: number): { card: number; kind: (typeof ACTION_KINDS)[number] } {
  return { card: Math.floor(action / KINDS), kind: ACTION_KINDS[action % KINDS] };
}

const legalBuf: number[] = [];

/**
 * Writes seat p's action mask (1 where legal) over mask[at .. at + ACTION_COUNT) and, for each legal
 * index, its move code into moves[movesAt + index]; returns how many are legal (0 when p does not
 * act).
 */
export function writeActionMask(s: GameState, p: number, mask: Uint8Array, at: number, moves: Int32Array, movesAt: number): number {
  mask.fill(0, at, at + ACTION_COUNT);
  const k = writeLegalMoves(s, p, 'cheapest', legalBuf);
  for (let i = 0; i < k; i++) {
    const a = actionIndex(legalBuf[i]);
    mask[at + a] = 1;
    moves[movesAt + a] = legalBuf[i];
  }
  return k;
}

const clamp = (x: number): number => (x < 0 ? 0 : x > 255 ? 255 : x);

/** Writes seat p's observation over out[at .. at + observationSize(s.n)); returns the index after it. */
export function writeObservation(s: GameState, p: number, out: Uint8Array, at = 0): number {
  const end = at + observationSize(s.n);
  out.fill(0, at, end);
  let i = at;
  out[i++] = s.age;
  out[i++] = s.turn;
  // The phase codes are 0, 1, 2 in this order (PHASE_OVER, 3, sets none).
  if (s.phase === PHASE_TURN || s.phase === PHASE_SEVENTH || s.phase === PHASE_DISCARD_BUILD) out[i + s.phase] = 1;
  i += 3;
  let discardSize = 0;
  for (let c = 0; c < NUM_CARD_TYPES; c++) discardSize += s.discard[c];
  out[i++] = clamp(discardSize);
  for (let j = handBase(s, p), e = j + s.handLen[p]; j < e; j++) out[i + s.hands[j]]++;
  i += NUM_CARD_TYPES;
  if (s.phase === PHASE_DISCARD_BUILD && s.pendingDiscardBuilds[p] > 0) {
    for (let c = 0; c < NUM_CARD_TYPES; c++) out[i + c] = s.discard[c];
  }
  i += NUM_CARD_TYPES;
  for (let r = 0; r < s.n; r++) {
    const q = (p + r) % s.n;
    out[i + s.board[q]] = 1;
    i += WONDERS;
    out[i++] = s.side[q];
    out[i++] = s.stages[q];
    out[i++] = clamp(s.coins[q]);
    out[i++] = clamp(s.shields[q]);
    let defeats = 0;
    let points = 0;
    for (let t = tokenBase(q), e = t + TOKENS_PER_SEAT; t < e; t++) {
      if (s.tokens[t] < 0) defeats++;
      else points += s.tokens[t];
    }
    out[i++] = defeats;
    out[i++] = points;
    out[i++] = s.handLen[q];
    for (let j = cityBase(q), e = j + s.cityLen[q]; j < e; j++) out[i + s.city[j]] = 1;
    i += NUM_CARD_TYPES;
    const seen = r === 0 ? null : handCandidates(s, p, q);
    out[i++] = seen ? 1 : 0;
    if (seen) for (const c of seen) out[i + c]++;
    i += NUM_CARD_TYPES;
  }
  return end;
}
