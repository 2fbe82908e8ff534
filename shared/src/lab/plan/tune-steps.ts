/**
 * SPSA and NTBEA tunes (spec.tune, method 'spsa' or 'ntbea') as the lab plays them: a tune is a
 * sweep with no games of its own whose *steps* are small sweeps of their own, made one after
 * another from the results of the earlier ones (the coordinator's tune driver). What a step is —
 * its agents, its deals, its spec — and what its games say — its result — are defined here, from
 * the tune's spec and the algorithms' pure state (lab/tune/spsa.ts, ntbea.ts), so that a tune
 * replayed from its recorded steps and results follows the same trajectory.
 *
 * - SPSA step k plays θ + c_k·δ (the tuned seat) against θ − c_k·δ (`against`, default the next
 *   seat) on deal firstSeed + k, seats swapped: 2 games (times the wonder sets). Its result s is
 *   θ+'s wins minus losses in VP against θ− over those games, ties 0 (fishtest's).
 * - NTBEA step t plays the point (the tuned seat) against the reference (the `against` seat's
 *   agent, default the next seat's) on the next dealsPerStep deals, seats swapped. Its value is
 *   the point's mean head-to-head score (1 more VP, ½ a tie, 0 fewer), in [0, 1].
 * The other seats play as the spec gives them. The deals of steps follow each other from
 * deals.firstSeed (deals.count is not read): a confirmation must be on deals after them.
 */
import type { GameSummary } from '../game/game.js';
import { fromUnit, searchSpace, specAt, tableOf, toUnit, type Dimension } from '../tune/space.js';
import { observeNtbea, recommendNtbea, startNtbea, type NtbeaConfig, type NtbeaState } from '../tune/ntbea.js';
import { applySpsa, startSpsa, type SpsaConfig, type SpsaProposal, type SpsaState } from '../tune/spsa.js';
import { canonicalSpec, parseAgentSpec } from '../../agents/index.js';
import { raceOutcome } from './race.js';
import { raceReference, seatSpec, type SweepSpec } from './sweep.js';

export type SteppedTune = Extract<NonNullable<SweepSpec['tune']>, { method: 'spsa' | 'ntbea' }>;

/** The tune of a spec whose games are its steps' (SPSA, NTBEA), or undefined (none, or racing). */
export function steppedTune(spec: SweepSpec): SteppedTune | undefined {
  const t = spec.tune;
  return t && (t.method === 'spsa' || t.method === 'ntbea') ? t : undefined;
}

/** The seat the step's other agent plays in: θ− for SPSA, the reference for NTBEA (default the next seat). */
export function partnerSeat(spec: SweepSpec, t: { seat: number; against?: number }): number {
  return t.against ?? (t.seat + 1) % spec.players;
}

/** The tuned seat's agent, the point the search starts from, in canonical form. */
export function tuneBase(spec: SweepSpec, t: SteppedTune): string {
  return canonicalSpec(parseAgentSpec(seatSpec(spec.seats[t.seat])));
}

/** The options searched (space.ts), or a SpaceError naming the field. */
export function tuneSpace(spec: SweepSpec, t: SteppedTune): Dimension[] {
  return searchSpace(tuneBase(spec, t), t.params, 'tune.params');
}

/** The first deal of each step and the deals it plays, and the whole range the tune's steps use. */
export function stepDeals(spec: SweepSpec, t: SteppedTune, k: number): { firstSeed: number; count: number } {
  const per = t.method === 'spsa' ? 1 : t.dealsPerStep;
  return { firstSeed: spec.deals.firstSeed + k * per, count: per };
}

export function tuneDealRange(spec: SweepSpec, t: SteppedTune): { first: number; last: number } {
  const per = t.method === 'spsa' ? 1 : t.dealsPerStep;
  return { first: spec.deals.firstSeed, last: spec.deals.firstSeed + t.steps * per - 1 };
}

/** Games of the whole tune: its steps' (each deal seats swapped, times the wonder sets). */
export function tuneGames(t: SteppedTune, setsPerDeal: number): number {
  return t.steps * (t.method === 'spsa' ? 1 : t.dealsPerStep) * 2 * setsPerDeal;
}

/**
 * The seed of a tune's draws (SPSA's signs and roundings, NTBEA's mutations): from its spec alone,
 * so that the same spec submitted again proposes the same steps (and, a step at a time, plays the
 * same trajectory: the games are seeded by their deals).
 */
export function tuneSeed(spec: SweepSpec): string {
  return `${spec.name}:${spec.deals.firstSeed}`;
}

