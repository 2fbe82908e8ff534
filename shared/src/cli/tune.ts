/**
 * `wonderlab tune`: a tune (spec.tune) run here, on this machine's threads, as the lab would run
 * it — racing over the spec's cells, SPSA or NTBEA a step at a time (lab/plan/tune-steps.ts) —
 * then its confirmation under its SPRT on the held-out deals, when the spec has one. The games
 * are the lab's games (the same seeds), so a local tune and the lab's agree where their order
 * of results does: racing and NTBEA always, SPSA with one step in flight (locally the steps in
 * flight are played together and applied in step order).
 */
import {
  CellStopper,
  RaceStopper,
  Sweep,
  applySpsa,
  checkSweepSpec,
  confirmationSpec,
  indexValues,
  ntbeaConfig,
  ntbeaStepAgents,
  observeNtbea,
  proposeSpsa,
  recommendNtbea,
  runGames,
  specAt,
  spsaConfig,
  spsaStepAgents,
  startNtbea,
  startSpsa,
  stepResult,
  stepSpec,
  steppedTune,
  tuneBase,
  tuneSpace,
  unitValues,
  type GameSummary,
  type SweepSpec,
} from '../lab/index.js';
import { HELP_OPTION, LOCAL_RUN_OPTIONS, OUTPUT_OPTIONS, UsageError, parseCommandLine, threadsOption, valueOptions } from './options.js';
import { PRESETS_DIR, readSpecInput, withDeals } from './sweep.js';

export const TUNE_USAGE = `usage: wonderlab tune <spec.json | preset> [--threads N] [--json] [--quiet]

Runs a tune (a spec with "tune": racing, spsa or ntbea; docs/tuning.md) on this machine, then its
confirmation (spec.tune.confirm) under its SPRT on the held-out deals. On a lab:
wonderlab remote submit <spec> (the lab's page shows the search live).

  --threads N   game threads (default: the cores)
  --json        the tune's outcome as JSON: the search, the recommendation, the confirmation
  --quiet       no progress lines`;

/** Plays these games (in any order on threads) and returns them by index. */
async function play(plans: ReturnType<Sweep['game']>[], threads: number): Promise<Map<number, GameSummary>> {
  const got = new Map<number, GameSummary>();
  await runGames(plans, { threads, onResult: (g: GameSummary) => got.set(g.index, g) });
  return got;
}

/** A sweep spec checked and expanded (a step's, or a confirmation's). */
function expand(input: unknown): Sweep {
  const { spec } = checkSweepSpec(input);
  return new Sweep(spec);
}

interface Outcome {
  method: string;
  recommendation: string;
  games: number;
  search: unknown;
}

async function race(spec: SweepSpec, threads: number, say: (s: string) => void): Promise<Outcome> {
  const t = spec.tune!;
  if (t.method !== 'racing') throw new Error('not a race');
  const sweep = new Sweep(spec);
  const r = new RaceStopper(sweep, { seat: t.seat, against: t.against, delta: t.delta, epsilon: t.epsilon, roundDeals: t.roundDeals });
  let games = 0;
  while (!r.decided) {
    // Every arm still racing, its next round of deals; then the looks they allow.
    const wanted = sweep.cells.flatMap((_, c) => (r.alive(c) ? [[c, r.nextGames(c, t.roundDeals * sweep.ordersPerDeal)] as const] : []));
    if (wanted.every(([, next]) => next.length === 0)) break;
    const got = await play(wanted.flatMap(([, next]) => next.map((k) => sweep.game(k))), threads);
    for (const [c, next] of wanted) r.feed(c, next.map((k) => got.get(k)));
    games += got.size;
    if (r.lookAll()) say(`look ${r.report().looks}: ${r.report().arms.filter((a) => a.alive).length} arms racing, ${games} games`);
  }
  const report = r.report();
  const decided = report.decided ?? { agent: report.arms[report.leader].agent, by: 'budget' };
  return { method: 'racing', recommendation: decided.agent, games, search: report };
}

