/**
 * Record benchmark (part of `npm run bench`): the Redis bytes of one 3-player game's record with
 * the MCTS decisions' search statistics, stored as the store stores it (a packed move log), for
 * `mcts:100` against two `rulebased`; the record without the statistics beside it, for scale, and
 * the deflated JSON record the store kept before logs, for comparison.
 * Sizes, not times: the same on every machine.
 */
import { recordFromLog } from '../src/engine/index.js';
import { planTournament, playGame } from '../src/lab/index.js';
import { pack, packLog, packSummary } from '../src/lab/results/codec.js';
import { median } from './harness.js';

const GAMES = 20;
/** The bound on a 3-player record with search statistics. */
const TARGET_BYTES = 4096;

function main(): void {
  console.log(`# wonderlab record benchmark — Node ${process.version}, ${GAMES} games of mcts:100 against two rulebased`);
  const plans = planTournament({ agents: ['mcts:100', 'rulebased', 'rulebased'], setup: 'random', deals: GAMES, seed: 3, seating: 'fixed', sides: 'random', open: false });
  const withStats: number[] = [];
  const without: number[] = [];
  const asJson: number[] = [];
  const summaries: number[] = [];
  for (const plan of plans.slice(0, GAMES)) {
    const { log, ...summary } = playGame(plan, { record: true });
    summaries.push(packSummary(summary).length);
    if (!log) throw new Error('a game played with { record: true } has no log');
    withStats.push(packLog(log).length);
    without.push(packLog({ ...log, searches: [] }).length);
    asJson.push(pack(recordFromLog(log)).length);
  }
  const max = Math.max(...withStats);
  console.log(`record_bytes_3p_mcts_search: ${Math.round(median(withStats))} bytes (median of ${withStats.length} games, a packed move log with MCTS search statistics; max ${max}; target max < ${TARGET_BYTES})`);
  console.log(`record_bytes_3p_without_search: ${Math.round(median(without))} bytes (the same records without them; max ${Math.max(...without)})`);
  console.log(`summary_bytes_3p: ${Math.round(median(summaries))} bytes (the same games' summaries as stored, without their records)`);
  console.log(`record_bytes_3p_json_deflated: ${Math.round(median(asJson))} bytes (the same records with statistics as deflated JSON, the form stored before move logs)`);
}

main();
