/**
 * A game as the moves that made it: its config and every move's code in play order, with the
 * search statistics of the decisions that kept them. Everything else a GameRecord holds — the
 * steps' Ages and turns, cards and payments by name, the result, the cities — follows from
 * replaying it, so a game logs this while it is played (one push per move) and builds the
 * record only when someone reads it. Building the record during play cost a quarter of a
 * rule-based game, and storing it as JSON more than half again.
 */
import { actingSeats, decodeMove, isLegalMove } from './moves.js';
import { recordStep, startRecord, type GameRecord, type RecordedSearch } from './record.js';
import { newGame, type GameConfig } from './rules.js';
import type { GameState } from './state.js';

/** A decision's search statistics as a log keeps them: RecordedSearch with moves as codes. */
export interface LoggedSearch {
  /** Index in MoveLog.moves of the move this search chose. */
  at: number;
  iterations: number;
  ms: number;
  carried?: number;
  /** A network-guided search: the network's predicted final VP of every seat (seat order), 0.1 VP. */
  network?: number[];
  /** Minimax: the depth searched (iterations are then its nodes). */
  depth?: number;
  moves: { move: number; visits: number; value: number; votes?: number }[];
}

export interface MoveLog {
  config: GameConfig;
  /** Every move's code: step by step, each step's acting seats from the lowest. */
  moves: number[];
  /** The searches of the decisions that kept statistics, in move order. */
  searches: LoggedSearch[];
}

export function startLog(config: GameConfig): MoveLog {
  return { config: { ...config }, moves: [], searches: [] };
}

/**
 * Logs the moves of the seats acting in s (before they are applied), and the searches given for
 * them; a search's `at` is filled in here.
 */
export function logStep(log: MoveLog, s: GameState, moves: ArrayLike<number>, searches: readonly (Omit<LoggedSearch, 'at'> | undefined)[] = []): void {
  for (const seat of actingSeats(s)) {
    const search = searches[seat];
    if (search) log.searches.push({ at: log.moves.length, ...search });
    log.moves.push(moves[seat]);
  }
}

function recordedSearch(search: LoggedSearch): RecordedSearch {
  const { at: _at, moves, ...rest } = search;
  return { ...rest, moves: moves.map(({ move, ...m }) => ({ move: decodeMove(move), ...m })) };
}

export interface ReplayLogOptions {
  /**
   * The moves were checked as they were played (a log this process has just made): they are not
   * checked again, which makes the replay about three times faster. Never for a log read from
   * outside.
   */
  checked?: boolean;
}

/**
 * The full record of a logged game, by replaying it. Throws, naming the move, when a move is not
 * legal where the log puts it, or when the log ends before the game or goes on after it.
 */
export function recordFromLog(log: MoveLog, options: ReplayLogOptions = {}): GameRecord {
  const s = newGame(log.config);
  const record = startRecord(log.config, s);
  const bySearch = new Map(log.searches.map((x) => [x.at, x]));
  const moves = new Int32Array(s.n);
  const searches = new Array<RecordedSearch | undefined>(s.n);
  let at = 0;
  while (!s.isOver()) {
    for (const seat of actingSeats(s)) {
      if (at >= log.moves.length) throw new Error(`the log ends at move ${at}, before the game does (age ${s.age}, turn ${s.turn})`);
      const code = log.moves[at];
      if (!options.checked && !isLegalMove(s, seat, code)) throw new Error(`move ${at} (${code}) is not legal for seat ${seat} at age ${s.age} turn ${s.turn}`);
      const search = bySearch.get(at);
      searches[seat] = search && recordedSearch(search);
      moves[seat] = code;
      at++;
    }
    // Records the step, applies it, and finishes the record when the game ends.
    recordStep(record, s, moves, searches);
  }
  if (at !== log.moves.length) throw new Error(`the log has ${log.moves.length - at} moves after the game's end`);
  return record;
}
