/**
 * The stored forms of summaries and records (lab/results/codec.ts). Fixtures written by this form's
 * first build pin it: a 4-player game of two MCTS seats, a rule-based and a random one, with
 * Babylon's seventh card and Halicarnassus's build from the discard pile in it, stored as
 * packSummary and packLog give it (base64), beside the summary and record it stands for. A
 * change of the catalogue's order or of the forms fails here until the forms get new numbers.
 */
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { planTournament, playGame, type GameSummary } from '../src/lab/index.js';
import { pack, packLog, packSummary, unpackLog, unpackRecord, unpackSummary } from '../src/lab/results/codec.js';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');
const storedSummary = Buffer.from(fixture('stored-summary.b64').trim(), 'base64');
const storedLog = Buffer.from(fixture('stored-log.b64').trim(), 'base64');

const AGENTS = ['random', 'rulebased', 'mcts(it=6)', 'mcts:8,10,100', 'RuleBased'];

describe('stored forms', () => {
  it('the stored fixtures read as the summary and the record they were written from, and write back byte for byte', () => {
    const summary = JSON.parse(fixture('stored-summary.json')) as GameSummary;
    expect(unpackSummary(storedSummary)).toEqual(summary);
    expect(JSON.stringify(unpackSummary(storedSummary))).toBe(JSON.stringify(summary));
    expect(packSummary(summary).equals(storedSummary)).toBe(true);
    const record = JSON.parse(fixture('stored-log.record.json'));
    expect(unpackRecord(storedLog)).toEqual(record);
    expect(packLog(unpackLog(storedLog)).equals(storedLog)).toBe(true);
    expect(record.steps.map((s: { phase: string }) => s.phase)).toEqual(expect.arrayContaining(['seventh', 'discardBuild']));
  });

  it('any summary reads back as itself, fields in the same order, and smaller than the deflated JSON it replaced', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 3, max: 7 }),
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        fc.boolean(),
        fc.array(fc.constantFrom(...AGENTS), { minLength: 7, maxLength: 7 }),
        (players, seed, open, agents) => {
          const [plan] = planTournament({ agents: agents.slice(0, players), setup: 'random', deals: 1, seed, seating: 'fixed', sides: 'random', open });
          const summary = playGame(plan);
          const stored = packSummary(summary);
          expect(JSON.stringify(unpackSummary(stored))).toBe(JSON.stringify(summary));
          expect(stored.length).toBeLessThan(pack(summary).length);
        },
      ),
      { numRuns: 30 },
    );
  });

  it('a game an outside agent forfeited keeps its forfeits; one without has no such field (the ten fields stored before)', () => {
    const summary = JSON.parse(fixture('stored-summary.json')) as GameSummary;
    const forfeited = { ...summary, forfeits: [{ seat: 1, reason: "outside agent 'x' exited with code 3 (while deciding move 4)" }] };
    expect(JSON.stringify(unpackSummary(packSummary(forfeited)))).toBe(JSON.stringify(forfeited));
    expect(unpackSummary(packSummary(summary))).not.toHaveProperty('forfeits');
    expect(JSON.parse(packSummary(summary).toString('utf8', 2))).toHaveLength(10);
  });

  it('a summary stored before this form (deflated JSON) still reads', () => {
    const summary = JSON.parse(fixture('stored-summary.json')) as GameSummary;
    expect(unpackSummary(pack(summary))).toEqual(summary);
  });

  it('a summary it cannot store or read is refused with a clear error', () => {
    const summary = JSON.parse(fixture('stored-summary.json')) as GameSummary;
    const odd = { ...summary, players: summary.players.map((p, i) => (i === 1 ? { ...p, built: [...p.built, 'Crystal Palace'] } : p)) };
    expect(() => packSummary(odd)).toThrow(/no card named 'Crystal Palace'/);
    const future = Buffer.from(storedSummary);
    future[1] = 9;
    expect(() => unpackSummary(future)).toThrow(/summary format 9 is not known/);
    expect(() => unpackSummary(storedLog)).toThrow(/summary format 1 is not known/);
    expect(() => unpackLog(storedSummary)).toThrow(/move log format 2 is not known/);
  });
});
