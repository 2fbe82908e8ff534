/**
 * What crosses between the game pool and its game threads: a series of a sweep's games to play,
 * and the games played (packed for the store, with their increments summed on the thread).
 */
import type { PackedGame } from '../results/codec.js';
import type { PairedShare, SummedIncrements } from '../results/increments.js';
import type { GameSummary, RecordKeeping } from '../game/game.js';
import type { ScheduleKind } from '../plan/schedule.js';

/**
 * What names a game in its sweep, and the seats an outside agent forfeited (the worker counts them
 * against the agent): all that a packed game's summary keeps beside its bytes (PlayedGame).
 */
export type GameKey = Pick<GameSummary, 'id' | 'index' | 'forfeits'>;

/**
 * A game played, with the CPU milliseconds its thread spent on it. Given the game's placement, the
 * thread also makes it ready for the store (PackedGame), and only the game's key comes back with
 * it: the summary and record travel packed. Packing and counting on the game threads keeps that
 * work off the one thread that talks to the queue.
 */
export type PlayedGame = { summary: GameSummary; cpuMs: number; packed?: undefined } | { summary: GameKey; cpuMs: number; packed: PackedGame };

/**
 * Games of one sweep for a thread to play in a row (GameLane.playSeries), named by their indices:
 * the thread expands the sweep itself (once per sweep), so no plan is built or copied on the
 * caller's thread.
 */
export interface GameSeries {
  /**
   * The sweep: its id (the thread's cache key), its spec as stored (JSON), its schedule, and the
   * sha256 its models had at submit (SweepOptions.models: a game whose network differs fails).
   */
  sweep: { id: string; spec: string; schedule: ScheduleKind; models?: Readonly<Record<string, string>> };
  indices: readonly number[];
  /** What each game keeps of its moves (the sweep's keepRecords and training: recordKeeping). */
  record: RecordKeeping;
  /** A part is sent once its games have taken this long (ms): what an abort can lose at most. */
  partMs: number;
}

/** A game of a PlayedPart: its key and CPU time, its summary and record packed, its paired share. */
export interface PartGame {
  key: GameKey;
  cpuMs: number;
  summary: Uint8Array;
  record?: Uint8Array;
  share?: PairedShare;
}

/**
 * Games a thread played in a row and packed for the store, with their aggregate increments summed
 * there: one message for many cheap games, and no increments to sum on the caller's thread.
 */
export interface PlayedPart {
  games: PartGame[];
  increments: SummedIncrements;
}
