/**
 * `wonderlab env` (cli/env-server.ts) without a pipe: requests as bytes, replies as bytes. The
 * Python side (python/tests) drives the same server through a real process.
 */
import { describe, expect, it } from 'vitest';
import { ACTION_COUNT, observationSize } from '../src/agents/encoding.js';
import { EnvServer, OP_OPEN, OP_RECORD, OP_RESET, OP_STEP, handle } from '../src/cli/env-server.js';
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
    expect(JSON.parse(reply.subarray(1).toString())).toMatchObject({ external: [0, 2], observationSize: observationSize(4), actionCount: ACTION_COUNT });
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
    expect(refused.subarray(1).toString()).toMatch(new RegExp(`^step: game 0, seat 0: action ${illegal} \\(\\w+ [A-Za-z ]+\\) is not legal; legal: \\w+`));
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
});
