/**
 * Positions written by hand (the input of `wonderlab eval`) and their evaluation: every seat's
 * score breakdown and, for each card in hand, whether it can be built or used for the next stage
 * and at what cheapest payment.
 *
 * Players are listed clockwise: players[i + 1] is player i's LEFT neighbour (the one it passes to
 * in Age I), players[i − 1] its RIGHT neighbour. Card and wonder names match without regard to
 * case or apostrophes, aliases included.
 */
import { BOARDS, CARDS, findBoard, findCard } from './catalog.js';
import { decodeMove, hasChain, legalMoves, type ActionName } from './moves.js';
import { Rng } from './rng.js';
import { buildStage, placeCard } from './rules.js';
import { scoreSeat, type ScoreBreakdown } from './scoring.js';
import {
  GameState,
  HAND_SIZE,
  MAX_PLAYERS,
  MIN_PLAYERS,
  NO_CARD,
  POWER_FREE_BUILD,
  TOKENS_PER_SEAT,
  handBase,
  ownsNameIndex,
  productionChanged,
  resourceIndex,
  tokenBase,
} from './state.js';

export interface PositionPlayer {
  wonder: string;
  side?: 'A' | 'B';
  stages?: number;
  coins?: number;
  built?: string[];
  military?: number[];
  hand?: string[];
  /** Olympia A: whether the free build has been used in this Age already. */
  freeBuildUsed?: boolean;
}

export interface Position {
  age: 1 | 2 | 3;
  players: PositionPlayer[];
  /** Cards in the discard pile (optional). */
  discard?: string[];
}

/** A position that cannot be read; the message names the offending field. */
export class PositionError extends Error {
  override name = 'PositionError';
}

function fail(path: string, message: string): never {
  throw new PositionError(`${path}: ${message}`);
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function nameList(v: unknown, path: string): string[] {
  if (v === undefined) return [];
  if (!Array.isArray(v)) fail(path, 'expected a list of card names');
  return v.map((x, i) => (typeof x === 'string' ? x : fail(`${path}[${i}]`, 'expected a card name')));
}

function cardId(name: string, path: string, age?: number): number {
  const id = findCard(name, age);
  if (id === undefined) fail(path, `unknown card '${name}'`);
  return id;
}

function int(v: unknown, path: string, min: number, max: number, fallback: number): number {
  if (v === undefined) return fallback;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) {
    fail(path, `expected an integer from ${min} to ${max}, got ${JSON.stringify(v)}`);
  }
  return v;
}

