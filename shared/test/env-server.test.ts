/**
 * `wonderlab env` (cli/env-server.ts) without a pipe: requests as bytes, replies as bytes; and, for
 * what only a process shows (end of input, an oversized frame, staying alive), the real server
 * over real pipes. The Python side (python/tests) drives the same server through a real process.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ACTION_COUNT, observationSize } from '../src/agents/encoding.js';
import { EnvServer, MAX_REQUEST_BYTES, OP_OPEN, OP_RECORD, OP_RESET, OP_STEP, handle } from '../src/cli/env-server.js';
import { replay, type GameRecord } from '../src/engine/index.js';
import { playGame } from '../src/lab/index.js';

function request(op: number, payload: Buffer): Buffer {
  return Buffer.concat([Buffer.from([op]), payload]);
}

function open(spec: object): { server: EnvServer; reply: Buffer } {
  let server: EnvServer | undefined;
  const reply = handle(undefined, request(OP_OPEN, Buffer.from(JSON.stringify(spec))), (s) => (server = s));
  return { server: server!, reply };
}

/** The state block's arrays (docs/python.md, "Protocol"). */
function block(reply: Buffer) {
  expect(reply[0]).toBe(0);
  const [N, E, D, A, P] = [4, 8, 12, 16, 20].map((at) => reply.readUInt32LE(at));
  let at = 24;
  const take = (bytes: number) => reply.subarray(at, (at += bytes));
  const vp = take(4 * N * P);
  const rank = take(4 * N * P);
  const seed = take(4 * N);
  const done = take(N);
  const over = take(N);
  const acting = take(N * E);
  const mask = take(N * E * A);
  const obs = take(N * E * D);
  expect(at).toBe(reply.length);
  return { N, E, D, A, P, vp, rank, seed, done, over, acting, mask, obs };
}

