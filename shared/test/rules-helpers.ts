/**
 * Small helpers for the rule tests (rules-*.test.ts): build a position, look up a hand card's
 * evaluation, list payment splits, play one step with chosen moves.
 *
 * Positions list players clockwise: players[i + 1] is player i's LEFT neighbour, players[i − 1]
 * its RIGHT neighbour.
 */
import {
  ACTION_BUILD,
  ACTION_DISCARD,
  CARDS,
  actingSeats,
  cityView,
  encodeMove,
  evaluatePosition,
  findCard,
  handBase,
  handView,
  legalMoves,
  moveAction,
  moveCard,
  movePayLeft,
  movePayRight,
  scoreSeat,
  stateFromPosition,
  step,
  type GameState,
  type HandCardEvaluation,
  type Position,
  type PositionPlayer,
  type ScoreBreakdown,
} from '../src/engine/index.js';

/** Card type id for a name (the type of that Age when `age` is given). */
export function card(name: string, age?: number): number {
  const id = findCard(name, age);
  if (id === undefined) throw new Error(`unknown card '${name}'`);
  return id;
}

/** The canonical name of a card name or alias. */
export function canon(name: string): string {
  return CARDS[card(name)].name;
}

export function position(age: 1 | 2 | 3, players: PositionPlayer[], discard?: string[]): Position {
  return { age, players, ...(discard ? { discard } : {}) };
}

/** Score breakdown of one seat of a position. */
export function scoreOf(pos: Position, seat: number): ScoreBreakdown {
  return evaluatePosition(pos).players[seat].score;
}

/** Evaluation of one card of a seat's hand. */
export function handEntry(pos: Position, seat: number, name: string): HandCardEvaluation {
  const entry = evaluatePosition(pos).players[seat].hand.find((h) => h.card === canon(name));
  if (!entry) throw new Error(`seat ${seat} has no '${name}' in hand`);
  return entry;
}

/** Every (payLeft, payRight) split offered in 'all' mode for this card and action. */
export function splits(s: GameState, seat: number, name: string, action = ACTION_BUILD): [number, number][] {
  const want = canon(name);
  return legalMoves(s, seat, 'all')
    .filter((m) => CARDS[moveCard(m)].name === want && moveAction(m) === action)
    .map((m) => [movePayLeft(m), movePayRight(m)] as [number, number]);
}

/** The cheapest legal move of this card and action, or undefined. */
export function findMove(s: GameState, seat: number, name: string, action: number): number | undefined {
  const want = canon(name);
  return legalMoves(s, seat, 'cheapest').find((m) => CARDS[moveCard(m)].name === want && moveAction(m) === action);
}

/** Like findMove, but the move must exist. */
export function move(s: GameState, seat: number, name: string, action: number): number {
  const m = findMove(s, seat, name, action);
  if (m === undefined) throw new Error(`seat ${seat}: no legal ${action} move for '${name}'`);
  return m;
}

export function discardFirst(s: GameState, seat: number): number {
  return encodeMove(s.hands[handBase(s, seat)], ACTION_DISCARD);
}

/** One step: the given moves, and every other acting seat discards the first card of its hand. */
export function play(s: GameState, chosen: Record<number, number> = {}): void {
  const moves = new Array<number>(s.n).fill(0);
  for (const p of actingSeats(s)) moves[p] = chosen[p] ?? discardFirst(s, p);
  step(s, moves);
}

export function game(age: 1 | 2 | 3, players: PositionPlayer[], discard?: string[]): GameState {
  return stateFromPosition(position(age, players, discard));
}

export function cityNames(s: GameState, seat: number): string[] {
  const out: string[] = [];
  for (const c of cityView(s, seat)) out.push(CARDS[c].name);
  return out.sort();
}

export function handIds(s: GameState, seat: number): number[] {
  return Array.from(handView(s, seat));
}

export function discardNames(s: GameState): string[] {
  const out: string[] = [];
  s.discard.forEach((k, c) => {
    for (let i = 0; i < k; i++) out.push(CARDS[c].name);
  });
  return out.sort();
}

export function score(s: GameState, seat: number): ScoreBreakdown {
  return scoreSeat(s, seat);
}
