/**
 * SPSA and NTBEA tunes on the cluster (lab/plan/tune-steps.ts): the feeder calls `check` for each
 * running tune every round. A tune's steps are sweeps of their own, made from its state; when a
 * step's sweep is done its result is appended to the tune's applied results (Redis: the order
 * they were applied in), and the state moves. When every step is applied, the recommendation is
 * confirmed (a sweep, as a racing tune's) and saved, and the tune is done.
 *
 * Exactly once, and the same trajectory after a restart: a step is recorded (HSETNX) before its
 * sweep is made, its sweep's id is made from the tune's and the step's (stepSweepId: a step made
 * again is the same sweep), and the state is rebuilt from the recorded steps and the applied
 * results in their order (replayTune) — never from what arrived when. What one
 * coordinator keeps in memory is a cache of that, dropped whenever it loses the feeder's lock.
 */
import type { Logger } from 'pino';
import {
  SweepSpecError,
  applyTuneStep,
  ntbeaStepAgents,
  proposeSpsa,
  replayTune,
  spsaConfig,
  spsaStepAgents,
  stepResult,
  stepSpec,
  steppedTune,
  tuneRecommendation,
  type StepRecord,
  type SteppedTune,
  type SweepSpec,
  type TuneState,
} from '@wonderlab/shared';
import type { SweepMeta, SweepStore } from '@wonderlab/shared/store';

export type { StepRecord } from '@wonderlab/shared';

export interface TuneDriverOptions {
  store: SweepStore;
  logger: Logger;
  /** Makes step k's sweep (its id stepSweepId(tune, k)); resolves with its id. */
  makeStep: (tune: SweepMeta, k: number, spec: Record<string, unknown>) => Promise<string>;
  /** Makes the recommendation's confirmation (spec.tune.confirm); resolves with its id. */
  confirm?: (tune: SweepMeta, recommendation: string) => Promise<string>;
}

/** A tune's state as this coordinator holds it: the algorithm's, the steps proposed and those not yet applied. */
interface Held {
  t: SteppedTune;
  state: TuneState;
  steps: Map<number, StepRecord>;
  applied: number;
  inFlight: Set<number>;
}

export class TuneDriver {
  private readonly held = new Map<string, Held>();

  constructor(private readonly o: TuneDriverOptions) {}

  /** Forgets what it holds (the feeder's lock went to another coordinator, or the keyspace lost its data). */
  reset(): void {
    this.held.clear();
  }

  /** One look at a running tune: finished steps applied, new steps proposed up to the budget, the end made. */
  async check(meta: SweepMeta): Promise<void> {
    const t = steppedTune(meta.spec);
    if (!t || meta.status !== 'running') return;
    const h = this.held.get(meta.id) ?? (await this.rebuild(meta.id, meta.spec, t));
    this.held.set(meta.id, h);
    await this.applyFinished(meta, h);
    await this.propose(meta, h);
    if (h.applied >= t.steps) await this.finish(meta, h);
  }

  /** The state from the recorded steps and results, in the order applied (replayTune). */
  private async rebuild(id: string, spec: SweepSpec, t: SteppedTune): Promise<Held> {
    const { steps: recorded, applied } = await this.o.store.reads.tuneSteps(id);
    const steps = new Map([...recorded].map(([k, json]) => [k, JSON.parse(json) as StepRecord]));
    const appliedKs = new Set(applied.map((a) => a.k));
    return { t, state: replayTune(spec, t, steps, applied), steps, applied: applied.length, inFlight: new Set([...steps.keys()].filter((k) => !appliedKs.has(k))) };
  }

  /** A step's result recorded (appended to the applied list: the order replayTune follows), then applied here. */
  private async applyStep(meta: SweepMeta, h: Held, step: StepRecord, value: number | null): Promise<void> {
    await this.o.store.ledger.applyStep(meta.id, step.k, value);
    h.state = applyTuneStep(meta.spec, h.t, h.state, step, value);
    h.applied++;
    h.inFlight.delete(step.k);
  }

  private async applyFinished(meta: SweepMeta, h: Held): Promise<void> {
    const { store } = this.o;
    for (const k of [...h.inFlight].sort((a, b) => a - b)) {
      const step = h.steps.get(k)!;
      if (!step.sweep) continue;
      const stepMeta = await store.reads.meta(step.sweep);
      if (stepMeta?.status === 'paused' && (await this.tuneStatus(meta.id)) === 'running') {
        // A running tune's steps run with it (a step is paused and resumed with its tune): one left
        // paused by a suspension that raced with the tune's resume goes on, counting afresh.
        await store.ledger.transition(step.sweep, ['paused'], 'running', meta.priority);
        // Read again after the write: a suspension that came in between paused the tune, and the
        // step goes back with it (else the ledger's second pass, after the tune, pauses it).
        if ((await this.tuneStatus(meta.id)) !== 'running') await store.ledger.transition(step.sweep, ['running'], 'paused', meta.priority);
        else {
          await store.ledger.clearSuspension(step.sweep);
          this.o.logger.info({ tune: meta.id, step: k, sweep: step.sweep }, 'paused step of a running tune resumed');
        }
        continue;
      }
      if (stepMeta?.status !== 'done') continue;
      const value = (await this.stepValue(meta.spec, h.t, step.sweep)) ?? null;
      await this.applyStep(meta, h, step, value);
      this.o.logger.debug({ tune: meta.id, step: k, value }, 'tune step applied');
    }
  }

