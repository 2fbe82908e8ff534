/**
 * Worker thread of runGames and GamePool: plays the plans it is sent and posts back their
 * summaries (with the full record in place of the move log when asked: `full`), with the CPU time
 * the game took on this thread (the lab sums it per sweep), and given the game's placement in its
 * sweep, the game made ready for the store (game-pool.ts, PackedGame).
 */
import { openSync, readSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';
import { packGame } from '../store/packing.js';
import type { GamePlacement } from './aggregates.js';
import { playGame, withRecord, type GamePlan } from './game.js';

if (!parentPort) throw new Error('play-worker must run in a worker thread');
const port = parentPort;

/**
 * This thread's CPU time in milliseconds, from Linux's /proc/thread-self/schedstat (nanoseconds on
 * the CPU); undefined where there is no such file. Read around each game: games run one at a time
 * on a thread, so the differences add up to the thread's time in games. The file is opened once, in
 * this thread (it names the thread that opens it), and read again from its start each time: a
 * third of the cost of opening it per read.
 */
const schedstat = (() => {
  try {
    return openSync('/proc/thread-self/schedstat', 'r');
  } catch {
    return undefined;
  }
})();
const schedstatBuf = Buffer.alloc(64);

function threadCpuMs(): number | undefined {
  if (schedstat === undefined) return undefined;
  try {
    const n = readSync(schedstat, schedstatBuf, 0, schedstatBuf.length, 0);
    return Number(schedstatBuf.toString('latin1', 0, n).split(' ')[0]) / 1e6;
  } catch {
    return undefined;
  }
}

port.on('message', (msg: { id?: number; plan: GamePlan; record: boolean; full?: boolean; placement?: GamePlacement }) => {
  try {
    const cpu = threadCpuMs();
    const wall = performance.now();
    const summary = playGame(msg.plan, { record: msg.record });
    const after = threadCpuMs();
    // Without the file, the game's wall time on this thread (an upper bound of its CPU time).
    const cpuMs = cpu !== undefined && after !== undefined ? after - cpu : performance.now() - wall;
    if (!msg.placement) return port.postMessage({ id: msg.id, ok: true, summary: msg.full ? withRecord(summary) : summary, cpuMs });
    // Only the game's key goes back with its packed form: the caller stores the packed bytes, and
    // a whole summary to clone and collect would cost the queue's thread more than the store.
    port.postMessage({ id: msg.id, ok: true, summary: { id: summary.id, index: summary.index }, cpuMs, packed: packGame(summary, msg.placement) });
  } catch (err) {
    port.postMessage({ id: msg.id, ok: false, index: msg.plan.index, error: (err as Error).stack ?? String(err) });
  }
});
