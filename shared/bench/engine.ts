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

const ROUND_SECONDS = Number(process.env.BENCH_SECONDS ?? 1);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Runs `body` (which does `batch` operations) repeatedly for one round; returns ops per second. */
function rate(body: () => void, batch: number): number {
  const until = performance.now() + ROUND_SECONDS * 1000;
  let ops = 0;
  const start = performance.now();
  while (performance.now() < until) {
    body();
    ops += batch;
  }
  return ops / ((performance.now() - start) / 1000);
}

function measure(name: string, unit: string, body: () => void, batch: number): number {
  rate(body, batch); // warm-up round: let the JIT settle
  const rounds: number[] = [];
  for (let i = 0; i < ROUNDS; i++) rounds.push(rate(body, batch));
  const med = median(rounds);
  const spread = (Math.max(...rounds) - Math.min(...rounds)) / med;
  console.log(`${name}: ${Math.round(med)} ${unit} (median of ${ROUNDS}, spread ±${(spread * 50).toFixed(1)}%)`);
  return med;
}

/**
 * Calibration: a fixed integer-and-array workload of roughly the engine's flavour (typed arrays,
 * small loops, a PRNG), unrelated to the engine's code, so that engine/calibration ratios are
 * comparable between machines.
 */
function calibrationUnit(): void {
  const a = new Int32Array(256);
  let x = 0x12345678;
  for (let i = 0; i < 4096; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    a[x & 255] += x & 7;
  }
  if (a[0] === -1) console.log('unreachable');
}

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
  console.log(`# wonderlab engine benchmark — Node ${process.version}, ${ROUNDS} rounds of ${ROUND_SECONDS}s, one core`);
  const calibration = measure('calibration', 'units/s', calibrationUnit, 1);
  const ratio = (name: string, value: number) => console.log(`${name}_per_calibration: ${(value / calibration).toFixed(3)} ratio`);

  const moveRng = new Rng(7);
  for (const players of [3, 7]) {
    let seed = 0;
    const games = measure(`random_games_${players}p`, 'games/s', () => {
      playRandom(newGame({ players, seed: seed++ }), moveRng);
    }, 1);
    ratio(`random_games_${players}p`, games);
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
