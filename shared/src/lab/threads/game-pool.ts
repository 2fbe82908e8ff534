/**
 * A fixed set of game threads (worker_threads) that play games on request, so the calling thread's event loop
 * stays free (a queue worker must keep renewing its job locks while games run). A thread serves
 * one caller at a time: one game (play), or a series of games on a lane (lane), which queues the
 * next game on the thread before the current one ends so the thread never waits for the caller's
 * event loop between games.
 */
import { Worker } from 'node:worker_threads';
import type { GamePlacement } from '../results/increments.js';
import type { GamePlan, GameSummary, RecordKeeping } from '../game/game.js';
import type { GameSeries, PlayedGame, PlayedPart } from './game-messages.js';

type Reply =
  | ({ id: number; ok: true; part?: undefined } & PlayedGame)
  | { id: number; ok: true; part: PlayedPart; last: boolean }
  | { id: number; ok: false; index: number; error: string };

/** A series' game that threw: its index, after the parts of the games before it. */
export class GameFailedError extends Error {
  constructor(
    readonly index: number,
    message: string,
  ) {
    super(message);
  }
}

interface Pending {
  /** With the game played, or nothing for a series (its games went to `part`). */
  resolve: (s: PlayedGame | undefined) => void;
  reject: (e: Error) => void;
  /** A series': each part as it comes; the series settles with its last. */
  part?: (part: PlayedPart) => void;
}

interface Slot {
  thread: Worker;
  /** The games posted to the thread and not answered yet, by message id, in the order posted. */
  pending: Map<number, Pending>;
  /** Killed or dead: a fresh thread has taken its place in the pool. */
  gone: boolean;
}

/**
 * A thread held for a series of games (GamePool.lane). Games are played in the order queued; each
 * promise settles when its game is done. Aborting the lane's signal kills the thread and rejects
 * every game queued on it with GameAbortedError.
 */
export interface GameLane {
  play(plan: GamePlan, record: RecordKeeping, placement?: GamePlacement): Promise<PlayedGame>;
  /**
   * Plays a series of a sweep's games in order, handing each part to `onPart` as it comes;
   * settles after the last. A game that throws ends the series: its parts before it are handed
   * over, then it rejects with GameFailedError naming the game. Aborting rejects with
   * GameAbortedError: the games of the part under way are lost (played again elsewhere).
   */
  playSeries(series: GameSeries, onPart: (part: PlayedPart) => void): Promise<void>;
  /** Gives the thread back to the pool. Games still queued on it are played, their results dropped. */
  release(): void;
}

const POOL_CLOSED = 'the game pool is closed';

export class GameAbortedError extends Error {
  constructor(reason: unknown) {
    super(`game aborted: ${String(reason)}`);
  }
}

export class GamePool {
  private readonly slots: Slot[] = [];
  /** Threads with no game, and callers waiting for one. */
  private readonly idle: Slot[] = [];
  private readonly waiting: { resolve: (slot: Slot) => void; reject: (err: Error) => void }[] = [];
  private closed = false;
  /** Message ids: a reply is matched to its game by id, never by order. */
  private nextId = 0;

  constructor(readonly size: number) {
    if (!Number.isInteger(size) || size < 1) throw new Error(`a game pool needs at least one thread, got ${size}`);
    for (let i = 0; i < size; i++) this.release(this.spawn());
  }

  private spawn(): Slot {
    const slot: Slot = { thread: new Worker(new URL('./game-thread.js', import.meta.url)), pending: new Map(), gone: false };
    this.slots.push(slot);
    slot.thread.on('message', (reply: Reply) => {
      const waiting = slot.pending.get(reply.id);
      if (!waiting) return;
      if (reply.ok && reply.part) {
        waiting.part?.(reply.part);
        if (!reply.last) return;
      }
      slot.pending.delete(reply.id);
      if (!reply.ok) waiting.reject(waiting.part ? new GameFailedError(reply.index, reply.error) : new Error(reply.error));
      else if (reply.part) waiting.resolve(undefined);
      else waiting.resolve(reply.packed ? { summary: reply.summary, cpuMs: reply.cpuMs, packed: reply.packed } : { summary: reply.summary, cpuMs: reply.cpuMs });
    });
    const die = (err: Error) => this.replace(slot, err);
    slot.thread.on('error', die);
    slot.thread.on('exit', (code) => {
      if (!this.closed && this.slots.includes(slot)) die(new Error(`a game thread exited with code ${code}`));
    });
    return slot;
  }

