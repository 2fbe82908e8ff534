import { describe, expect, it } from 'vitest';
import { Sweep, SweepSpecError, Tournament, cellTournament, sweepSize, parseSweepSpec, playGame } from '../src/lab/index.js';
import { newGame } from '../src/engine/index.js';

const base = {
  name: 'C sweep',
  players: 3,
  seats: [{ agent: 'mcts', params: { it: 5, c: [0.2, 0.4, 0.6] } }, 'rulebased', 'rulebased'],
  wonders: { mode: 'thesis' },
  deals: { firstSeed: 7, count: 2 },
};

function fieldOf(input: unknown): string {
  try {
    parseSweepSpec(input);
  } catch (err) {
    if (err instanceof SweepSpecError) return err.field;
    throw err;
  }
  throw new Error('expected the spec to be rejected');
}

describe('sweep specs', () => {
  it('expand into one cell per swept value and 21 × deals games per cell', () => {
    const sweep = new Sweep(parseSweepSpec(base));
    expect(sweep.cells.map((c) => c.agents[0])).toEqual(['mcts(it=5,c=0.2)', 'mcts(it=5,c=0.4)', 'mcts(it=5,c=0.6)']);
    expect(sweep.gamesPerCell).toBe(42);
    expect(sweep.size).toBe(126);
    const ids = new Set(Array.from({ length: sweep.size }, (_, k) => sweep.game(k).id));
    expect(ids.size).toBe(126);
    expect(sweep.game(43).id).toBe('c1-s0-d1-o0');
  });

  it('expansion is deterministic and a game equals the one `wonderlab play` would play', () => {
    const a = new Sweep(parseSweepSpec(base));
    const b = new Sweep(parseSweepSpec(structuredClone(base)));
    expect(a.game(100)).toEqual(b.game(100));
    const spec = parseSweepSpec(base);
    const g = a.game(50);
    const t = new Tournament(cellTournament(spec, a.cells[g.cell]));
    const local = t.game(50 - a.gamesPerCell);
    expect({ ...g, id: local.id, index: local.index, cell: undefined }).toEqual({ ...local, cell: undefined });
    const strip = (s: ReturnType<typeof playGame>) => ({ ...s, id: '', index: 0, players: s.players.map((p) => ({ ...p, decisionMs: 0 })) });
    expect(strip(playGame(g))).toEqual(strip(playGame(local)));
  });

  it('a matchup plays every ordered pair of specs in the two seats', () => {
    const sweep = new Sweep(
      parseSweepSpec({ ...base, seats: ['mcts:5', 'mcts:5', 'rulebased'], matchup: { specs: ['mcts:5', 'mcts:10', 'mcts:20'], seats: [0, 1] } }),
    );
    expect(sweep.cells.map((c) => c.agents.slice(0, 2).join(' v '))).toEqual([
      'mcts:5 v mcts:10',
      'mcts:5 v mcts:20',
      'mcts:10 v mcts:5',
      'mcts:10 v mcts:20',
      'mcts:20 v mcts:5',
      'mcts:20 v mcts:10',
    ]);
  });

  it('bad specs name the offending field', () => {
    expect(fieldOf({ ...base, name: '' })).toBe('name');
    expect(fieldOf({ ...base, players: 9 })).toBe('players');
    expect(fieldOf({ ...base, players: 4 })).toBe('seats');
    // A numeric option's value as text is the option's (and the list item's) problem; a number out of range the seat's agent's.
    expect(fieldOf({ ...base, seats: [{ agent: 'mcts', params: { it: ['x'] } }, 'rulebased', 'rulebased'] })).toBe('seats.0.params.it.0');
    expect(fieldOf({ ...base, seats: [{ agent: 'mcts', params: { c: '0.4' } }, 'rulebased', 'rulebased'] })).toBe('seats.0.params.c');
    expect(fieldOf({ ...base, seats: [{ agent: 'mcts', params: { it: [0] } }, 'rulebased', 'rulebased'] })).toBe('seats.0');
    expect(fieldOf({ ...base, seats: ['mcts', 'rulebased', 'nonsense'] })).toBe('seats.2');
    expect(fieldOf({ ...base, deals: { count: 0 } })).toBe('deals.count');
    expect(fieldOf({ ...base, wonders: { mode: 'fixed', sets: [['Rhodes', 'Giza', 'Atlantis']] } })).toBe('wonders.sets.0.2');
    expect(fieldOf({ ...base, seating: 'shuffle' })).toBe('seating');
    expect(fieldOf({ ...base, matchup: { specs: ['mcts:5', 'bogus'], seats: [1, 2] } })).toBe('matchup.specs.1');
    expect(fieldOf({ ...base, matchup: { specs: ['mcts:5', 'random', 'mcts:5'], seats: [1, 2] } })).toBe('matchup.specs.2');
    // Seat 0 sweeps C: it cannot also take the matchup's agents.
    expect(fieldOf({ ...base, matchup: { specs: ['mcts:5', 'random'], seats: [0, 1] } })).toBe('seats.0');
    expect(fieldOf({ ...base, extra: 1 })).toBe('extra');
  });
});

