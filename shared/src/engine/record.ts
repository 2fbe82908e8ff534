/**
 * Game records: everything needed to study one game and to replay it exactly — the config it was
 * started from, seats, boards and sides, every step's moves with payments, the final breakdown,
 * each city's cards, stages and coins, and the winners with how ties were decided.
 */
import { BOARDS, CARDS } from './catalog.js';
import { actingSeats, decodeMove, legalMoves, type DecodedMove } from './moves.js';
import { newGame, step, type GameConfig } from './rules.js';
import { gameResult, scoreAll, type GameResult, type ScoreBreakdown } from './scoring.js';
import { cityView, handView, tokenBase, type GameState } from './state.js';
import { handCandidates } from './information.js';

export const RECORD_VERSION = 1;
export const PHASE_NAMES = ['turn', 'seventh', 'discardBuild', 'over'] as const;

export interface RecordedMove extends DecodedMove {
  seat: number;
  /**
   * An MCTS decision's root statistics, beside the move they explain. Optional: other agents,
   * forced moves and records written before it have none; replay() does not read it.
   */
  search?: RecordedSearch;
}

/** What a search found at its root, as a record keeps it. */
export interface RecordedSearch {
  iterations: number;
  /** Wall time of the decision, milliseconds (0.1 ms). */
  ms: number;
  /** reuse=on: visits the kept subtree brought in (the moves' visits add up to at most iterations + carried). */
  carried?: number;
  /** Minimax: the depth (plies) searched; iterations are then the nodes searched. */
  depth?: number;
  /** A network-guided search: the network's predicted final VP of every seat (seat order), 0.1 VP. */
  network?: number[];
  /** The most visited root moves (at most 8), most visited first; the move played is among them. */
  moves: RecordedRootMove[];
}

export interface RecordedRootMove {
  /** Written as recorded moves are (card, age, action, payments), without the seat. */
  move: DecodedMove;
  visits: number;
  /**
   * MCTS: mean reward of the deciding seat over those visits, in [0, 1]; minimax: its mean value
   * over the worlds (visits), the estimated VP margin over the best other seat (3 decimals).
   */
  value: number;
  /** det=pimc: how many of its trees chose this move. */
  votes?: number;
}

export interface RecordedStep {
  age: number;
  turn: number;
  phase: (typeof PHASE_NAMES)[number];
  moves: RecordedMove[];
}

export interface RecordedCity {
  seat: number;
  wonder: string;
  side: 'A' | 'B';
  stages: number;
  built: string[];
  coins: number;
}

export interface GameRecord {
  version: number;
  config: GameConfig;
  seats: { seat: number; wonder: string; side: 'A' | 'B' }[];
  steps: RecordedStep[];
  result?: GameResult;
  cities?: RecordedCity[];
}

export function startRecord(config: GameConfig, s: GameState): GameRecord {
  return {
    version: RECORD_VERSION,
    config: { ...config },
    seats: [...Array(s.n).keys()].map((p) => ({
      seat: p,
      wonder: BOARDS[s.board[p]].city,
      side: s.side[p] === 0 ? 'A' : 'B',
    })),
    steps: [],
  };
}

/** Records the moves of the seats acting now (with their searches', when given), then applies them. */
export function recordStep(record: GameRecord, s: GameState, moves: ArrayLike<number>, searches: readonly (RecordedSearch | undefined)[] = []): void {
  record.steps.push({
    age: s.age,
    turn: s.turn,
    phase: PHASE_NAMES[s.phase],
    moves: actingSeats(s).map((seat) => {
      const search = searches[seat];
      return { seat, ...decodeMove(moves[seat]), ...(search ? { search } : {}) };
    }),
  });
  step(s, moves);
  if (s.isOver()) finishRecord(record, s);
}

export function citiesOf(s: GameState): RecordedCity[] {
  return [...Array(s.n).keys()].map((p) => ({
    seat: p,
    wonder: BOARDS[s.board[p]].city,
    side: s.side[p] === 0 ? 'A' : 'B',
    stages: s.stages[p],
    built: Array.from(cityView(s, p), (c) => CARDS[c].name),
    coins: s.coins[p],
  }));
}

export function finishRecord(record: GameRecord, s: GameState): void {
  record.result = gameResult(s);
  record.cities = citiesOf(s);
}

export interface ReplayOutcome {
  matches: boolean;
  /** What differs, one line each; empty when the replay matches. */
  differences: string[];
  state: GameState;
}

/**
 * Re-applies a record from its config and compares every step and the end: legality of each
 * move, the seats acting, the final cities, coins and scores.
 */
