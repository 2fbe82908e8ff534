/**
 * Plays game plans on this machine: in this thread, or on game threads (each playing one game at
 * a time, with the next one queued behind it). Results are delivered in plan order whatever order
 * the threads finish in, so output files are identical for any thread count.
 */
import { Worker } from 'node:worker_threads';
import { playGame, withRecord, type GamePlan, type GameSummary, type SummaryWithRecord } from '../game/game.js';

export interface RunOptions {
  /** Game threads; 0 or 1 plays in the calling thread. */
  threads: number;
  /**
   * Keep each game's moves: 'log' as the summary's move log, 'full' as the full record built from
   * it (withRecord), on the game's own thread.
   */
  record?: 'log' | 'full';
  /** Called once per game, in plan order. */
  onResult: (summary: GameSummary | SummaryWithRecord) => void;
}

export async function runGames(plans: readonly GamePlan[], options: RunOptions): Promise<void> {
  if (options.threads <= 1) {
    for (const plan of plans) {
      const summary = playGame(plan, { record: options.record !== undefined });
      options.onResult(options.record === 'full' ? withRecord(summary) : summary);
      // Let timers (the progress line) and signals run between games.
      await new Promise((resolve) => setImmediate(resolve));
    }
    return;
  }
  const pending = new Map<number, GameSummary | SummaryWithRecord>();
  const position = new Map(plans.map((plan, i) => [plan.index, i]));
  let nextToDeliver = 0;
  let nextToSend = 0;
  const threads: Worker[] = [];
  try {
    await new Promise<void>((resolve, reject) => {
      let failed = false;
      const fail = (err: Error) => {
        if (!failed) {
          failed = true;
          reject(err);
        }
      };
      const send = (w: Worker) => {
        if (nextToSend < plans.length) w.postMessage({ plan: plans[nextToSend++], record: options.record !== undefined, full: options.record === 'full' });
      };
      const count = Math.min(options.threads, plans.length);
      if (count === 0) resolve();
      for (let i = 0; i < count; i++) {
        const w = new Worker(new URL('./game-thread.js', import.meta.url));
        threads.push(w);
        w.on('error', fail);
        w.on('exit', (code) => {
          if (code !== 0) fail(new Error(`a game thread exited with code ${code}`));
        });
        w.on('message', (msg: { ok: true; summary: GameSummary } | { ok: false; index: number; error: string }) => {
          if (!msg.ok) return fail(new Error(`game ${plans[position.get(msg.index)!].id} failed: ${msg.error}`));
          pending.set(position.get(msg.summary.index)!, msg.summary);
          while (pending.has(nextToDeliver)) {
            const summary = pending.get(nextToDeliver)!;
            pending.delete(nextToDeliver++);
            try {
              options.onResult(summary);
            } catch (err) {
              return fail(err as Error);
            }
          }
          if (nextToDeliver === plans.length) resolve();
          else send(w);
        });
        // Two games queued per thread: the next one is waiting on the thread when a game ends,
        // instead of after a round trip through this thread's event loop.
        send(w);
        send(w);
      }
    });
  } finally {
    await Promise.all(threads.map((w) => w.terminate()));
  }
}