describe('duplicated boards (the 2014 paper tuning design)', () => {
  const spec = parseSweepSpec({
    name: 'dup',
    players: 3,
    seats: ['rulebased', 'rulebased-robilliard', 'random'],
    wonders: { mode: 'duplicated', sets: 3 },
    deals: { count: 2 },
    seating: 'swap',
    sides: 'A',
  });
  const sweep = new Sweep(spec);

  it('gives the compared seats one board and the others boards of their own, in every game', () => {
    expect(sweep.size).toBe(3 * 2 * 2);
    expect(sweepSize(spec).total).toBe(sweep.size);
    const shared = new Set<number>();
    for (let k = 0; k < sweep.size; k++) {
      const plan = sweep.game(k);
      const [a, b, c] = plan.boards!;
      expect(a).toBe(b);
      expect(c).not.toBe(a);
      expect(plan.duplicateBoards).toBe(true);
      shared.add(a);
    }
    expect(shared.size).toBeGreaterThan(1);
  });

  it('plays: both compared agents build the same wonder', () => {
    const g = playGame(sweep.game(1));
    expect(g.players[0].city).toBe(g.players[1].city);
    expect(g.players[2].city).not.toBe(g.players[0].city);
  });

  it('the shared seats follow wonders.seats, and a bad pair names the field', () => {
    const other = new Sweep(parseSweepSpec({ ...spec, wonders: { mode: 'duplicated', sets: 1, seats: [1, 2] } }));
    const [a, b, c] = other.game(0).boards!;
    expect(b).toBe(c);
    expect(a).not.toBe(b);
    expect(fieldOf({ ...spec, wonders: { mode: 'duplicated', seats: [2, 2] } })).toBe('wonders.seats');
  });

  it('a game without duplicateBoards still refuses a repeated board', () => {
    expect(() => newGame({ players: 3, seed: 1, boards: [0, 0, 1] })).toThrow(/only once/);
  });
});

describe('matchup pairs', () => {
  it('plays only the listed ordered pairs, in their order', () => {
    const spec = parseSweepSpec({
      name: 'pairs',
      players: 3,
      seats: ['random', 'random', 'rulebased'],
      matchup: { specs: ['mcts(it=10,c=0.1)', 'mcts(it=10,c=0.2)', 'mcts(it=10,c=0.3)'], seats: [0, 1], pairs: [[0, 1], [1, 2], [2, 0]] },
      deals: { count: 1 },
    });
    const sweep = new Sweep(spec);
    expect(sweep.cells.map((c) => c.agents.slice(0, 2))).toEqual([
      ['mcts(it=10,c=0.1)', 'mcts(it=10,c=0.2)'],
      ['mcts(it=10,c=0.2)', 'mcts(it=10,c=0.3)'],
      ['mcts(it=10,c=0.3)', 'mcts(it=10,c=0.1)'],
    ]);
    expect(sweepSize(spec).cells).toBe(3);
  });

  it('a pair outside the specs, or of one spec with itself, names the field', () => {
    const bad = (pairs: unknown) => fieldOf({ name: 'x', players: 3, seats: ['random', 'random', 'random'], matchup: { specs: ['random', 'rulebased'], seats: [0, 1], pairs }, deals: { count: 1 } });
    expect(bad([[0, 2]])).toBe('matchup.pairs.0');
    expect(bad([[0, 1], [1, 1]])).toBe('matchup.pairs.1');
  });
});
