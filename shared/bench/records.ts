/**
 * Record benchmark (part of `npm run bench`): the Redis bytes of one 3-player game's record with
 * the MCTS decisions' search statistics, stored as the store stores it (a packed move log), for
 * `mcts:100` against two `rulebased`; the record without the statistics beside it, for scale, and
 * the deflated JSON record the store kept before logs, for comparison.
 * Sizes, not times: the same on every machine. Then self-play kept for training (`training: true`:
 * every root move's visits, issue 45's rows, which must not slow a sweep by more than 10 %): each
 * game played twice, with the whole distributions and with the default statistics, alternating;
 * the same seeds give the same moves (the statistics draw nothing from the agents' generators),
 * so each pair's CPU ratio compares like with like.
 */
import { recordFromLog } from '../src/engine/index.js';
import { planTournament, playGame } from '../src/lab/index.js';
import { pack, packLog, packSummary } from '../src/lab/results/codec.js';
import { cpuSeconds, median } from './harness.js';
import { processorLine } from '../src/lab/results/provenance.js';

const GAMES = 20;
/** Self-play games for the training records' cost (each played twice). */
const TRAINING_GAMES = 12;
/** The bound on a 3-player record with search statistics. */
const TARGET_BYTES = 4096;

function main(): void {
  console.log(processorLine());
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
  trainingRecords();
}

function trainingRecords(): void {
  const seat = 'mcts-strong(it=100)';
  const plans = planTournament({ agents: [seat, seat, seat], setup: 'random', deals: TRAINING_GAMES, seed: 5, seating: 'fixed', sides: 'random', open: false });
  const ratios: number[] = [];
  const bytes: [number[], number[]] = [[], []];
  for (const [i, plan] of plans.slice(0, TRAINING_GAMES).entries()) {
    // Alternate which goes first, so that a machine warming up or slowing down favours neither.
    const order: ('training' | true)[] = i % 2 === 0 ? ['training', true] : [true, 'training'];
    const cpu = new Map<'training' | true, number>();
    for (const record of order) {
      let log: ReturnType<typeof playGame>['log'];
      cpu.set(record, cpuSeconds(() => {
        log = playGame(plan, { record }).log;
      }));
      if (!log) throw new Error('a game played with records has no log');
      bytes[record === 'training' ? 0 : 1].push(packLog(log).length);
    }
    ratios.push(cpu.get('training')! / cpu.get(true)!);
  }
  console.log(`training_record_cpu_ratio: ${median(ratios).toFixed(3)} cost-ratio (median over ${ratios.length} games of three ${seat}, CPU per game with every root move's visits over the default statistics; target < 1.10)`);
  console.log(`training_record_bytes_3p: ${Math.round(median(bytes[0]))} bytes (the same games' packed logs; ${Math.round(median(bytes[1]))} with the default statistics)`);
}

main();
