/**
 * Worker thread of runGames and GamePool: plays the plans it is sent and posts back their
 * summaries, with the CPU time the game took on this thread (the lab sums it per sweep), and given
 * the game's placement in its sweep, the game made ready for the store (game-pool.ts, PackedGame).
 */
import { readFileSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';
import { pack } from '../store/packing.js';
import { gameIncrements, pairedShare, type GamePlacement } from './aggregates.js';
import { playGame, type GamePlan } from './game.js';

if (!parentPort) throw new Error('play-worker must run in a worker thread');
const port = parentPort;

/**
 * This thread's CPU time in milliseconds, from Linux's /proc/thread-self/schedstat (nanoseconds on
 * the CPU); undefined where there is no such file. Read around each game: games run one at a time
 * on a thread, so the differences add up to the thread's time in games.
 */
function threadCpuMs(): number | undefined {
  try {
    return Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]) / 1e6;
  } catch {
    return undefined;
  }
}

port.on('message', (msg: { plan: GamePlan; record: boolean; placement?: GamePlacement }) => {
  try {
    const cpu = threadCpuMs();
    const wall = performance.now();
    const summary = playGame(msg.plan, { record: msg.record });
    const after = threadCpuMs();
    // Without the file, the game's wall time on this thread (an upper bound of its CPU time).
    const cpuMs = cpu !== undefined && after !== undefined ? after - cpu : performance.now() - wall;
    if (!msg.placement) return port.postMessage({ ok: true, summary, cpuMs });
    const { record, ...rest } = summary;
    const share = pairedShare(summary, msg.placement);
    const packed = { summary: pack(rest), ...(record ? { record: pack(record) } : {}), increments: gameIncrements(summary, msg.placement), ...(share ? { share } : {}) };
    port.postMessage({ ok: true, summary: rest, cpuMs, packed });
  } catch (err) {
    port.postMessage({ ok: false, index: msg.plan.index, error: (err as Error).stack ?? String(err) });
  }
});
