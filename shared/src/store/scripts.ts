/**
 * The store's Lua scripts. Each runs atomically in Redis, so a result and its aggregate updates
 * land together or not at all, and a game delivered twice changes nothing the second time.
 *
 * Each script's body is a file, lua/<name>.lua; what several scripts share is a file of
 * lua/include/, pulled in by a line `-- @include <name>`. This module declares each script's key
 * and argument names and reads its file once, when it loads.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Redis } from 'ioredis';

type Value = string | number | Buffer;

/**
 * How Redis treats a script when memory is over `maxmemory` (Redis 7 script flags): the first line
 * of its file, which must stay the first line of the text sent.
 * - 'deny-oom' (`#!lua`): the whole call is refused before it runs (an OOM error, nothing written).
 *   Without a flag line Redis only refuses the script's first write that may grow memory, and a
 *   script whose first write shrinks (an SREM) then writes on past the limit: half-refused results.
 * - 'allow-oom' (`#!lua flags=allow-oom`): runs anyway; only for scripts that move or delete (an
 *   operator's pause or cancel, a hand-back), which must work when memory is full, and which add no
 *   more than they free.
 * - 'legacy': no flag line (the lock scripts: a few fixed bytes).
 */
export type OomPolicy = 'deny-oom' | 'allow-oom' | 'legacy';
const FLAG_LINES: Record<string, OomPolicy> = { '#!lua': 'deny-oom', '#!lua flags=allow-oom': 'allow-oom' };