  /**
   * Kills a thread (mid-game, or dead already), rejects the games queued on it with `err`, and puts
   * a fresh thread in its place.
   */
  private replace(slot: Slot, err: Error): void {
    if (slot.gone) return;
    slot.gone = true;
    const waiting = [...slot.pending.values()];
    slot.pending.clear();
    // A thread that died while idle must not be handed out again.
    const j = this.idle.indexOf(slot);
    if (j >= 0) this.idle.splice(j, 1);
    const i = this.slots.indexOf(slot);
    if (i >= 0 && !this.closed) {
      this.slots.splice(i, 1);
      void slot.thread.terminate();
      this.release(this.spawn());
    }
    for (const w of waiting) w.reject(err);
  }

  private release(slot: Slot): void {
    const next = this.waiting.shift();
    if (next) next.resolve(slot);
    else this.idle.push(slot);
  }

  private acquire(): Promise<Slot> {
    const slot = this.idle.pop();
    return slot ? Promise.resolve(slot) : new Promise((resolve, reject) => this.waiting.push({ resolve, reject }));
  }

  /** Plays one game on a free thread. Aborting kills that thread (a fresh one replaces it). */
  async play(plan: GamePlan, record: RecordKeeping, signal?: AbortSignal): Promise<GameSummary> {
    const played = await this.playMeasured(plan, record, signal);
    // Without a placement the thread sends the whole summary back, never a packed game.
    if (played.packed) throw new Error('a game played without a placement came back packed');
    return played.summary;
  }

  /** The same, with the CPU time the game took (and, given its placement in its sweep, the game made ready for the store). */
  async playMeasured(plan: GamePlan, record: RecordKeeping, signal?: AbortSignal, placement?: GamePlacement): Promise<PlayedGame> {
    const lane = await this.lane(signal);
    try {
      return await lane.play(plan, record, placement);
    } finally {
      lane.release();
    }
  }

  /**
   * Holds a free thread for a series of games until release(). Aborting `signal` kills the thread
   * (a fresh one replaces it) and rejects the lane's games with GameAbortedError.
   */
  async lane(signal?: AbortSignal): Promise<GameLane> {
    if (this.closed) throw new GameAbortedError(POOL_CLOSED);
    if (signal?.aborted) throw new GameAbortedError(signal.reason);
    const slot = await this.acquire();
    if (signal?.aborted) {
      this.release(slot);
      throw new GameAbortedError(signal.reason);
    }
    const onAbort = () => this.replace(slot, new GameAbortedError(signal?.reason));
    signal?.addEventListener('abort', onAbort, { once: true });
    let released = false;
    /** Posts a request on the lane's thread; settles with its (last) reply. */
    const post = <T>(message: object, part?: (part: PlayedPart) => void): Promise<T> => {
      if (released) return Promise.reject(new Error('the lane was released'));
      if (slot.gone) return Promise.reject(signal?.aborted ? new GameAbortedError(signal.reason) : new Error('the game thread of this lane has died'));
      const id = this.nextId++;
      const settled = new Promise<T>((resolve, reject) => {
        slot.pending.set(id, { resolve: resolve as Pending['resolve'], reject, part });
        slot.thread.postMessage({ id, ...message });
      });
      // A game queued ahead and dropped at release rejects with no one awaiting it: not an
      // unhandled rejection. Callers that await it still see the error.
      settled.catch(() => {});
      return settled;
    };
    return {
      play: (plan, record, placement) => post<PlayedGame>({ plan, record, placement }),
      playSeries: (series, onPart) => post<void>({ series }, onPart),
      release: () => {
        if (released) return;
        released = true;
        signal?.removeEventListener('abort', onAbort);
        // Games still queued on it are dropped: their replies find no one waiting.
        for (const w of slot.pending.values()) w.reject(new Error('the lane was released'));
        slot.pending.clear();
        if (!slot.gone) this.release(slot);
      },
    };
  }

  /**
   * Stops every thread; games still running or waiting for a thread reject with GameAbortedError:
   * a game cut off by a closing pool has not failed, and a queue worker hands its job back.
   */
  async close(): Promise<void> {
    this.closed = true;
    const closed = new GameAbortedError(POOL_CLOSED);
    for (const w of this.waiting.splice(0)) w.reject(closed);
    for (const slot of this.slots) {
      const waiting = [...slot.pending.values()];
      slot.pending.clear();
      for (const w of waiting) w.reject(closed);
    }
    await Promise.all(this.slots.map((s) => s.thread.terminate()));
  }
}