export function replay(record: GameRecord): ReplayOutcome {
  const differences: string[] = [];
  const s = newGame(record.config);
  const seats = startRecord(record.config, s).seats;
  seats.forEach((seat, p) => {
    const want = record.seats[p];
    if (!want || want.wonder !== seat.wonder || want.side !== seat.side) {
      differences.push(`seat ${p}: setup gives ${seat.wonder} ${seat.side}, record says ${want?.wonder} ${want?.side}`);
    }
  });
  const moves = new Int32Array(s.n);
  for (const [i, rec] of record.steps.entries()) {
    if (s.isOver()) {
      differences.push(`step ${i}: the game is already over`);
      break;
    }
    const where = `step ${i} (age ${s.age} turn ${s.turn} ${PHASE_NAMES[s.phase]})`;
    if (rec.age !== s.age || rec.turn !== s.turn || rec.phase !== PHASE_NAMES[s.phase]) {
      differences.push(`${where}: record says age ${rec.age} turn ${rec.turn} ${rec.phase}`);
    }
    const acting = actingSeats(s);
    const recordedSeats = rec.moves.map((m) => m.seat).sort((a, b) => a - b);
    if (recordedSeats.join() !== acting.join()) {
      differences.push(`${where}: seats ${acting.join(',')} act, record has ${recordedSeats.join(',')}`);
      break;
    }
    let legal = true;
    for (const m of rec.moves) {
      const encoded = encodeForState(m, s);
      if (encoded === undefined) {
        differences.push(`${where}: seat ${m.seat} move ${JSON.stringify(m)} is not legal`);
        legal = false;
      } else {
        moves[m.seat] = encoded;
      }
    }
    if (!legal) break;
    step(s, moves);
  }
  if (!s.isOver()) differences.push(`the record ends before the game does (age ${s.age}, turn ${s.turn})`);
  if (s.isOver() && record.result) {
    const got = gameResult(s);
    if (JSON.stringify(got) !== JSON.stringify(record.result)) {
      differences.push(`result: replay gives ${JSON.stringify(got)}, record says ${JSON.stringify(record.result)}`);
    }
    const cities = citiesOf(s);
    if (record.cities && JSON.stringify(cities) !== JSON.stringify(record.cities)) {
      differences.push(`cities: replay gives ${JSON.stringify(cities)}, record says ${JSON.stringify(record.cities)}`);
    }
  }
  return { matches: differences.length === 0, differences, state: s };
}

/** The legal move matching a recorded one (any Age's card of that name), or undefined. */
function encodeForState(m: RecordedMove, s: GameState): number | undefined {
  const legal = legalMoves(s, m.seat, 'all');
  for (const candidate of legal) {
    const d = decodeMove(candidate);
    if (
      d.card.toLowerCase() === String(m.card).toLowerCase() &&
      // Records without an Age (written by hand) match a card of that name from any Age.
      (m.age === undefined || d.age === m.age) &&
      d.action === m.action &&
      d.payLeft === m.payLeft &&
      d.payRight === m.payRight
    ) {
      return candidate;
    }
  }
  // A cheapest-mode payment is always among the undominated ones, so this covers both modes.
  return undefined;
}

/** One seat just before a step: what it holds and has. */
export interface SeatSnapshot {
  seat: number;
  /** The hand it chooses from (card names). */
  hand: string[];
  coins: number;
  shields: number;
  /** Military points from conflict tokens so far. */
  militaryPoints: number;
  stages: number;
  /** Cards in its city. */
  cityCards: number;
  /** In a seat's point of view (timeline's viewer), another seat's hand: `hand` is then empty. */
  hidden?: HiddenHand;
}

/** Another seat's hand as a viewer knows it: its size, and the cards it may hold if the viewer has seen that hand (observe's handCandidates). */
export interface HiddenHand {
  size: number;
  candidates: string[] | null;
}

export interface TimelineStep extends RecordedStep {
  /** Every seat just before the step's moves. */
  before: SeatSnapshot[];
  /**
   * Every seat's running score by category just AFTER the step's moves (conflicts at the end of
   * an Age included): what its city would score if the game ended there, so that a viewer sees
   * what each move earned, and the last step's scores are the game's final result. Military can
   * be negative (defeat tokens), and so, in principle, can the total; the other categories cannot.
   */
  scores: ScoreBreakdown[];
}

/**
 * A record replayed step by step, with each seat's hand, coins and military before every step
 * and its running score after it: what a replay viewer shows. Throws if the record does not
 * replay. Search statistics on the moves (RecordedMove.search) are passed through as recorded.
 *
 * With `viewer`, only what that seat knew at each step: the other seats' hands become their sizes
 * and the cards the viewer knows they may hold (`hidden`, their `hand` empty), their stage and
 * discard cards are left out of the moves (face down), and only the viewer's searches are kept.
 */
export function timeline(record: GameRecord, viewer?: number): TimelineStep[] {
  const s = newGame(record.config);
  const moves = new Int32Array(s.n);
  const out: TimelineStep[] = [];
  for (const [i, rec] of record.steps.entries()) {
    const before = [...Array(s.n).keys()].map((p) => {
      let militaryPoints = 0;
      for (let t = tokenBase(p), end = tokenBase(p + 1); t < end; t++) militaryPoints += s.tokens[t];
      return {
        seat: p,
        hand: Array.from(handView(s, p), (c) => CARDS[c].name),
        coins: s.coins[p],
        shields: s.shields[p],
        militaryPoints,
        stages: s.stages[p],
        cityCards: s.cityLen[p],
      };
    });
    const hidden = viewer === undefined ? undefined : before.map((b) => (b.seat === viewer ? undefined : hiddenHand(s, viewer, b.seat)));
    for (const m of rec.moves) {
      const encoded = encodeForState(m, s);
      if (encoded === undefined) throw new Error(`step ${i}: seat ${m.seat}'s recorded move is not legal`);
      moves[m.seat] = encoded;
    }
    step(s, moves);
    if (viewer === undefined) out.push({ ...rec, before, scores: scoreAll(s) });
    else out.push({ ...rec, moves: rec.moves.map((m) => seenMove(m, viewer)), before: before.map((b, q) => (hidden![q] ? { ...b, hand: [], hidden: hidden![q] } : b)), scores: scoreAll(s) });
  }
  return out;
}

function hiddenHand(s: GameState, viewer: number, q: number): HiddenHand {
  const candidates = handCandidates(s, viewer, q);
  return { size: s.handLen[q], candidates: candidates && candidates.map((c) => CARDS[c].name).sort() };
}

/** A move as `viewer` saw it: another seat's stage or discard without its card, and no one else's search. */
function seenMove(m: RecordedMove, viewer: number): RecordedMove {
  if (m.seat === viewer) return m;
  const { search: _, ...rest } = m;
  return rest.action === 'stage' || rest.action === 'discard' ? { ...rest, card: '' } : rest;
}