/** The base agent's value of each option (its own or its kind's default), as the search starts from it. */
function baseValues(spec: SweepSpec, t: SteppedTune, dims: readonly Dimension[]): (string | number)[] {
  const base = parseAgentSpec(tuneBase(spec, t));
  const table: readonly { key: string; field: string; type?: string; default?: unknown }[] = tableOf(tuneBase(spec, t));
  // An outside agent's parameters are as the spec writes them (strings), else its manifest's defaults.
  const values: Record<string, unknown> =
    base.kind === 'minimax' ? { ...base.minimax } : 'params' in base ? { ...base.params } : base.kind === 'ext' ? Object.fromEntries(table.map((def) => [def.field, def.key in base.options ? (def.type === 'choice' ? base.options[def.key] : Number(base.options[def.key])) : def.default])) : {};
  return dims.map((d) => {
    const own = values[table.find((def) => def.key === d.key)?.field ?? ''];
    return typeof own === 'number' || typeof own === 'string' ? own : typeof own === 'boolean' ? String(own) : d.values ? d.values[0] : d.min;
  });
}

/** SPSA's configuration for a tune: θ starts at the base agent's values (clipped to the ranges). */
export function spsaConfig(spec: SweepSpec, t: Extract<SteppedTune, { method: 'spsa' }>, dims: readonly Dimension[]): SpsaConfig {
  const start = baseValues(spec, t, dims).map((v, i) => Math.min(1, Math.max(0, toUnit(dims[i], Number(v)))));
  // An integer option's unit width on [0, 1]: one step of it over its range (log scales round in value, not in unit).
  const integerStep = dims.map((d) => (d.scale === 'integer' ? 1 / (d.max - d.min) : 0));
  return { steps: t.steps, start, integerStep, cEnd: t.cEnd, rEnd: t.rEnd, seed: tuneSeed(spec) };
}

/** NTBEA's configuration: the value lists' sizes; the search starts at the base agent's values where they are listed (else each list's first). */
export function ntbeaConfig(spec: SweepSpec, t: Extract<SteppedTune, { method: 'ntbea' }>, dims: readonly Dimension[]): NtbeaConfig {
  const start = baseValues(spec, t, dims).map((v, i) => Math.max(0, dims[i].values!.findIndex((x) => String(x) === String(v))));
  return { sizes: dims.map((d) => d.values!.length), start, pairs: t.pairs, k: t.k, seed: tuneSeed(spec) };
}

/** A point of [0, 1]^d as the options' values (integers rounded on their scale). */
export function unitValues(dims: readonly Dimension[], unit: readonly number[]): number[] {
  return dims.map((d, i) => {
    const x = fromUnit(d, unit[i]);
    return d.scale === 'integer' || (d.scale === 'log' && Number.isInteger(d.min) && Number.isInteger(d.max) && d.min >= 1) ? Math.round(x) : x;
  });
}

/** An NTBEA point (value indices) as the options' values. */
export function indexValues(dims: readonly Dimension[], point: readonly number[]): (string | number)[] {
  return dims.map((d, i) => d.values![point[i]]);
}

/** The agents of a step: the tuned seat's and its partner's. */
export interface StepAgents {
  tuned: string;
  partner: string;
}

export function spsaStepAgents(spec: SweepSpec, t: SteppedTune, dims: readonly Dimension[], p: SpsaProposal): StepAgents {
  const base = tuneBase(spec, t);
  return { tuned: specAt(base, dims, unitValues(dims, p.plus)), partner: specAt(base, dims, unitValues(dims, p.minus)) };
}

/** The reference a tune's points are measured against: confirm.reference, else the partner seat's agent. */
export function ntbeaReference(spec: SweepSpec, t: SteppedTune): string {
  return seatSpec(spec.seats[partnerSeat(spec, t)]);
}

export function ntbeaStepAgents(spec: SweepSpec, t: SteppedTune, dims: readonly Dimension[], point: readonly number[]): StepAgents {
  return { tuned: specAt(tuneBase(spec, t), dims, indexValues(dims, point)), partner: ntbeaReference(spec, t) };
}

/** The spec of step k: the tuned seat and its partner as given, the other seats as the tune's, seats swapped on the step's deals. */
export function stepSpec(spec: SweepSpec, t: SteppedTune, k: number, agents: StepAgents): Record<string, unknown> {
  const partner = partnerSeat(spec, t);
  return {
    name: `${spec.name} / step ${k}`,
    players: spec.players,
    seats: spec.seats.map((seat, q) => (q === t.seat ? agents.tuned : q === partner ? agents.partner : seatSpec(seat))),
    wonders: spec.wonders,
    sides: spec.sides,
    deals: stepDeals(spec, t, k),
    seating: 'swap',
    swapSeats: [t.seat, partner],
    keepRecords: spec.keepRecords,
    priority: spec.priority,
  };
}

/**
 * A step's result from its stored games (`roles[g][q]`: the step spec's seat at game g's seat q):
 * SPSA's s, wins minus losses of the tuned seat against its partner; NTBEA's value, the mean
 * head-to-head score. A step whose games all failed has no result (undefined): it is skipped.
 */
