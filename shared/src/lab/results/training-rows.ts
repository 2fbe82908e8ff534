/**
 * Training rows from a sweep's stored games: one row per decision of the chosen seats, read by
 * replaying each game's move log — the observation the seat had (agents/encoding.ts, the same
 * bytes the Python environments and the `policy` agent see), its legal actions, the search's
 * visit distribution over them (a sweep with `training: true` keeps every root move), the move
 * played, and every seat's final VP and rank. Nothing of this is stored twice: the log is the
 * game, and the rows follow from it.
 *
 * Columns (docs/learning.md lists them with their numpy types), N rows, A = ACTION_COUNT actions,
 * P players; seat-indexed columns are in the observation's relative order (this seat first, then
 * its left neighbour, …):
 *   obs [N, observationSize(P)] u8 · mask [N, A] u8 · policy [N, A] f32 · action [N] i16 ·
 *   searched [N] u8 · visits [N] i32 · vp [N, P] i16 · rank [N, P] u8 · game [N] i32 ·
 *   seat [N] u8 · age [N] u8 · turn [N] u8
 */
import { ACTION_COUNT, actionIndex, observationSize, writeActionMask, writeObservation } from '../../agents/encoding.js';
import { actingSeats, gameResult, isLegalMove, newGame, step, type MoveLog } from '../../engine/index.js';

export interface TrainingColumn {
  name: string;
  dtype: 'u1' | 'i2' | 'i4' | 'f4';
  /** Values per row (1 for a plain column). */
  width: number;
  data: Uint8Array | Int16Array | Int32Array | Float32Array;
}

type Typed = Uint8Array | Int16Array | Int32Array | Float32Array;
type TypedCtor = new (n: number) => Typed;
const CTORS: Record<TrainingColumn['dtype'], TypedCtor> = { u1: Uint8Array, i2: Int16Array, i4: Int32Array, f4: Float32Array };

/** A column that grows by doubling; rows are written in place at `at * width`. */
class Growing {
  data: Typed;
  constructor(
    readonly name: string,
    readonly dtype: TrainingColumn['dtype'],
    readonly width: number,
  ) {
    this.data = new CTORS[dtype](width * 64);
  }

  /** Room for row `row`; returns the column's array (which may be a new one). */
  room(row: number): Typed {
    if ((row + 1) * this.width > this.data.length) {
      const grown = new CTORS[this.dtype](this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    return this.data;
  }
}

/** Which decisions become rows: by seat of each game (true: that seat's decisions). */
export type SeatChoice = (seat: number) => boolean;

/**
 * Collects the rows of games of one player count. Add games in any order; `columns()` gives the
 * rows so far, trimmed.
 */
export class TrainingRows {
  rows = 0;
  readonly players: number;
  private readonly obsSize: number;
  private readonly cols: Record<string, Growing>;
  private readonly moveOf = new Int32Array(ACTION_COUNT);
  private readonly maskBuf = new Uint8Array(ACTION_COUNT);

  constructor(players: number) {
    this.players = players;
    this.obsSize = observationSize(players);
    const cols: [string, TrainingColumn['dtype'], number][] = [
      ['obs', 'u1', this.obsSize],
      ['mask', 'u1', ACTION_COUNT],
      ['policy', 'f4', ACTION_COUNT],
      ['action', 'i2', 1],
      ['searched', 'u1', 1],
      ['visits', 'i4', 1],
      ['vp', 'i2', players],
      ['rank', 'u1', players],
      ['game', 'i4', 1],
      ['seat', 'u1', 1],
      ['age', 'u1', 1],
      ['turn', 'u1', 1],
    ];
    this.cols = Object.fromEntries(cols.map(([name, dtype, width]) => [name, new Growing(name, dtype, width)]));
  }

  /**
   * Adds the rows of one logged game (`game`: its index in the sweep). Throws, naming the move,
   * when a logged move is not legal where the log puts it; then no row of this game is kept.
   */
  addGame(log: MoveLog, game: number, chosen: SeatChoice): void {
    if (log.config.players !== this.players) throw new Error(`game ${game} has ${log.config.players} players; these rows are for ${this.players}`);
    const s = newGame(log.config);
    const searches = new Map(log.searches.map((x) => [x.at, x]));
    const n = this.players;
    const first = this.rows;
    const moves = new Int32Array(n);
    let at = 0;
    // A log that does not replay gives back the rows it added: a game is all rows or none.
    const refuse = (why: string): never => {
      this.rows = first;
      throw new Error(`game ${game}: ${why}`);
    };
    while (!s.isOver()) {
      for (const seat of actingSeats(s)) {
        if (at >= log.moves.length) refuse(`the log ends at move ${at}, before the game does`);
        const code = log.moves[at];
        if (!isLegalMove(s, seat, code)) refuse(`move ${at} (${code}) is not legal for seat ${seat} at age ${s.age} turn ${s.turn}`);
        if (chosen(seat)) this.addDecision(s, seat, code, searches.get(at), game);
        moves[seat] = code;
        at++;
      }
      step(s, moves);
    }
    if (at !== log.moves.length) refuse(`the log has ${log.moves.length - at} moves after the game's end`);
    // Outcomes, now known, for this game's rows: every seat's VP and rank, relative to the row's seat.
    const result = gameResult(s);
    const vp = this.cols.vp.data;
    const rank = this.cols.rank.data;
    const seats = this.cols.seat.data;
    for (let r = first; r < this.rows; r++) {
      for (let k = 0; k < n; k++) {
        const q = (seats[r] + k) % n;
        vp[r * n + k] = result.scores[q].total;
        rank[r * n + k] = result.ranks[q];
      }
    }
  }

  private addDecision(s: Parameters<typeof writeObservation>[0], seat: number, code: number, search: MoveLog['searches'][number] | undefined, game: number): void {
    const r = this.rows++;
    const c = this.cols;
    writeObservation(s, seat, c.obs.room(r) as Uint8Array, r * this.obsSize);
    writeActionMask(s, seat, this.maskBuf, 0, this.moveOf, 0);
    (c.mask.room(r) as Uint8Array).set(this.maskBuf, r * ACTION_COUNT);
    const policy = c.policy.room(r) as Float32Array;
    const base = r * ACTION_COUNT;
    // A row given back by a game that failed its replay may have left numbers here.
    policy.fill(0, base, base + ACTION_COUNT);
    const played = actionIndex(code);
    let total = 0;
    if (search) {
      // Moves that differ only in payment share an action: their visits add up.
      for (const m of search.moves) total += m.visits;
      if (total > 0) for (const m of search.moves) policy[base + actionIndex(m.move)] += m.visits / total;
    }
    if (total === 0) policy[base + played] = 1;
    c.action.room(r)[r] = played;
    c.searched.room(r)[r] = search && total > 0 ? 1 : 0;
    c.visits.room(r)[r] = total;
    c.vp.room(r);
    c.rank.room(r);
    c.game.room(r)[r] = game;
    c.seat.room(r)[r] = seat;
    c.age.room(r)[r] = s.age;
    c.turn.room(r)[r] = s.turn;
  }

  /** Forgets the rows added (their columns' memory is kept for the next ones). */
  clear(): void {
    this.rows = 0;
  }

  /** The columns, each trimmed to the rows added. */
  columns(): TrainingColumn[] {
    return Object.values(this.cols).map((g) => ({ name: g.name, dtype: g.dtype, width: g.width, data: g.data.subarray(0, this.rows * g.width) }));
  }
}