async function search(spec: SweepSpec, threads: number, say: (s: string) => void): Promise<Outcome> {
  const t = steppedTune(spec)!;
  const dims = tuneSpace(spec, t);
  const base = tuneBase(spec, t);
  let games = 0;
  /** A step's sweep played; its result (undefined when its agents cannot be played: scored 0, as on the lab). */
  const playStep = async (k: number, agents: { tuned: string; partner: string }): Promise<number> => {
    let sweep: Sweep;
    try {
      sweep = expand(stepSpec(spec, t, k, agents));
    } catch {
      return 0;
    }
    const plans = Array.from({ length: sweep.size }, (_, i) => sweep.game(i));
    const got = await play(plans, threads);
    games += got.size;
    const played = plans.filter((p) => got.has(p.index));
    return stepResult(spec, t, played.map((p) => got.get(p.index)!), played.map((p) => sweep.orders[p.seating])) ?? 0;
  };
  if (t.method === 'spsa') {
    const config = spsaConfig(spec, t, dims);
    let state = startSpsa(config);
    for (let k = 0; k < t.steps; k += t.inFlight) {
      // The steps in flight proposed from the same θ, played together, applied in step order.
      const proposals = Array.from({ length: Math.min(t.inFlight, t.steps - k) }, (_, i) => proposeSpsa(config, state, k + i));
      const results: number[] = [];
      for (const p of proposals) results.push(await playStep(p.k, agentsOrNone(() => spsaStepAgents(spec, t, dims, p))));
      proposals.forEach((p, i) => (state = applySpsa(state, p, results[i])));
      say(`step ${Math.min(k + t.inFlight, t.steps)}/${t.steps}: ${dims.map((d, i) => `${d.key}=${round(unitValues(dims, state.theta)[i])}`).join(' ')}`);
    }
    return { method: 'spsa', recommendation: specAt(base, dims, unitValues(dims, state.theta)), games, search: { trajectory: state.trajectory.map((s) => ({ k: s.k, values: unitValues(dims, s.theta), s: s.s })) } };
  }
  const config = ntbeaConfig(spec, t, dims);
  let state = startNtbea(config);
  for (let k = 0; k < t.steps; k++) {
    const point = [...state.current];
    const value = await playStep(k, agentsOrNone(() => ntbeaStepAgents(spec, t, dims, point)));
    state = observeNtbea(config, state, value);
    say(`evaluation ${k + 1}/${t.steps}: ${indexValues(dims, point).map((v, i) => `${dims[i].key}=${v}`).join(' ')} scored ${(100 * value).toFixed(1)} %`);
  }
  const best = recommendNtbea(state)?.point ?? state.current;
  return { method: 'ntbea', recommendation: specAt(base, dims, indexValues(dims, best)), games, search: { evaluations: state.history.map((h) => ({ values: indexValues(dims, h.point), value: h.value })) } };
}

/** A step's agents, or none (its options do not go together: the step scores 0). */
function agentsOrNone(make: () => { tuned: string; partner: string }): { tuned: string; partner: string } {
  try {
    return make();
  } catch {
    return { tuned: '', partner: '' };
  }
}

const round = (x: number) => Number(x.toPrecision(4));

/** The confirmation played until its SPRT decides (or its deals run out): decision, score and games. */
async function confirm(spec: SweepSpec, recommendation: string, threads: number) {
  const sweep = expand(confirmationSpec(spec, recommendation));
  const stopper = new CellStopper(sweep, 0, sweep.spec.stop!);
  let games = 0;
  while (!stopper.test.state.decision) {
    const next = stopper.nextGames(8 * sweep.ordersPerDeal);
    if (next.length === 0) break;
    const got = await play(next.map((k) => sweep.game(k)), threads);
    games += got.size;
    stopper.feed(next.map((k) => got.get(k)));
  }
  const report = stopper.report();
  return { deals: sweep.spec.deals, decision: report.decision ?? null, llr: report.value, score: report.score ?? null, games };
}

export async function cmdTune(args: string[], out: (s: string) => void, err: (s: string) => void): Promise<number> {
  const { values, positionals } = parseCommandLine({ args, allowPositionals: true, options: { ...HELP_OPTION, ...valueOptions('deals'), ...LOCAL_RUN_OPTIONS, ...OUTPUT_OPTIONS } });
  if (values.help) {
    out(TUNE_USAGE);
    return 0;
  }
  if (positionals.length !== 1) throw new UsageError('tune takes one preset or spec file');
  const { input } = readSpecInput(positionals[0], PRESETS_DIR);
  const { spec } = checkSweepSpec(withDeals(input, values.deals));
  if (!spec.tune) throw new UsageError(`${positionals[0]} has no "tune": give a spec with one (docs/tuning.md), or run it with wonderlab sweep run`);
  const threads = threadsOption(values.threads);
  const say = values.quiet || values.json ? () => {} : err;
  const outcome = spec.tune.method === 'racing' ? await race(spec, threads, say) : await search(spec, threads, say);
  const confirmation = spec.tune.confirm ? await confirm(spec, outcome.recommendation, threads) : null;
  if (values.json) {
    out(JSON.stringify({ spec, ...outcome, confirmation }, null, 2));
    return 0;
  }
  out(`${spec.name}: ${outcome.method}, ${outcome.games} games`);
  out(`recommendation: ${outcome.recommendation}`);
  if (!confirmation) out('no confirmation (spec.tune.confirm): the recommendation is as good as the search says, on the deals it was chosen on');
  else {
    const s = confirmation.score;
    out(`confirmation on deals ${confirmation.deals.firstSeed}…: ${confirmation.games} games, SPRT ${confirmation.decision ?? 'undecided'}${s ? `; score against the reference ${(100 * s.mean).toFixed(1)} % ± ${(100 * s.halfWidth).toFixed(1)}` : ''}`);
  }
  return 0;
}
