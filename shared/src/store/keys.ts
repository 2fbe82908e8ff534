/**
 * Every Redis key and queue name the lab uses, in one place: the coordinator, the workers, the
 * tests and the deployment's autoscaling trigger all derive them from here.
 */
export interface Keys {
  prefix: string;
  /** BullMQ's own prefix: the queue's keys are `<bullPrefix>:<queue>:…`. */
  bullPrefix: string;
  /** Sorted set of every sweep id, by creation time. */
  sweeps: string;
  /** Sorted set of sweeps being fed to the queue, by priority. */
  active: string;
  /** Lab-wide counters (games done). */
  stats: string;
  /** Lock held by the coordinator that feeds the queue. */
  feederLock: string;
  /** String: the keyspace's epoch, written once when a coordinator first finds it (see lab-state.ts). */
  epoch: string;
  /** String: the version of the stored data's shape (schema.ts), written by the coordinator's migration. */
  schema: string;
  /** Sorted set: each worker (JSON: host, pid, slots, commit) → when it last reported (worker-roster.ts). */
  roster: string;
  /** Sorted set of the play page's finished games, by when they ended. */
  plays: string;
  /** Sorted set of the play page's games in progress, by when each expires (ms). */
  playsLive: string;
  /** Hash: a finished play game's finishing order (JSON groups of canonical specs, best first) → how many games ended so, for the ladder. */
  playOrders: string;
  /** String: one play-page game as JSON (play-store.ts); expires unless finished. */
  play(id: string): string;
  sweep(id: string): SweepKeys;
}

export interface SweepKeys {
  /** Hash: spec, status, total, cursor (a position in the sweep's order), done, failed, schedule shape, times, active clock. */
  meta: string;
  /** Hash: game id → deflated JSON of the game summary. */
  results: string;
  /** Hash: game id → deflated JSON of the full move record. */
  records: string;
  /** Hash: aggregate counters (see lab/results/increments.ts). */
  agg: string;
  /** Hash: partial sums of paired groups not yet complete. */
  groups: string;
  /** Set: game indices in the queue (enqueued, not yet finished). */
  out: string;
  /** List: game indices to enqueue again before the cursor moves on (paused, retried). */
  requeue: string;
  /** Hash: game index → error of games that failed every attempt. */
  failed: string;
  /** Hash: the throughput ring, games finished per bucket of active time (see RECORD_RESULT). */
  rate: string;
  /** Hash: worker identity (JSON: host, pid, code version) → games it stored. */
  workers: string;
  /** Hash: cell → JSON of its stopping test (spec.stop): games evaluated, statistic, trace, decision. */
  stops: string;
  /** Set: cells whose stopping test has decided; the claim script skips their games not yet queued. */
  stopped: string;
  /** Hash, an SPSA or NTBEA tune's: step k → JSON of the step as proposed (its point, and its sweep once made). */
  steps: string;
  /** List, an SPSA or NTBEA tune's: JSON {k, value} of each step's result, in the order the tune applied them. */
  applied: string;
  /** Hash: outside agent → the games it has failed in a row (a game it played through resets it). */
  agentFaults: string;
}

export function keys(prefix: string): Keys {
  return {
    prefix,
    bullPrefix: `${prefix}:bull`,
    sweeps: `${prefix}:sweeps`,
    active: `${prefix}:active`,
    stats: `${prefix}:stats`,
    feederLock: `${prefix}:feeder-lock`,
    epoch: `${prefix}:epoch`,
    schema: `${prefix}:schema`,
    roster: `${prefix}:workers-seen`,
    plays: `${prefix}:plays`,
    playOrders: `${prefix}:play-orders`,
    playsLive: `${prefix}:plays-live`,
    play: (id) => `${prefix}:play:${id}`,
    sweep: (id) => {
      const base = `${prefix}:sweep:${id}`;
      return {
        meta: base,
        results: `${base}:results`,
        records: `${base}:records`,
        agg: `${base}:agg`,
        groups: `${base}:groups`,
        out: `${base}:out`,
        requeue: `${base}:requeue`,
        failed: `${base}:failed`,
        rate: `${base}:rate`,
        workers: `${base}:workers`,
        stops: `${base}:stops`,
        stopped: `${base}:stopped`,
        steps: `${base}:steps`,
        applied: `${base}:applied`,
        agentFaults: `${base}:agentFaults`,
      };
    },
  };
}

/** BullMQ job id of a game: sweep id and game index (BullMQ forbids ':' in ids). */
export function jobId(sweepId: string, index: number): string {
  return `${sweepId}.${index}`;
}

/** BullMQ job id of a batch: sweep id and the batch's first position in the sweep's order. */
export function batchJobId(sweepId: string, position: number): string {
  return `${sweepId}.p${position}`;
}

/**
 * The data of a queued job: kept tiny, the worker rebuilds the games from the sweep's spec. A
 * job is one game (k) or a batch (p, n): the games at positions p … p + n − 1 of the sweep's
 * order that are still outstanding when it runs.
 */
export type GameJobData = { s: string; k: number; p?: undefined; n?: undefined } | { s: string; p: number; n: number; k?: undefined };
