/**
 * Engine benchmark (`npm run bench`): each figure is the median of several timed rounds on one
 * core, printed as `name: value unit`, next to a calibration figure measured in the same run so
 * that ratios compare across machines.
 *
 * BENCH_SECONDS (default 1) sets the length of one round; BENCH_ROUNDS (default 5) their number.
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
import { ROUNDS, ROUND_SECONDS, calibrationUnit, measure } from './harness.js';
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
  console.log(`# wonderlab engine benchmark — Node ${process.version}, ${ROUNDS} rounds of ${ROUND_SECONDS}s, one core`);
  const calibration = measure('calibration', 'units/s', calibrationUnit, 1);
  const ratio = (name: string, value: number) => console.log(`${name}_per_calibration: ${(value / calibration).toFixed(3)} ratio`);

  // Random games as playRandom plays them (each move drawn pricing only the cards it looks at),
  // then drawing every move from the full listing: the second is legal-move generation's figure.
  const moveRng = new Rng(7);
  for (const draw of ['lazily', 'listing'] as const) {
    for (const players of [3, 7]) {
      let seed = 0;
      const name = `random_games_${players}p${draw === 'listing' ? '_listed' : ''}`;
      const games = measure(name, 'games/s', () => {
        playRandom(newGame({ players, seed: seed++ }), moveRng, draw);
      }, 1);
      ratio(name, games);
    }
  }

  const states = sampleStates(3, 200);
  const buf: number[] = [];
  let i = 0;
  const legal = measure('legal_moves_cheapest_3p', 'generations/s', () => {
    const s = states[i++ % states.length];
    legalMoves(s, 0, 'cheapest', buf);
  }, 1);
  ratio('legal_moves_cheapest_3p', legal);
  const legalAll = measure('legal_moves_all_3p', 'generations/s', () => {
    const s = states[i++ % states.length];
    legalMoves(s, 0, 'all', buf);
  }, 1);
  ratio('legal_moves_all_3p', legalAll);

  const detRng = new Rng(11);
  const cl = measure('clone_3p', 'clones/s', () => {
    clone(states[i++ % states.length]);
  }, 1);
  ratio('clone_3p', cl);
  const det = measure('clone_determinize_3p', 'determinizations/s', () => {
    determinize(states[i++ % states.length], 0, detRng);
  }, 1);
  ratio('clone_determinize_3p', det);
}

main();