export function stepResult(spec: SweepSpec, t: SteppedTune, games: readonly GameSummary[], roles: readonly (readonly number[])[]): number | undefined {
  if (games.length === 0) return undefined;
  const rule = { seat: t.seat, against: partnerSeat(spec, t), delta: 0.05, epsilon: 0, roundDeals: 1 };
  const outcomes = games.map((g, i) => raceOutcome(rule, g, roles[i]));
  if (t.method === 'spsa') return outcomes.reduce((s, o) => s + (o === 1 ? 1 : o === 0 ? -1 : 0), 0);
  return outcomes.reduce((s, o) => s + o, 0) / outcomes.length;
}

/**
 * A tune's confirmation (spec.tune.confirm), any method's: the recommendation in the tuned seat
 * against the reference (raceReference) in the partner seat (`against`, else the next seat), the
 * other seats as the tune had them, on the confirmation's deals with the two seats swapped, until
 * its SPRT decides.
 */
export function confirmationSpec(spec: SweepSpec, recommendation: string): Record<string, unknown> {
  const t = spec.tune!;
  const c = t.confirm!;
  const partner = partnerSeat(spec, t);
  return {
    name: `${spec.name} / confirmation`,
    players: spec.players,
    seats: spec.seats.map((seat, q) => (q === t.seat ? recommendation : q === partner ? raceReference(spec)! : seatSpec(seat))),
    wonders: spec.wonders,
    sides: spec.sides,
    deals: { firstSeed: c.firstSeed, count: c.deals },
    seating: 'swap',
    swapSeats: [t.seat, partner],
    keepRecords: spec.keepRecords,
    priority: spec.priority,
    stop: { sprt: { seats: [t.seat, partner], elo0: c.elo0, elo1: c.elo1, alpha: c.alpha, beta: c.beta } },
  };
}

/** A step as recorded: its point (SPSA's proposal, or NTBEA's value indices), its agents, and its sweep once made. */
export interface StepRecord {
  k: number;
  proposal?: SpsaProposal;
  point?: number[];
  agents: StepAgents;
  sweep?: string;
  /** Why the lab refused to make the step's sweep (its result is then 0). */
  refused?: string;
}

/** A stepped tune's algorithm state: SPSA's or NTBEA's, over the tune's dimensions. */
export interface TuneState {
  dims: Dimension[];
  spsa?: SpsaState;
  ntbea?: NtbeaState;
}

/** The state before any step: θ (SPSA) or the current point (NTBEA) at the base agent's values. */
export function startTune(spec: SweepSpec, t: SteppedTune): TuneState {
  const dims = tuneSpace(spec, t);
  return t.method === 'spsa' ? { dims, spsa: startSpsa(spsaConfig(spec, t, dims)) } : { dims, ntbea: startNtbea(ntbeaConfig(spec, t, dims)) };
}

/** Step `step`'s result applied (null: its games all failed; SPSA then moves by 0, NTBEA observes nothing). */
export function applyTuneStep(spec: SweepSpec, t: SteppedTune, state: TuneState, step: StepRecord, value: number | null): TuneState {
  if (t.method === 'spsa') return { ...state, spsa: applySpsa(state.spsa!, step.proposal!, value ?? 0) };
  return value === null ? state : { ...state, ntbea: observeNtbea(ntbeaConfig(spec, t, state.dims), state.ntbea!, value) };
}

/**
 * The state rebuilt from the recorded steps and the applied results, in the order they were
 * applied — the one way a tune's state is known (the coordinator's driver and the tune's page
 * both read it so); `each` sees every step as it is applied, with the state after it.
 */
export function replayTune(
  spec: SweepSpec,
  t: SteppedTune,
  steps: ReadonlyMap<number, StepRecord>,
  applied: readonly { k: number; value: number | null }[],
  each?: (step: StepRecord, value: number | null, state: TuneState) => void,
): TuneState {
  let state = startTune(spec, t);
  for (const { k, value } of applied) {
    const step = steps.get(k);
    if (!step) throw new Error(`tune: step ${k} has a result but no record`);
    state = applyTuneStep(spec, t, state, step, value);
    each?.(step, value, state);
  }
  return state;
}

/** The recommendation a state makes: SPSA's θ, or NTBEA's evaluated point of best estimate (its start before any), as a spec string. */
export function tuneRecommendation(spec: SweepSpec, t: SteppedTune, state: TuneState): string {
  const base = tuneBase(spec, t);
  if (state.spsa) return specAt(base, state.dims, unitValues(state.dims, state.spsa.theta));
  const best = recommendNtbea(state.ntbea!)?.point ?? state.ntbea!.current;
  return specAt(base, state.dims, indexValues(state.dims, best));
}
