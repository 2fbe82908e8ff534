/**
 * Making a sweep from a spec, the one path for the API's POST /api/sweeps and for what the lab
 * makes itself (a tune's confirmation): the spec checked against the lab's limits, with the models
 * it names read off the event loop first; then stored with its code version, batch size and the
 * models' hashes, and the feeder kicked. A bad spec is a SweepSpecError naming the field.
 */
import type { Logger } from 'pino';
import { batchSize, checkSweepSpec, codeVersion, confirmationSpec, sweepModelNames, sweepModels, sweepOutsideAgents } from '@wonderlab/shared';
import type { SweepMeta, SweepStore } from '@wonderlab/shared/store';
import { sweepLimits, type LimitsConfig } from './config.js';
import type { ModelChecks } from './model-checks.js';

export interface SweepCreatorDeps {
  store: SweepStore;
  models: ModelChecks;
  limits: LimitsConfig;
  /** Seconds of estimated play per queue job, and the most games in one (0 seconds: a job per game). */
  batching: { seconds: number; max: number };
  logger: Logger;
  /** Called once a sweep is stored (the feeder's kick). */
  created?: () => void;
}

export class SweepCreator {
  constructor(private readonly d: SweepCreatorDeps) {}

  /** The spec checked (SweepSpecError naming the field), with its size, cost, expansion and the models' lookup. */
  async check(body: unknown) {
    const limits = sweepLimits(this.d.limits);
    // The models it names are read on the model thread first; the spec's check looks them up there.
    const models = await this.d.models.lookup(sweepModelNames(body, limits));
    const checked = checkSweepSpec(body, limits, models);
    return { ...checked, cost: checked.cost!, sweep: checked.sweep!, models };
  }

  /** Stores a sweep (checked now, unless the caller checked it already); resolves with its meta and what the API reports of it. */
  async create(body: unknown, checked?: Awaited<ReturnType<SweepCreator['check']>>, step?: { of: string; k: number }) {
    const { spec, size, cost, sweep, models } = checked ?? (await this.check(body));
    // A stopping sweep, or a racing tune, goes a game per job: its cells are decided game by game.
    const batch = spec.stop || spec.tune ? 1 : batchSize(sweep.cells, sweep.size, this.d.batching.seconds, this.d.batching.max);
    const meta = await this.d.store.ledger.create(sweep, { code: codeVersion(), batch, models: sweepModels(sweep.cells, models), agents: sweepOutsideAgents(sweep.cells), ...(step ? { step } : {}) });
    if (step) this.d.logger.debug({ sweep: meta.id, tune: step.of, step: step.k, games: meta.total }, 'tune step created');
    else this.d.logger.info({ sweep: meta.id, name: meta.name, games: size.total, cpuHours: cost.cpuHours }, 'sweep created');
    this.d.created?.();
    return { meta, size, cost };
  }

  /** Step k of an SPSA or NTBEA tune (tune-driver.ts): a sweep of its own, checked as any, not listed among the sweeps. */
  async step(tune: SweepMeta, k: number, spec: Record<string, unknown>): Promise<string> {
    return (await this.create(spec, undefined, { of: tune.id, k })).meta.id;
  }

  /**
   * A tune's confirmation (spec.tune.confirm): the recommendation in the tuned seat against
   * the reference in the partner seat (`against`, else the next seat), the other seats as the tune
   * had them, on the confirmation's deals with the two seats swapped, until its SPRT decides.
   */
  async confirm(tune: SweepMeta, recommendation: string): Promise<string> {
    return (await this.create(confirmationSpec(tune.spec, recommendation))).meta.id;
  }
}
