/** Worker thread of runGames: plays the plans it is sent and posts back their summaries. */
import { parentPort } from 'node:worker_threads';
import { playGame, type GamePlan } from './game.js';

if (!parentPort) throw new Error('play-worker must run in a worker thread');
const port = parentPort;
port.on('message', (msg: { plan: GamePlan; record: boolean }) => {
  try {
    port.postMessage({ ok: true, summary: playGame(msg.plan, { record: msg.record }) });
  } catch (err) {
    port.postMessage({ ok: false, index: msg.plan.index, error: (err as Error).stack ?? String(err) });
  }
});
