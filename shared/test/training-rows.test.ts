/**
 * Training rows (lab/results/training-rows.ts) from logged games: one row per decision of the
 * chosen seats, each row the seat's own observation and legal actions at that point, the search's
 * whole visit distribution (a `training` log keeps every root move), and the game's outcome from
 * the row seat's place. The .npz archive is read back with NumPy itself.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ACTION_COUNT, SEAT_FIELDS, actionIndex, observationSize, writeObservation } from '../src/agents/encoding.js';
import { actingSeats, newGame, step } from '../src/engine/index.js';
import { playGame, type GamePlan } from '../src/lab/game/game.js';
import { readNpz } from '../src/lab/results/npz.js';
import { TrainingSpool, trainingArchive } from '../src/lab/results/training-archive.js';
import { TrainingRows } from '../src/lab/results/training-rows.js';

const plan = (seed: number, agents: string[]): GamePlan => ({ id: `g${seed}`, index: seed, seed, set: -1, deal: seed, seating: 0, agents, sides: 'random', open: false });
const AGENTS = ['mcts(it=200,time=0)', 'rulebased', 'mcts-strong(it=60,time=0)'];

describe('a training log', () => {
  it('keeps every root move: the visits add up to the iterations, where the 8 most visited do not', () => {
    let short = 0;
    for (const seed of [1, 2]) {
      const top = playGame(plan(seed, AGENTS), { record: true }).log!;
      const all = playGame(plan(seed, AGENTS), { record: 'training' }).log!;
      expect(all.moves).toEqual(top.moves);
      for (const [i, search] of all.searches.entries()) {
        const visits = search.moves.reduce((a, m) => a + m.visits, 0);
        if (search.carried === undefined) expect(visits).toBe(search.iterations);
        else expect(visits).toBeLessThanOrEqual(search.iterations + search.carried);
        const topVisits = top.searches[i].moves.reduce((a, m) => a + m.visits, 0);
        if (topVisits < visits) short++;
      }
    }
    expect(short, 'some decisions have more than 8 root moves').toBeGreaterThan(0);
  });
});

describe('TrainingRows', () => {
  const games = [3, 4, 5].map((seed) => playGame(plan(seed, AGENTS), { record: 'training' }));

  it('has one row per decision of the chosen seats, each the seat’s own observation, its legal actions and the outcome from its place', () => {
    const rows = new TrainingRows(3);
    games.forEach((g, i) => rows.addGame(g.log!, i, (seat) => seat !== 1));
    const cols = Object.fromEntries(rows.columns().map((c) => [c.name, c]));
    const decisions = games.reduce((a, g) => a + g.players[0].decisions + g.players[2].decisions, 0);
    expect(rows.rows).toBe(decisions);
    const obsSize = observationSize(3);
    expect(cols.obs.data.length).toBe(rows.rows * obsSize);
    // Replay the games beside the rows: every row's observation is the state's, in order.
    let r = 0;
    const want = new Uint8Array(obsSize);
    games.forEach((g) => {
      const s = newGame(g.log!.config);
      let at = 0;
      const moves = new Int32Array(3);
      while (!s.isOver()) {
        for (const seat of actingSeats(s)) {
          if (seat !== 1) {
            writeObservation(s, seat, want);
            expect(Array.from(cols.obs.data.subarray(r * obsSize, (r + 1) * obsSize))).toEqual(Array.from(want));
            expect(cols.action.data[r]).toBe(actionIndex(g.log!.moves[at]));
            expect(cols.seat.data[r]).toBe(seat);
            // Seat 0 keeps no tree between moves: its root visits are the decision's iterations.
            if (seat === 0) expect(cols.visits.data[r]).toBe(g.log!.searches.find((x) => x.at === at)!.iterations);
            // The outcome, from this seat's place: itself first, then its left neighbour.
            for (let k = 0; k < 3; k++) {
              expect(cols.vp.data[r * 3 + k]).toBe(g.players[(seat + k) % 3].score.total);
              expect(cols.rank.data[r * 3 + k]).toBe(g.players[(seat + k) % 3].rank);
            }
            r++;
          }
          moves[seat] = g.log!.moves[at++];
        }
        step(s, moves);
      }
    });
    expect(r).toBe(rows.rows);
    for (let i = 0; i < rows.rows; i++) {
      const mask = cols.mask.data.subarray(i * ACTION_COUNT, (i + 1) * ACTION_COUNT);
      const policy = cols.policy.data.subarray(i * ACTION_COUNT, (i + 1) * ACTION_COUNT);
      expect(mask[cols.action.data[i]]).toBe(1);
      let sum = 0;
      for (let a = 0; a < ACTION_COUNT; a++) {
        if (policy[a] > 0) expect(mask[a], `row ${i}: visits on an illegal action ${a}`).toBe(1);
        sum += policy[a];
      }
      expect(sum).toBeCloseTo(1, 5);
      // Every decision of these two seats searched.
      expect(cols.searched.data[i]).toBe(1);
    }
  });

  it('gives a rule-based seat the move it played as its policy, unsearched', () => {
    const rows = new TrainingRows(3);
    rows.addGame(games[0].log!, 0, (seat) => seat === 1);
    const cols = Object.fromEntries(rows.columns().map((c) => [c.name, c]));
    expect(rows.rows).toBe(games[0].players[1].decisions);
    for (let i = 0; i < rows.rows; i++) {
      expect(cols.searched.data[i]).toBe(0);
      expect(cols.policy.data[i * ACTION_COUNT + cols.action.data[i]]).toBe(1);
    }
  });

  it('refuses a log with a move that is not legal where it stands, keeping none of that game’s rows', () => {
    const rows = new TrainingRows(3);
    rows.addGame(games[0].log!, 0, () => true);
    const kept = rows.rows;
    const bad = { ...games[1].log!, moves: [...games[1].log!.moves] };
    bad.moves[10] = bad.moves[10] ^ 0x7f;
    expect(() => rows.addGame(bad, 1, () => true)).toThrow(/game 1: move 10 .* is not legal/);
    expect(rows.rows).toBe(kept);
    expect(() => rows.addGame(games[1].log!, 1, () => true)).not.toThrow();
  });

  it('writes an .npz archive that NumPy reads as the same arrays', async () => {
    const python = fileURLToPath(new URL('../../.venv/bin/python', import.meta.url));
    expect(existsSync(python), 'the Python environment (bash python/setup.sh) reads the archive').toBe(true);
    const rows = new TrainingRows(3);
    games.forEach((g, i) => rows.addGame(g.log!, i, () => true));
    const dir = mkdtempSync(join(tmpdir(), 'wl-npz-'));
    try {
      const file = join(dir, 'rows.npz');
      writeFileSync(file, await trainingArchive(rows, { sweep: 'test' }));
      const script = `
import json, sys, numpy as np
d = np.load(sys.argv[1])
out = {k: [list(d[k].shape), str(d[k].dtype), float(d[k].astype(np.float64).sum())] for k in d.files if k != 'meta_json'}
out['meta'] = json.loads(bytes(d['meta_json']).decode())
np.savez_compressed(sys.argv[2], **{k: d[k] for k in d.files})
print(json.dumps(out))`;
      const again = join(dir, 'again.npz');
      const run = spawnSync(python, ['-c', script, file, again], { encoding: 'utf8' });
      expect(run.status, run.stderr).toBe(0);
      const read = JSON.parse(run.stdout);
      const dtypes: Record<string, string> = { u1: 'uint8', i2: 'int16', i4: 'int32', f4: 'float32' };
      for (const c of rows.columns()) {
        const sum = Array.from(c.data as ArrayLike<number>).reduce((a, x) => a + x, 0);
        expect(read[c.name][0]).toEqual(c.width === 1 ? [rows.rows] : [rows.rows, c.width]);
        expect(read[c.name][1]).toBe(dtypes[c.dtype]);
        expect(read[c.name][2]).toBeCloseTo(sum, 1);
      }
      expect(read.meta).toMatchObject({ sweep: 'test', players: 3, rows: rows.rows, observationSize: observationSize(3), seatsAt: observationSize(3) - 3 * SEAT_FIELDS, seatFields: SEAT_FIELDS, actions: ACTION_COUNT });
      // And the other way: NumPy's own archive of the same arrays reads back equal here.
      const back = readNpz(readFileSync(again));
      for (const c of rows.columns()) expect(Buffer.from(back.get(c.name)!.data.buffer).equals(Buffer.from(c.data.buffer, c.data.byteOffset, c.data.byteLength))).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('spools a page to disk a few games at a time and streams the same archive as the rows in memory', async () => {
    const many = [6, 7, 8, 9, 10, 11].flatMap((seed) => [games[0], games[1], games[2]].map((g, k) => ({ log: g.log!, game: seed * 3 + k })));
    const rows = new TrainingRows(3);
    const spool = await TrainingSpool.create(3);
    const chunks: Buffer[] = [];
    try {
      // More games than one flush holds: the page's rows pass through the files.
      for (let i = 0; i < 40; i++) {
        const { log, game } = many[i % many.length];
        rows.addGame(log, game + i, (seat) => seat !== 1);
        spool.addGame(log, game + i, (seat) => seat !== 1);
        if (spool.full) await spool.flush();
      }
      const sink = new Writable({
        write(chunk: Buffer, _e, done) {
          chunks.push(chunk);
          done();
        },
      });
      await spool.writeArchive(sink, { sweep: 'spooled' });
    } finally {
      await spool.close();
    }
    const streamed = readNpz(Buffer.concat(chunks));
    const inMemory = readNpz(await trainingArchive(rows, { sweep: 'spooled' }));
    expect(spool.rows).toBe(rows.rows);
    expect([...streamed.keys()]).toEqual([...inMemory.keys()]);
    for (const [name, a] of inMemory) {
      expect(streamed.get(name)!.shape, name).toEqual(a.shape);
      expect(Buffer.from(streamed.get(name)!.data.buffer).equals(Buffer.from(a.data.buffer)), name).toBe(true);
    }
  });
});