  /** A step's result from its stored games (tune-steps.ts stepResult). */
  private async stepValue(spec: SweepSpec, t: SteppedTune, stepId: string): Promise<number | undefined> {
    const loaded = await this.o.store.reads.load(stepId);
    if (!loaded) return undefined;
    const { sweep } = loaded;
    const plans = Array.from({ length: sweep.size }, (_, k) => sweep.game(k));
    const results = await this.o.store.reads.results(stepId, plans.map((p) => p.id));
    const games = results.flatMap((g, i) => (g ? [{ g, roles: sweep.orders[plans[i].seating] }] : []));
    return stepResult(spec, t, games.map((x) => x.g), games.map((x) => x.roles));
  }

  private async propose(meta: SweepMeta, h: Held): Promise<void> {
    const { store } = this.o;
    // NTBEA moves after each evaluation: one step at a time. SPSA: up to inFlight at once.
    const atOnce = h.t.method === 'spsa' ? h.t.inFlight : 1;
    for (let k = this.proposed(h); h.inFlight.size < atOnce && k < h.t.steps; k++) {
      // A worker may have suspended the tune since this look began (its agent failing): no new step.
      if ((await this.tuneStatus(meta.id)) !== 'running') return;
      const step = this.makeRecord(meta, h, k);
      await store.ledger.proposeStep(meta.id, k, JSON.stringify(step));
      h.steps.set(k, step);
      h.inFlight.add(k);
    }
    // Every step in flight has its sweep (made now for one recorded before a stop).
    for (const k of [...h.inFlight].sort((a, b) => a - b)) {
      const step = h.steps.get(k)!;
      if (step.sweep) continue;
      if (!step.refused) {
        try {
          step.sweep = await this.o.makeStep(meta, k, stepSpec(meta.spec, h.t, k, step.agents));
        } catch (err) {
          if (!(err instanceof SweepSpecError)) throw err;
          step.refused = err.message;
        }
        await store.ledger.saveStep(meta.id, k, JSON.stringify(step));
        // Saved first, then the tune read: a suspension either sees this step in flight and pauses
        // it, or happened before this read, and the step is paused here (cancelled with a tune
        // cancelled meanwhile, which no longer looks after its steps).
        const now = step.sweep ? await this.tuneStatus(meta.id) : 'running';
        if (now === 'paused') await store.ledger.transition(step.sweep!, ['running'], 'paused', meta.priority);
        else if (now !== 'running') await store.ledger.transition(step.sweep!, ['running', 'paused'], 'cancelled', meta.priority);
      }
      if (step.refused) {
        // A step the lab refuses to play (options that do not go together, a limit): NTBEA scores
        // the point 0, so the search moves away from it; SPSA learns nothing from it (s = 0).
        this.o.logger.warn({ tune: meta.id, step: k, agents: step.agents, err: step.refused }, 'tune step refused: scored 0');
        await this.applyStep(meta, h, step, 0);
      } else this.o.logger.debug({ tune: meta.id, step: k, sweep: step.sweep }, 'tune step made');
    }
  }

  private async tuneStatus(id: string): Promise<string | undefined> {
    return (await this.o.store.reads.meta(id))?.status;
  }

  private proposed(h: Held): number {
    let k = 0;
    while (h.steps.has(k)) k++;
    return k;
  }

  /** Step k as proposed now; a point whose options do not go together is recorded refused (its agents as far as they are known). */
  private makeRecord(meta: SweepMeta, h: Held, k: number): StepRecord {
    const proposal = h.t.method === 'spsa' ? proposeSpsa(spsaConfig(meta.spec, h.t, h.state.dims), h.state.spsa!, k) : undefined;
    const point = proposal ? undefined : [...h.state.ntbea!.current];
    const at = proposal ? { proposal } : { point };
    try {
      return { k, ...at, agents: proposal ? spsaStepAgents(meta.spec, h.t, h.state.dims, proposal) : ntbeaStepAgents(meta.spec, h.t, h.state.dims, point!) };
    } catch (err) {
      return { k, ...at, agents: { tuned: '', partner: '' }, refused: (err as Error).message };
    }
  }

  private async finish(meta: SweepMeta, h: Held): Promise<void> {
    const { store, logger } = this.o;
    const recommendation = tuneRecommendation(meta.spec, h.t, h.state);
    if (h.t.confirm && !meta.confirmation && !meta.confirmationError && this.o.confirm) {
      try {
        const confirmation = await this.o.confirm(meta, recommendation);
        await store.ledger.linkConfirmation(meta.id, confirmation);
        logger.info({ sweep: meta.id, confirmation, recommendation }, 'tune confirmation created');
      } catch (err) {
        await store.ledger.saveConfirmationError(meta.id, (err as Error).message);
        logger.warn({ sweep: meta.id, err }, 'tune confirmation refused');
      }
    }
    await store.ledger.finishTune(meta.id, recommendation, meta.priority);
    this.held.delete(meta.id);
    logger.info({ sweep: meta.id, recommendation, steps: h.applied }, 'tune finished');
  }
}