describe('wonderlab env', () => {
  it('opens, resets and steps a vector of games to their ends, then hands out records that replay', () => {
    const { server, reply } = open({ games: 3, players: 4, seats: [null, 'rulebased', null, 'random'], seed: 10 });
    expect(reply[0]).toBe(0);
    const opened = JSON.parse(reply.subarray(1).toString());
    expect(opened).toMatchObject({ external: [0, 2], observationSize: observationSize(4), actionCount: ACTION_COUNT });
    // Every action's name, so that a client's messages name cards (a name two Ages share, its Age).
    expect(opened.actionNames.length).toBe(ACTION_COUNT);
    expect(opened.actionNames.slice(0, 3)).toEqual(['build Lumber Yard', 'stage Lumber Yard', 'discard Lumber Yard']);
    expect(opened.actionNames.filter((n: string) => n.endsWith(' Loom (Age I)') || n.endsWith(' Loom (Age II)')).length).toBe(10);
    expect(new Set(opened.actionNames).size).toBe(ACTION_COUNT);
    const resetBody = Buffer.alloc(4 + 12 * 3);
    resetBody.writeUInt32LE(3, 0);
    for (let g = 0; g < 3; g++) {
      resetBody.writeUInt32LE(g, 4 + 12 * g);
      resetBody.writeDoubleLE(g === 1 ? 777 : NaN, 8 + 12 * g);
    }
    let state = block(handle(server, request(OP_RESET, resetBody), () => {}));
    expect([0, 1, 2].map((g) => state.seed.readUInt32LE(4 * g))).toEqual([10, 777, 12]);
    let steps = 0;
    const ended = new Set<number>();
    while (ended.size < 3) {
      const actions = Buffer.alloc(4 * state.N * state.E);
      for (let slot = 0; slot < state.N * state.E; slot++) {
        let a = -1;
        if (state.acting[slot]) a = state.mask.subarray(slot * ACTION_COUNT, (slot + 1) * ACTION_COUNT).lastIndexOf(1);
        actions.writeInt32LE(a, 4 * slot);
      }
      state = block(handle(server, request(OP_STEP, actions), () => {}));
      for (let g = 0; g < 3; g++) if (state.done[g]) ended.add(g);
      steps++;
    }
    expect(steps).toBeGreaterThanOrEqual(18);
    for (let g = 0; g < 3; g++) {
      expect(state.over[g]).toBe(1);
      const rec = handle(server, request(OP_RECORD, Buffer.from([g, 0, 0, 0, 0])), () => {});
      const record = JSON.parse(rec.subarray(1).toString()) as GameRecord;
      expect(replay(record).matches).toBe(true);
      expect(record.result!.scores.map((x) => x.total)).toEqual([0, 1, 2, 3].map((p) => state.vp.readInt32LE(4 * (g * 4 + p))));
    }
  });

  it('refuses an illegal action with its name and the legal ones, and changes nothing', () => {
    const { server } = open({ games: 1, players: 3, seats: [null, null, null], seed: 5 });
    const first = block(handle(server, request(OP_RESET, Buffer.from([0, 0, 0, 0])), () => {}));
    const illegal = first.mask.subarray(0, ACTION_COUNT).indexOf(0);
    const actions = Buffer.alloc(12);
    for (let e = 0; e < 3; e++) actions.writeInt32LE(e === 0 ? illegal : first.mask.subarray(e * ACTION_COUNT).indexOf(1), 4 * e);
    const refused = handle(server, request(OP_STEP, actions), () => {});
    expect(refused[0]).toBe(1);
    // Each action numbered and named: the illegal one, then every legal one.
    const name = String.raw`\w+ [A-Za-z ]+(?: \(Age I+\))?`;
    expect(refused.subarray(1).toString()).toMatch(new RegExp(`^step: game 0, seat 0: action ${illegal} \\(${name}\\) is not legal; legal: \\d+ \\(${name}\\)(, \\d+ \\(${name}\\))*$`));
    actions.writeInt32LE(ACTION_COUNT + 5, 0);
    expect(handle(server, request(OP_STEP, actions), () => {}).subarray(1).toString()).toMatch(new RegExp(`^step: game 0, seat 0: action ${ACTION_COUNT + 5} \\(outside 0\\.\\.${ACTION_COUNT - 1}\\) is not legal; legal: \\d+ `));
    const again = block(handle(server, request(OP_RESET, Buffer.from([0, 0, 0, 0])), () => {}));
    expect(again.obs.equals(first.obs)).toBe(true);
  });

  it('refuses a bad open with the field named, an unknown agent in the lab\'s words', () => {
    expect(open({ games: 0, players: 3, seats: [null, null, null] }).reply.subarray(1).toString()).toMatch(/^open: games: /);
    expect(open({ games: 1, players: 3, seats: [null, null] }).reply.subarray(1).toString()).toBe('open: seats: 2 given for 3 players');
    const unknown = open({ games: 1, players: 3, seats: [null, 'nosuch', null] }).reply;
    expect(unknown[0]).toBe(1);
    expect(unknown.subarray(1).toString()).toMatch(/^open: seats\.1: .*nosuch/);
  });

  it('plays a game whose seats are all agents as the lab plays that seed', () => {
    const agents = ['rulebased', 'random', 'mcts(it=20,time=0)'];
    const { server } = open({ games: 1, players: 3, seats: agents, seed: 4321 });
    const record = JSON.parse(handle(server, request(OP_RECORD, Buffer.from([0, 0, 0, 0, 0])), () => {}).subarray(1).toString()) as GameRecord;
    const lab = playGame({ id: 'x', index: 0, seed: 4321, set: -1, deal: 0, seating: 0, agents, sides: 'random', open: false });
    expect(record.result!.scores.map((x) => x.total)).toEqual(lab.players.map((p) => p.score.total));
    expect(record.cities!.map((c) => c.built)).toEqual(lab.players.map((p) => p.built));
  });

  it('refuses the record of a game still in play, and goes on', () => {
    const { server } = open({ games: 1, players: 3, seats: [null, 'random', 'random'], seed: 9 });
    const state = block(handle(server, request(OP_RESET, Buffer.from([0, 0, 0, 0])), () => {}));
    const refused = handle(server, request(OP_RECORD, Buffer.from([0, 0, 0, 0, 0])), () => {});
    expect(refused[0]).toBe(1);
    expect(refused.subarray(1).toString()).toBe('record: game 0 is still in play (age 1, turn 1); its record is made once it ends, and no game of it has finished yet');
    const actions = Buffer.alloc(4);
    actions.writeInt32LE(state.mask.indexOf(1), 0);
    expect(block(handle(server, request(OP_STEP, actions), () => {})).over[0]).toBe(0);
  });

  it('answers every malformed request with an error naming its op and the fault, and changes nothing', () => {
    const spec = { games: 2, players: 3, seats: [null, 'random', null], seed: 3 };
    const bad: [Buffer, string][] = [
      [Buffer.alloc(0), 'empty request: a request starts with its op byte (1 OPEN, 2 RESET, 3 STEP, 4 RECORD)'],
      [Buffer.from([9]), 'unknown op 9: the ops are 1 OPEN, 2 RESET, 3 STEP, 4 RECORD'],
      [Buffer.from([0]), 'unknown op 0: the ops are 1 OPEN, 2 RESET, 3 STEP, 4 RECORD'],
      [request(OP_OPEN, Buffer.from('{"games": 1,')), 'open: the request is not JSON: '],
      [request(OP_OPEN, Buffer.alloc(0)), 'open: the request is not JSON: '],
      [request(OP_RESET, Buffer.alloc(0)), 'reset: 0 bytes after the op byte; expected u32 k, then k × (u32 game, f64 seed)'],
      [request(OP_RESET, Buffer.from([1, 0, 0])), 'reset: 3 bytes after the op byte; expected u32 k, then k × (u32 game, f64 seed)'],
      [request(OP_RESET, Buffer.from([1, 0, 0, 0, 0, 0])), 'reset: 6 bytes after the op byte for k = 1; expected 16 (u32 k, then 12 per game)'],
      [request(OP_RESET, Buffer.from([0xff, 0xff, 0xff, 0xff])), 'reset: 4 bytes after the op byte for k = 4294967295; expected 51539607544 (u32 k, then 12 per game)'],
      [request(OP_RESET, Buffer.concat([Buffer.from([2, 0, 0, 0]), Buffer.alloc(24)])), 'reset: game 0 is listed twice'],
      [request(OP_RESET, Buffer.concat([Buffer.from([1, 0, 0, 0, 7, 0, 0, 0]), Buffer.alloc(8)])), 'reset: game 7: there are 2 games (0–1)'],
      ...[-1, 1.5, 2 ** 32 + 5, Infinity].map((seed): [Buffer, string] => {
        const f64 = Buffer.alloc(8);
        f64.writeDoubleLE(seed);
        return [request(OP_RESET, Buffer.concat([Buffer.from([1, 0, 0, 0, 0, 0, 0, 0]), f64])), `reset: game 0: seed ${seed} is not an integer from 0 to 4294967295`];
      }),
      [request(OP_STEP, Buffer.alloc(0)), 'step: 0 actions given, 4 expected (games × external seats)'],
      [request(OP_STEP, Buffer.alloc(7)), 'step: 7 bytes after the op byte are not whole i32 actions'],
      [request(OP_RECORD, Buffer.alloc(0)), 'record: 0 bytes after the op byte; expected 5 (u32 game, u8 which)'],
      [request(OP_RECORD, Buffer.from([0, 0, 0])), 'record: 3 bytes after the op byte; expected 5 (u32 game, u8 which)'],
      [request(OP_RECORD, Buffer.alloc(6)), 'record: 6 bytes after the op byte; expected 5 (u32 game, u8 which)'],
      [request(OP_RECORD, Buffer.from([0, 0, 0, 0, 2])), 'record: which 2: expected 0 (the game in play) or 1 (the last finished)'],
      [request(OP_RECORD, Buffer.from([5, 0, 0, 0, 1])), 'record: game 5: there are 2 games'],
    ];
    // Two servers given the same good requests; one also gets every bad one, and their replies
    // stay the same byte for byte.
    const plain = open(spec).server;
    let probed = open(spec).server;
    const reset = request(OP_RESET, Buffer.concat([Buffer.from([2, 0, 0, 0]), Buffer.from([0, 0, 0, 0]), Buffer.alloc(8, 0xff), Buffer.from([1, 0, 0, 0]), Buffer.alloc(8, 0xff)]));
    const good = (s: EnvServer, body: Buffer) => handle(s, body, () => {});
    const first = good(plain, reset);
    expect(good(probed, reset).equals(first)).toBe(true);
    let state = block(first);
    for (let turn = 0; turn < 3; turn++) {
      for (const [body, message] of bad) {
        const reply = handle(probed, body, (s) => (probed = s!));
        expect(reply[0], message).toBe(1);
        const text = reply.subarray(1).toString();
        expect(text.startsWith(message), `${text} (expected ${message})`).toBe(true);
        expect(text).not.toMatch(/out of range|offset/);
      }
      const actions = Buffer.alloc(4 * state.N * state.E);
      for (let slot = 0; slot < state.N * state.E; slot++) actions.writeInt32LE(state.acting[slot] ? state.mask.subarray(slot * ACTION_COUNT).indexOf(1) : -1, 4 * slot);
      const next = good(plain, request(OP_STEP, actions));
      expect(good(probed, request(OP_STEP, actions)).equals(next)).toBe(true);
      state = block(next);
    }
  });

  it('names the op of a request that fails unexpectedly, and closes the environment it may have changed part-way', () => {
    const { server } = open({ games: 1, players: 3, seats: [null, 'random', 'random'] });
    const boom = () => {
      throw new TypeError('boom');
    };
    let current: EnvServer | undefined = server;
    // RECORD changes nothing, so the environment stays.
    vi.spyOn(EnvServer.prototype, 'record').mockImplementation(boom);
    expect(handle(current, request(OP_RECORD, Buffer.from([0, 0, 0, 0, 1])), (s) => (current = s)).subarray(1).toString()).toBe('record: internal error (TypeError: boom)');
    expect(current).toBe(server);
    vi.spyOn(EnvServer.prototype, 'stepAll').mockImplementation(boom);
    const reply = handle(current, request(OP_STEP, Buffer.alloc(4)), (s) => (current = s));
    expect(reply[0]).toBe(1);
    expect(reply.subarray(1).toString()).toBe('step: internal error (TypeError: boom); the environment is closed, as the request may have changed it part-way: send OPEN again');
    expect(current).toBeUndefined();
    expect(handle(current, request(OP_RESET, Buffer.from([0, 0, 0, 0])), () => {}).subarray(1).toString()).toBe('reset: no environment open: send OPEN first');
  });
});