/** The message Redis refuses a write with when memory is over `maxmemory` (noeviction). */
export function isOutOfMemory(err: unknown): boolean {
  return /^OOM /.test(String((err as Error | undefined)?.message ?? ''));
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
const LUA_WORDS = new Set(['and', 'break', 'do', 'else', 'elseif', 'end', 'false', 'for', 'function', 'if', 'in', 'local', 'nil', 'not', 'or', 'repeat', 'return', 'then', 'true', 'until', 'while', 'redis', 'cjson']);

/**
 * Where the .lua files are: beside this module in the sources (vitest, tsx). tsc copies no .lua
 * files, so the compiled module (dist/src/store/scripts.js) reads them from the sources; the
 * Docker image keeps shared/src/store/lua for that.
 */
export const LUA_DIR = new URL(import.meta.url.endsWith('.ts') ? './lua/' : '../../../src/store/lua/', import.meta.url);

/** The line a file pulls in lua/include/<name>.lua with (the line and its newline give way to the file's text). */
const INCLUDE = /^-- @include (.*)\n/gm;

/**
 * The text of lua/<file>, its `-- @include` lines replaced by the included files (which may
 * include others). A fragment pulled in twice would define its functions twice: refused, as is a
 * fragment that does not end with a newline (the line after its include would join its last line).
 */
function readLua(file: string, included = new Set<string>()): string {
  const text = readFileSync(new URL(file, LUA_DIR), 'utf8');
  return text.replace(INCLUDE, (_, name: string) => {
    if (!/^[a-z][a-z0-9-]*$/.test(name)) throw new Error(`lua/${file}: cannot include '${name}'`);
    if (included.has(name)) throw new Error(`lua/${file}: '${name}' is included twice in one script`);
    included.add(name);
    const fragment = readLua(`include/${name}.lua`, included);
    if (!fragment.endsWith('\n')) throw new Error(`lua/include/${name}.lua: does not end with a newline`);
    return fragment;
  });
}

/**
 * A Lua script with named keys and arguments. The body reads them as Lua locals (a prelude binds
 * `local meta, out = KEYS[1], KEYS[2]`), never as KEYS[i] or ARGV[i], and a call passes them by
 * name, so no caller can shift them by one. Lists and records travel as JSON (cjson.decode).
 */
export class Script<K extends string = string, A extends string = string> {
  readonly keyNames: readonly K[];
  readonly argNames: readonly A[];
  /** What Redis does with the script over maxmemory, from its flag line. */
  readonly oom: OomPolicy;
  /** The body as written (includes expanded, without the flag line), and as sent (with the prelude). */
  readonly body: string;
  readonly lua: string;
  readonly sha: string;

  /** The script of the file lua/<name>.lua. */
  static fromFile<K extends string, A extends string>(name: string, names: { keys: readonly K[]; args: readonly A[] }): Script<K, A> {
    return new Script(name, names, readLua(`${name}.lua`));
  }

  /** `source`: the script's text, its first line the flag line (`#!lua…`) if it has one. */
  constructor(
    readonly name: string,
    names: { keys: readonly K[]; args: readonly A[] },
    source: string,
  ) {
    const all = [...names.keys, ...names.args];
    for (const n of all) {
      if (!IDENTIFIER.test(n) || LUA_WORDS.has(n)) throw new Error(`script ${name}: '${n}' cannot be a Lua local's name`);
      if (all.indexOf(n) !== all.lastIndexOf(n)) throw new Error(`script ${name}: '${n}' is named twice`);
    }
    // Redis reads the flags only from the very first line: the prelude goes after it.
    const flagged = source.startsWith('#!');
    const flagLine = flagged ? source.slice(0, source.indexOf('\n') + 1) : '';
    const body = source.slice(flagLine.length);
    if (flagged && !(flagLine.trimEnd() in FLAG_LINES)) throw new Error(`script ${name}: unknown flag line '${flagLine.trimEnd()}'`);
    const positional = /\b(KEYS|ARGV)\s*\[/.exec(body);
    if (positional) throw new Error(`script ${name}: the body reads ${positional[1]}[…] by position; use the declared names`);
    const bind = (list: readonly string[], from: string) => (list.length ? `local ${list.join(', ')} = ${list.map((_, i) => `${from}[${i + 1}]`).join(', ')}\n` : '');
    this.keyNames = names.keys;
    this.argNames = names.args;
    this.oom = flagged ? FLAG_LINES[flagLine.trimEnd()] : 'legacy';
    this.body = body;
    // A blank line between the prelude and the body (the files start with their code).
    this.lua = flagLine + bind(names.keys, 'KEYS') + bind(names.args, 'ARGV') + '\n' + body;
    this.sha = createHash('sha1').update(this.lua).digest('hex');
  }

  async run(redis: Redis, keys: Record<K, string>, args: Record<A, Value>): Promise<unknown> {
    const pick = <N extends string, V>(list: readonly N[], from: Record<N, V>, what: string) =>
      list.map((n) => {
        if (from[n] === undefined) throw new Error(`script ${this.name}: no ${what} '${n}'`);
        return from[n];
      });
    const k = pick(this.keyNames, keys, 'key');
    const a = pick(this.argNames, args, 'argument');
    try {
      return await redis.evalsha(this.sha, k.length, ...k, ...a);
    } catch (err) {
      if (!String((err as Error).message).includes('NOSCRIPT')) throw err;
      return redis.eval(this.lua, k.length, ...k, ...a);
    }
  }
}

/*
 * The fragments of lua/include/ (their notes live here, so that the text sent to Redis carries no
 * more comment than it needs):
 * - clock: a sweep's active clock, milliseconds it has spent running (paused time and the time
 *   after it stopped are not counted). `activeMs` holds the time of the past running spells,
 *   `runningSince` the start of the current one (every sweep has the clock: schema.ts gave one
 *   to those stored before it).
 * - keyspace-lost: whether the sweep is gone from this keyspace (a FLUSHALL, a Redis restarted
 *   without its data) or belongs to another epoch than the keyspace's (`<prefix>:epoch`, which a
 *   coordinator writes when it first finds the keyspace; sweeps stored before epochs have none and
 *   are checked for presence only). A game in flight then stores nothing: it would leave orphan
 *   keys, count a phantom game in the lab's stats and fail half-way where the sweep's total is
 *   missing.
 * - finish-check: marks the sweep done when every game has a result, has failed or was skipped by
 *   a stopping rule.
 * - store-games: what storing games shares. `bump` adds a delta to a counter (a '.' or 'e' in the
 *   delta makes it a float); `add_share` adds a paired design's group share and folds the group
 *   when complete; `count_done` counts n stored games in the sweep's counters, clock, throughput
 *   ring, CPU time, worker tally and the lab-wide count, then checks whether the sweep is done.
 *   The throughput ring (`rate`): `rateSlots` buckets of `rateBucketMs` of active time, slot b mod
 *   rateSlots holding bucket b's count (fields b<slot>, n<slot>), so the recent rate is read
 *   without keeping a time per game.
 * - move-back: moves the games of `list` still outstanding back in line (out → requeue); returns
 *   how many moved.
 */

/**
 * What the result scripts return when keyspace_lost (lua/include/keyspace-lost.lua) refused the
 * call (SweepStore throws KeyspaceLostError). The .lua files return it as the literal -2.
 */
export const LOST = -2;

/**
 * Stores one game's result and applies its aggregate increments, once per game id.
 * increments: JSON [[field, delta], …] (deltas as strings: a '.' or 'e' makes them floats).
 * share: '' or JSON { group, size, keys: [{ key, wins, seats }], a?, b?, cell } — a paired design's
 * group share (keys L<label> and R<role>; a and b the compared keys).
 * The game also counts in the sweep's throughput ring; cpuMs ('' when unknown) adds to the
 * sweep's CPU time, and worker ('' when unknown) counts the game for that worker.
 * Returns 1 when stored, 0 when the game was already stored, LOST (nothing written) when the sweep
 * is gone from the keyspace. Refused whole while Redis is over maxmemory (deny-oom).
 */
export const RECORD_RESULT = Script.fromFile('record-result', {
  keys: ['meta', 'results', 'records', 'agg', 'groups', 'out', 'active', 'stats', 'rate', 'workers', 'epoch'],
  args: ['sweepId', 'gameId', 'index', 'summary', 'record', 'now', 'increments', 'share', 'rateBucketMs', 'rateSlots', 'cpuMs', 'worker'],
});

/**
 * Stores a batch of games with their increments summed over the batch (one HINCRBY per distinct
 * field, not per game: what makes cheap games cheap for Redis), all or nothing: when any of them
 * was stored before (a batch delivered again after a crash), nothing is written and -1 returned,
 * and the caller stores the games one by one with RECORD_RESULT, once each.
 * games: JSON [[gameId, index, summaryBytes, recordBytes], …]; blobs: each game's packed summary
 * then its record, concatenated in that order. shares: JSON list of group shares (as RECORD_RESULT's).
 * Returns the number of games stored (LOST as RECORD_RESULT's).
 */
export const RECORD_BATCH = Script.fromFile('record-batch', {
  keys: ['meta', 'results', 'records', 'agg', 'groups', 'out', 'active', 'stats', 'rate', 'workers', 'epoch'],
  args: ['sweepId', 'games', 'blobs', 'now', 'increments', 'shares', 'rateBucketMs', 'rateSlots', 'cpuMs', 'worker'],
});

/**
 * Records a game that failed every attempt (once per index), and counts it lab-wide (LOST as
 * RECORD_RESULT's).
 */
export const RECORD_FAILURE = Script.fromFile('record-failure', { keys: ['meta', 'failed', 'out', 'active', 'results', 'stats', 'epoch'], args: ['sweepId', 'index', 'gameId', 'message', 'now'] });

/**
 * Takes up to `window − |out|` game indices to enqueue (rounded up to a whole batch, so a window
 * smaller than a batch still takes one; the feeder sizes the window): first those handed back, then
 * of the games the caller offers — those at the positions after the cursor, in the sweep's order
 * as Sweep.indexAt gives it (lab/plan/schedule.ts; the script knows no order of its own) — as many
 * as it wants, in whole batches of the sweep's `batch` positions (a queue job each; 1 for sweeps
 * stored before batches), so that the cursor stays on a batch boundary; they join the outstanding
 * set in the same step, so none is lost. The offer stands only if the cursor and the number of
 * decided cells are still the `cursor` and `decided` the caller read (one feeder claims at a time,
 * so a stale offer is rare and only delays games to the next round). With decided cells, the offer
 * leaves their games out (`positions` gives each offered game's position, `scanEnd` where the scan
 * stopped) and the positions passed over are counted as skipped. The first claim sets startedAt.
 * Returns { indices, from, stop }: every index taken (handed-back ones first), and the positions
 * [from, stop) taken from the cursor.
 */
export const CLAIM_GAMES = Script.fromFile('claim-games', {
  keys: ['meta', 'out', 'requeue', 'stopped', 'active'],
  args: ['window', 'now', 'sweepId', 'cursor', 'decided', 'games', 'positions', 'scanEnd'],
});

/**
 * Takes back the tail of a claim whose jobs could not be queued (Redis out of memory mid-addBulk):
 * the games at positions [rollback, stop) of the order, `games` their indices. When the cursor is
 * still at `stop` and every one of them still outstanding, the cursor moves back to `rollback` and
 * they leave the outstanding set, as if never claimed (they are queued again in their batches);
 * otherwise they go back in line one by one (out → requeue). Allowed when memory is full: it
 * frees more than it writes. Returns how many games were taken back.
 */
export const UNCLAIM = Script.fromFile('unclaim', { keys: ['meta', 'out', 'requeue'], args: ['games', 'rollback', 'stop'] });

/**
 * Hands queued games back (their jobs were removed from the queue): out → requeue.
 * indices: JSON list of index strings. Returns how many moved. Allowed when memory is full: a
 * move, and a pause or a feeder's undo must not be refused then.
 */
export const HAND_BACK = Script.fromFile('hand-back', { keys: ['out', 'requeue'], args: ['indices'] });

/**
 * Puts every failed game back in line and the sweep back to running. Returns how many, or -1 for a
 * cancelled sweep.
 */
export const RETRY_FAILED = Script.fromFile('retry-failed', { keys: ['meta', 'failed', 'requeue', 'active'], args: ['sweepId', 'priority', 'now'] });

/**
 * Moves a sweep's status from one of `from` (a JSON list) to `to`; keeps the active set and the
 * active clock in step (a cancel also sets finishedAt). Returns the old status, or false.
 * Allowed when memory is full: an operator pauses or cancels to stop a sweep that fills Redis, a
 * few fields, never refused.
 */
export const SET_STATUS = Script.fromFile('set-status', { keys: ['meta', 'active'], args: ['sweepId', 'to', 'priority', 'from', 'now'] });

/** Takes or renews the feeder's lock for `owner` for `ttlMs`; 1 when held, 0 when another owner holds it. */
/**
 * Stores a play-page game (play-store.ts) if the stored one is the game the request started from:
 * `expected` is 'new' (no game of that id yet, and fewer than `maxLive` games in progress) or the
 * stored game's move count. A game in progress expires `idleSeconds` after this save and is listed
 * in `live` by that time; a finished one (`over` '1') is kept, listed in `finished` by `now`, and
 * its finishing order (`order`, '' for none) counted for the ladder. Refused whole when the
 * keyspace's epoch is not `epochValue` ('' skips the check) and, like any write, over maxmemory.
 * Returns 'ok', or why nothing was written: 'lost', 'exists', 'full', 'gone', 'moved'.
 */
export const SAVE_PLAY = Script.fromFile('save-play', {
  keys: ['play', 'live', 'finished', 'orders', 'epoch'],
  args: ['id', 'text', 'expected', 'over', 'idleSeconds', 'now', 'maxLive', 'order', 'epochValue'],
});

export const HOLD_LOCK = Script.fromFile('hold-lock', { keys: ['lock'], args: ['owner', 'ttlMs'] });

/** Releases the lock if `owner` holds it; 1 when released. */
export const RELEASE_LOCK = Script.fromFile('release-lock', { keys: ['lock'], args: ['owner'] });
