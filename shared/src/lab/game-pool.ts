/**
 * A fixed set of worker threads that play games on request, one game per thread at a time, so
 * the calling thread's event loop stays free (a queue worker must keep renewing its job locks
 * while games run).
 */
import { Worker } from 'node:worker_threads';
import type { GamePlacement, PairedShare } from './aggregates.js';
import type { GamePlan, GameSummary } from './game.js';

type Reply = { ok: true; summary: GameSummary; cpuMs: number; packed?: PackedGame } | { ok: false; index: number; error: string };

/**
 * A game made ready for the store on its thread: the summary (without its record) and the record
 * deflated as the store keeps them, and the aggregate increments and paired-group share it adds.
 */
export interface PackedGame {
  summary: Uint8Array;
  record?: Uint8Array;
  increments: Map<string, number>;
  share?: PairedShare;
}

/**
 * A game played, with the CPU milliseconds its thread spent on it. Given the game's placement, the
 * thread also makes it ready for the store (PackedGame): the summary then comes without its record,
 * which travels only packed. Deflating and counting on the game threads keeps that work off the
 * one thread that talks to the queue.
 */
export interface PlayedGame {
  summary: GameSummary;
  cpuMs: number;
  packed?: PackedGame;
}

interface Slot {
  thread: Worker;
  busy?: { resolve: (s: PlayedGame) => void; reject: (e: Error) => void };
}

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

  constructor(readonly size: number) {
    if (!Number.isInteger(size) || size < 1) throw new Error(`a game pool needs at least one thread, got ${size}`);
    for (let i = 0; i < size; i++) this.release(this.spawn());
  }

  private spawn(): Slot {
    const slot: Slot = { thread: new Worker(new URL('./play-worker.js', import.meta.url)) };
    this.slots.push(slot);
    slot.thread.on('message', (reply: Reply) => {
      const busy = slot.busy;
      slot.busy = undefined;
      this.release(slot);
      if (!busy) return;
      if (reply.ok) busy.resolve({ summary: reply.summary, cpuMs: reply.cpuMs, ...(reply.packed ? { packed: reply.packed } : {}) });
      else busy.reject(new Error(reply.error));
    });
    const die = (err: Error) => {
      const busy = slot.busy;
      slot.busy = undefined;
      this.replace(slot);
      busy?.reject(err);
    };
    slot.thread.on('error', die);
    slot.thread.on('exit', (code) => {
      if (!this.closed && this.slots.includes(slot)) die(new Error(`a game thread exited with code ${code}`));
    });
    return slot;
  }

  /** Kills a thread (mid-game, or dead already) and puts a fresh one in its place. */
  private replace(slot: Slot): void {
    const i = this.slots.indexOf(slot);
    if (i < 0 || this.closed) return;
    this.slots.splice(i, 1);
    void slot.thread.terminate();
    this.release(this.spawn());
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
  async play(plan: GamePlan, record: boolean, signal?: AbortSignal): Promise<GameSummary> {
    return (await this.playMeasured(plan, record, signal)).summary;
  }

  /** The same, with the CPU time the game took (and, given its placement in its sweep, the game made ready for the store). */
  async playMeasured(plan: GamePlan, record: boolean, signal?: AbortSignal, placement?: GamePlacement): Promise<PlayedGame> {
    if (this.closed) throw new Error('the game pool is closed');
    if (signal?.aborted) throw new GameAbortedError(signal.reason);
    const slot = await this.acquire();
    if (signal?.aborted) {
      this.release(slot);
      throw new GameAbortedError(signal.reason);
    }
    return new Promise<PlayedGame>((resolve, reject) => {
      const onAbort = () => {
        const busy = slot.busy;
        slot.busy = undefined;
        this.replace(slot);
        busy?.reject(new GameAbortedError(signal?.reason));
      };
      const done = () => signal?.removeEventListener('abort', onAbort);
      slot.busy = {
        resolve: (s) => (done(), resolve(s)),
        reject: (e) => (done(), reject(e)),
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      slot.thread.postMessage({ plan, record, placement });
    });
  }

  /** Stops every thread; games still running or waiting for a thread reject. */
  async close(): Promise<void> {
    this.closed = true;
    const closed = new Error('the game pool is closed');
    for (const w of this.waiting.splice(0)) w.reject(closed);
    for (const slot of this.slots) {
      const busy = slot.busy;
      slot.busy = undefined;
      busy?.reject(closed);
    }
    await Promise.all(this.slots.map((s) => s.thread.terminate()));
  }
}