/** The processes a test started, ended after it (a failed test may leave one running). */
const running = new Set<ChildProcess>();

afterEach(() => {
  vi.restoreAllMocks();
  for (const proc of running) if (proc.exitCode === null && proc.signalCode === null) proc.kill();
  running.clear();
});

const BIN = resolve(import.meta.dirname, '../../bin/wonderlab.mjs');
/** Long enough for a loaded machine; a server that hangs fails the test instead of stalling it. */
const PATIENCE_MS = 30_000;

function frame(body: Buffer): Buffer {
  const head = Buffer.alloc(4);
  head.writeUInt32LE(body.length, 0);
  return Buffer.concat([head, body]);
}

/** The real `wonderlab env` process, spoken to over its stdin and stdout. */
function envProcess() {
  const proc = spawn(process.execPath, [BIN, 'env'], { stdio: ['pipe', 'pipe', 'pipe'] });
  running.add(proc);
  let out = Buffer.alloc(0);
  let err = '';
  let wake = () => {};
  proc.stdout.on('data', (chunk: Buffer) => {
    out = Buffer.concat([out, chunk]);
    wake();
  });
  proc.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  // A write to a server that died fails in its callback (send); the stream's event is the same.
  proc.stdin.on('error', () => {});
  // 'close', not 'exit': by then all it wrote has been read.
  const exited = new Promise<number | null>((done) => proc.on('close', (code) => done(code)));
  const within = <T>(what: string, promise: Promise<T>) =>
    Promise.race([promise, new Promise<never>((_, fail) => setTimeout(() => fail(new Error(`no ${what} within ${PATIENCE_MS} ms: the server hangs`)), PATIENCE_MS).unref())]);
  // A reply that can no longer come fails at once, with what the server said.
  const died = exited.then((code) => {
    throw new Error(`the server exited (${code}) before replying: ${err}`);
  });
  died.catch(() => {});
  return {
    proc,
    /** Writes bytes; resolves once the pipe has taken them. */
    send: (bytes: Buffer) => within('write', new Promise<void>((done, fail) => proc.stdin.write(bytes, (e) => (e ? fail(e) : done())))),
    /** The next reply frame's body. */
    reply: () =>
      within(
        'reply',
        new Promise<Buffer>((done, fail) => {
          void died.catch(fail);
          const take = () => {
            if (out.length < 4 || out.length < 4 + out.readUInt32LE(0)) return;
            const body = out.subarray(4, 4 + out.readUInt32LE(0));
            out = out.subarray(4 + body.length);
            wake = () => {};
            done(body);
          };
          wake = take;
          take();
        }),
      ),
    /** Closes its input; resolves to its exit code and what it printed on stderr. */
    end: async () => {
      proc.stdin.end();
      const code = await within('exit', exited);
      return { code, stderr: err, unread: out.length };
    },
    /** The most memory it has held (VmHWM), in KiB. */
    peakKiB: () => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${proc.pid}/status`, 'utf8'))![1]),
  };
}

const OPEN_3 = request(OP_OPEN, Buffer.from(JSON.stringify({ games: 1, players: 3, seats: [null, 'random', 'random'], seed: 1 })));
const RESET_0 = request(OP_RESET, Buffer.from([0, 0, 0, 0]));

describe('wonderlab env, the process', () => {
  it('stays up after a refused request (the record of a game in play used to end it) and exits 0 quietly at a clean end of input', async () => {
    const env = envProcess();
    await env.send(frame(OPEN_3));
    expect((await env.reply())[0]).toBe(0);
    await env.send(frame(request(OP_RECORD, Buffer.from([0, 0, 0, 0, 0]))));
    const refused = await env.reply();
    expect(refused[0]).toBe(1);
    expect(refused.subarray(1).toString()).toMatch(/^record: game 0 is still in play/);
    await env.send(frame(RESET_0));
    expect((await env.reply())[0]).toBe(0);
    expect(await env.end()).toEqual({ code: 0, stderr: '', unread: 0 });
  });

  it('skips a frame over the size limit after an error reply, and answers the next request', async () => {
    const env = envProcess();
    const big = Buffer.alloc(MAX_REQUEST_BYTES + 1, 0);
    big[0] = OP_STEP;
    await env.send(frame(big));
    const refused = await env.reply();
    expect(refused[0]).toBe(1);
    expect(refused.subarray(1).toString()).toBe(`request of ${MAX_REQUEST_BYTES + 1} bytes is over the limit of ${MAX_REQUEST_BYTES} bytes (MAX_REQUEST_BYTES): its bytes are skipped`);
    await env.send(frame(OPEN_3));
    expect((await env.reply())[0]).toBe(0);
    expect(await env.end()).toEqual({ code: 0, stderr: '', unread: 0 });
  });

  it('answers a length prefix of 4 GB at once and discards what follows without holding it', async () => {
    const env = envProcess();
    await env.send(frame(OPEN_3));
    expect((await env.reply())[0]).toBe(0);
    const before = env.peakKiB();
    const length = 0xfffffff0;
    const head = Buffer.alloc(4);
    head.writeUInt32LE(length, 0);
    await env.send(head);
    expect((await env.reply()).subarray(1).toString()).toBe(`request of ${length} bytes is over the limit of ${MAX_REQUEST_BYTES} bytes (MAX_REQUEST_BYTES): its bytes are skipped`);
    const mib = Buffer.alloc(1 << 20, 0xab);
    for (let i = 0; i < 256; i++) await env.send(mib);
    // 256 MiB went through. Each chunk read is a new buffer that the GC frees in its own time, so
    // the peak rises by some tens of MiB and stays there; holding the bytes would add them all.
    expect(env.peakKiB() - before).toBeLessThan(128 * 1024);
    expect(await env.end()).toEqual({ code: 1, stderr: `wonderlab env: input ended inside a frame: ${4 + 256 * (1 << 20)} of ${4 + length} bytes received\n`, unread: 0 });
  });

  it.each([
    ['a length prefix', Buffer.from([10, 0]), 'input ended inside a frame\'s length prefix: 2 of 4 bytes received'],
    ['a body', frame(RESET_0).subarray(0, 7), 'input ended inside a frame: 7 of 9 bytes received'],
  ])('exits 1 with one line on stderr when input ends inside %s', async (_, bytes, message) => {
    const env = envProcess();
    await env.send(frame(OPEN_3));
    expect((await env.reply())[0]).toBe(0);
    await env.send(bytes);
    expect(await env.end()).toEqual({ code: 1, stderr: `wonderlab env: ${message}\n`, unread: 0 });
  });
});
