/**
 * A game thread (of runGames and GamePool): plays the plans it is sent and posts back their
 * summaries (with the full record in place of the move log when asked: `full`), with the CPU time
 * the game took on this thread (the lab sums it per sweep), and given the game's placement in its
 * sweep, the game made ready for the store (codec.ts, PackedGame).
 */
import { openSync, readSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';
import { packGame } from '../results/codec.js';
import { IncrementSum, placementOf, type GamePlacement } from '../results/increments.js';
import { playGame, withRecord, type GamePlan, type GameSummary, type RecordKeeping } from '../game/game.js';
import type { GameKey, GameSeries, PartGame } from './game-messages.js';
import { Sweep, type SweepSpec } from '../plan/sweep.js';
import { ModelError } from '../../agents/index.js';

if (!parentPort) throw new Error('game-thread must run on a worker_threads thread');
const port = parentPort;

/**
 * This thread's CPU time in milliseconds, from Linux's /proc/thread-self/schedstat (nanoseconds on
 * the CPU); undefined where there is no such file. Read around each game: games run one at a time
 * on a thread, so the differences add up to the thread's time in games. The file is opened once, in
 * this thread (it names the thread that opens it), and read again from its start each time: a
 * third of the cost of opening it per read.
 */
const schedstat = (() => {
  try {
    return openSync('/proc/thread-self/schedstat', 'r');
  } catch {
    return undefined;
  }
})();
const schedstatBuf = Buffer.alloc(64);

function threadCpuMs(): number | undefined {
  if (schedstat === undefined) return undefined;
  try {
    const n = readSync(schedstat, schedstatBuf, 0, schedstatBuf.length, 0);
    return Number(schedstatBuf.toString('latin1', 0, n).split(' ')[0]) / 1e6;
  } catch {
    return undefined;
  }
}

/** The sweeps this thread has expanded, by id (a few: a thread serves one sweep's batch at a time). */
const sweeps = new Map<string, { spec: string; models: string; sweep: Sweep }>();
const SWEEPS_KEPT = 4;

function sweepOf(ref: GameSeries['sweep']): Sweep {
  const kept = sweeps.get(ref.id);
  const models = JSON.stringify(ref.models ?? null);
  if (kept && kept.spec === ref.spec && kept.models === models && kept.sweep.schedule === ref.schedule) return kept.sweep;
  const sweep = new Sweep(JSON.parse(ref.spec) as SweepSpec, { schedule: ref.schedule, models: ref.models });
  sweeps.delete(ref.id);
  sweeps.set(ref.id, { spec: ref.spec, models, sweep });
  if (sweeps.size > SWEEPS_KEPT) sweeps.delete(sweeps.keys().next().value!);
  return sweep;
}

/**
 * Why a game failed, as its sweep records it: a model file's fault in its own words (a missing or
 * changed network), anything else with its stack (a bug to find).
 */
/** What comes back beside a packed game: its key, and its forfeits when an outside agent forfeited. */
function keyOf(summary: GameSummary): GameKey {
  return summary.forfeits ? { id: summary.id, index: summary.index, forfeits: summary.forfeits } : { id: summary.id, index: summary.index };
}

function failure(err: unknown): string {
  return err instanceof ModelError ? err.message : ((err as Error).stack ?? String(err));
}

/**
 * Copies the games' packed bytes into one buffer and points each game at its slice: a message
 * then carries that one buffer (the packed forms are slices of Node's shared 8 KB pool, each of
 * which would otherwise be copied whole).
 */
function packTogether(games: PartGame[]): void {
  let size = 0;
  for (const g of games) size += g.summary.length + (g.record?.length ?? 0);
  const blob = new Uint8Array(size);
  let at = 0;
  const place = (bytes: Uint8Array): Uint8Array => {
    blob.set(bytes, at);
    at += bytes.length;
    return blob.subarray(at - bytes.length, at);
  };
  for (const g of games) {
    g.summary = place(g.summary);
    if (g.record) g.record = place(g.record);
  }
}

/**
 * Plays a series (GameLane.playSeries): its games in order, each packed for the store, sent in
 * parts of about `partMs` of play with their increments summed. A game that throws ends it: the
 * part before it is sent, then the error with the game's index.
 */
function playSeries(id: number, series: GameSeries): void {
  let games: PartGame[] = [];
  let sum = new IncrementSum();
  let partStart = performance.now();
  const send = (last: boolean) => {
    packTogether(games);
    port.postMessage({ id, ok: true, part: { games, increments: sum.summed() }, last });
    games = [];
    sum = new IncrementSum();
    partStart = performance.now();
  };
  let index = series.indices[0];
  try {
    const sweep = sweepOf(series.sweep);
    for (let i = 0; i < series.indices.length; i++) {
      index = series.indices[i];
      const cpu = threadCpuMs();
      const wall = performance.now();
      const plan = sweep.game(index);
      const summary = playGame(plan, { record: series.record });
      const after = threadCpuMs();
      const cpuMs = cpu !== undefined && after !== undefined ? after - cpu : performance.now() - wall;
      const packed = packGame(summary, placementOf(sweep, index, plan));
      games.push({ key: keyOf(summary), cpuMs, summary: packed.summary, record: packed.record, share: packed.share });
      sum.add(packed.increments);
      const last = i === series.indices.length - 1;
      if (last || performance.now() - partStart >= series.partMs) send(last);
    }
    if (series.indices.length === 0) send(true);
  } catch (err) {
    if (games.length > 0) send(false);
    port.postMessage({ id, ok: false, index, error: failure(err) });
  }
}

port.on('message', (msg: { id?: number; plan: GamePlan; record: RecordKeeping; full?: boolean; placement?: GamePlacement; series?: GameSeries }) => {
  if (msg.series) return playSeries(msg.id!, msg.series);
  try {
    const cpu = threadCpuMs();
    const wall = performance.now();
    const summary = playGame(msg.plan, { record: msg.record });
    const after = threadCpuMs();
    // Without the file, the game's wall time on this thread (an upper bound of its CPU time).
    const cpuMs = cpu !== undefined && after !== undefined ? after - cpu : performance.now() - wall;
    if (!msg.placement) return port.postMessage({ id: msg.id, ok: true, summary: msg.full ? withRecord(summary) : summary, cpuMs });
    // Only the game's key goes back with its packed form: the caller stores the packed bytes, and
    // a whole summary to clone and collect would cost the queue's thread more than the store.
    port.postMessage({ id: msg.id, ok: true, summary: keyOf(summary), cpuMs, packed: packGame(summary, msg.placement) });
  } catch (err) {
    port.postMessage({ id: msg.id, ok: false, index: msg.plan.index, error: failure(err) });
  }
});