/** Builds a game state from a position; throws PositionError naming the bad field. */
export function stateFromPosition(input: unknown): GameState {
  if (!isObject(input)) fail('position', 'expected an object with "age" and "players"');
  const age = int(input.age, 'age', 1, 3, NaN);
  if (!Array.isArray(input.players)) fail('players', 'expected a list of players');
  const n = input.players.length;
  if (n < MIN_PLAYERS || n > MAX_PLAYERS) fail('players', `expected ${MIN_PLAYERS} to ${MAX_PLAYERS} players, got ${n}`);
  const s = new GameState(n, new Rng(0));
  s.age = age;
  const usedBoards = new Set<number>();
  const handSizes: number[] = [];
  input.players.forEach((raw: unknown, p: number) => {
    const at = `players[${p}]`;
    if (!isObject(raw)) fail(at, 'expected an object');
    if (typeof raw.wonder !== 'string') fail(`${at}.wonder`, 'expected a wonder or city name');
    const board = findBoard(raw.wonder);
    if (board === undefined) fail(`${at}.wonder`, `unknown wonder '${raw.wonder}'`);
    if (usedBoards.has(board)) fail(`${at}.wonder`, `${BOARDS[board].city} is already used by another player`);
    usedBoards.add(board);
    const side = raw.side ?? 'A';
    if (side !== 'A' && side !== 'B') fail(`${at}.side`, `expected "A" or "B", got ${JSON.stringify(side)}`);
    s.board[p] = board;
    s.side[p] = side === 'A' ? 0 : 1;
    const res = BOARDS[board].resource;
    s.fixed[resourceIndex(p, res)]++;
    s.tradeFixed[resourceIndex(p, res)]++;
    s.coins[p] = int(raw.coins, `${at}.coins`, 0, 999, 3);
    const stageTypes = BOARDS[board].sides[s.side[p]];
    const stages = int(raw.stages, `${at}.stages`, 0, stageTypes.length, 0);
    // A position has no history: a stage's one-off effects (its coins, a build from the discard
    // pile) are taken to have happened already.
    for (let i = 0; i < stages; i++) buildStage(s, p, NO_CARD);
    s.pendingDiscardBuilds[p] = 0;
    if (raw.freeBuildUsed === true) s.freeBuildAge[p] = age;
    nameList(raw.built, `${at}.built`).forEach((name, i) => {
      const c = cardId(name, `${at}.built[${i}]`);
      if (s.ownsName[ownsNameIndex(p, CARDS[c].nameId)]) {
        fail(`${at}.built[${i}]`, `'${CARDS[c].name}' is built twice (a city never has two buildings of the same name)`);
      }
      placeCard(s, p, c);
    });
    if (raw.military !== undefined) {
      if (!Array.isArray(raw.military) || raw.military.length > TOKENS_PER_SEAT) {
        fail(`${at}.military`, `expected a list of at most ${TOKENS_PER_SEAT} conflict tokens`);
      }
      raw.military.forEach((t: unknown, i: number) => {
        if (![-1, 1, 3, 5].includes(t as number)) fail(`${at}.military[${i}]`, `expected -1, 1, 3 or 5, got ${JSON.stringify(t)}`);
        s.tokens[tokenBase(p) + i] = t as number;
      });
    }
    const hand = nameList(raw.hand, `${at}.hand`);
    if (hand.length > HAND_SIZE) fail(`${at}.hand`, `at most ${HAND_SIZE} cards, got ${hand.length}`);
    hand.forEach((name, i) => {
      s.hands[handBase(s, p) + i] = cardId(name, `${at}.hand[${i}]`, age);
    });
    s.handLen[p] = hand.length;
    handSizes.push(hand.length);
  });
  // The boards' resources were written directly: every seat's sources are renamed once, at the end.
  productionChanged(s);
  nameList(input.discard, 'discard').forEach((name, i) => s.discard[cardId(name, `discard[${i}]`)]++);
  const longest = Math.max(...handSizes);
  s.turn = Math.min(6, Math.max(1, HAND_SIZE + 1 - longest));
  return s;
}

export interface PlayOption {
  legal: boolean;
  /** Built free through a chain. */
  free?: boolean;
  payLeft?: number;
  payRight?: number;
}

export interface HandCardEvaluation {
  card: string;
  build: PlayOption;
  wonder: PlayOption;
  /** Olympia A only: whether its once-per-Age free build could place this card. */
  freeBuild?: { legal: boolean };
}

export interface PositionEvaluation {
  players: { score: ScoreBreakdown; hand: HandCardEvaluation[] }[];
}

export function evaluatePosition(input: unknown): PositionEvaluation {
  const s = stateFromPosition(input);
  const players: PositionEvaluation['players'] = [];
  for (let p = 0; p < s.n; p++) {
    // A hand holds one Age's cards, so a card's name picks out its moves.
    const moves = legalMoves(s, p, 'cheapest').map(decodeMove);
    const hand: HandCardEvaluation[] = [];
    for (let i = 0; i < s.handLen[p]; i++) {
      const c = s.hands[handBase(s, p) + i];
      const find = (action: ActionName) => moves.find((m) => m.card === CARDS[c].name && m.action === action);
      const build = find('build');
      const stage = find('stage');
      const entry: HandCardEvaluation = {
        card: CARDS[c].name,
        build: build ? { legal: true, free: hasChain(s, p, c), payLeft: build.payLeft, payRight: build.payRight } : { legal: false },
        wonder: stage ? { legal: true, payLeft: stage.payLeft, payRight: stage.payRight } : { legal: false },
      };
      if (s.powers[p] & POWER_FREE_BUILD) {
        const unused = s.freeBuildAge[p] !== s.age;
        entry.freeBuild = { legal: unused && !s.ownsName[ownsNameIndex(p, CARDS[c].nameId)] };
      }
      hand.push(entry);
    }
    players.push({ score: scoreSeat(s, p), hand });
  }
  return { players };
}
