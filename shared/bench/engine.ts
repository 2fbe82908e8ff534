/**
 * Engine benchmark (`npm run bench`): each workload on one core, printed as `name: value unit`,
 * with its ratio to the calibration loop (`name_per_calibration`), the two measured in alternating
 * slices (harness.ts measurePerCalibration) so that ratios compare across machines and runs.
 *
 * BENCH_PAIRS (default 10) sets the pairs of slices per figure; the calibration line first is
 * BENCH_ROUNDS (default 5) rounds of BENCH_SECONDS (default 1).
 */
import {
  Rng,
  actingSeats,
  clone,
  determinize,
  legalMoves,
  newGame,
  playRandom,
  step,
  type GameState,
} from '../src/engine/index.js';
import { CALIBRATION_PAIRS, calibrationUnit, measure, measurePerCalibration } from './harness.js';
import { processorLine } from '../src/lab/results/provenance.js';

/** Mid-game states (a mix of Ages and turns) for the per-call benchmarks. */
function sampleStates(players: number, count: number): GameState[] {
  const rng = new Rng(99);
  const states: GameState[] = [];
  const buf: number[] = [];
  const moves = new Int32Array(players);
  for (let g = 0; states.length < count; g++) {
    const s = newGame({ players, seed: `bench-${g}` });
    const stopAt = 1 + rng.int(17);
    for (let k = 0; k < stopAt && !s.isOver(); k++) {
      for (const p of actingSeats(s)) {
        legalMoves(s, p, 'cheapest', buf);
        moves[p] = buf[rng.int(buf.length)];
      }
      step(s, moves);
    }
    if (!s.isOver() && actingSeats(s).length === players) states.push(s);
  }
  return states;
}

function main(): void {
  console.log(processorLine());
  console.log(`# wonderlab engine benchmark — Node ${process.version}, one core; each figure in ${CALIBRATION_PAIRS} pairs of 250 ms slices beside the calibration loop`);
  measure('calibration', 'units/s', calibrationUnit, 1);

  // Random games as playRandom plays them (each move drawn pricing only the cards it looks at),
  // then drawing every move from the full listing: the second is legal-move generation's figure.
  const moveRng = new Rng(7);
  for (const draw of ['lazily', 'listing'] as const) {
    for (const players of [3, 7]) {
      let seed = 0;
      const name = `random_games_${players}p${draw === 'listing' ? '_listed' : ''}`;
      measurePerCalibration(name, 'games/s', () => {
        playRandom(newGame({ players, seed: seed++ }), moveRng, draw);
        return 1;
      });
    }
  }

  const states = sampleStates(3, 200);
  const buf: number[] = [];
  let i = 0;
  measurePerCalibration('legal_moves_cheapest_3p', 'generations/s', () => {
    legalMoves(states[i++ % states.length], 0, 'cheapest', buf);
    return 1;
  });
  measurePerCalibration('legal_moves_all_3p', 'generations/s', () => {
    legalMoves(states[i++ % states.length], 0, 'all', buf);
    return 1;
  });

  const detRng = new Rng(11);
  measurePerCalibration('clone_3p', 'clones/s', () => {
    clone(states[i++ % states.length]);
    return 1;
  });
  measurePerCalibration('clone_determinize_3p', 'determinizations/s', () => {
    determinize(states[i++ % states.length], 0, detRng);
    return 1;
  });
}

main();
