import { describe, expect, it } from 'vitest';
import { Sweep, SweepSpecError, Tournament, cellTournament, parseSweepSpec, playGame } from '../src/lab/index.js';

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
    expect(fieldOf({ ...base, seats: [{ agent: 'mcts', params: { it: ['x'] } }, 'rulebased', 'rulebased'] })).toBe('seats.0');
    expect(fieldOf({ ...base, seats: ['mcts', 'rulebased', 'nonsense'] })).toBe('seats.2');
    expect(fieldOf({ ...base, deals: { count: 0 } })).toBe('deals.count');
    expect(fieldOf({ ...base, wonders: { mode: 'fixed', sets: [['Rhodes', 'Giza', 'Atlantis']] } })).toBe('wonders.sets.0.2');
    expect(fieldOf({ ...base, seating: 'shuffle' })).toBe('seating');
    expect(fieldOf({ ...base, matchup: { specs: ['mcts:5', 'bogus'], seats: [1, 2] } })).toBe('matchup.specs.1');
    expect(fieldOf({ ...base, matchup: { specs: ['mcts:5', 'random', 'mcts:5'], seats: [1, 2] } })).toBe('matchup.specs.2');
    // Seat 0 sweeps C: it cannot also take the matchup's agents.
    expect(fieldOf({ ...base, matchup: { specs: ['mcts:5', 'random'], seats: [0, 1] } })).toBe('seats.0');
    expect(fieldOf({ ...base, extra: 1 })).toBe('(spec)');
  });
});
