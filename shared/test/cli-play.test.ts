/**
 * `wonderlab play` as a user runs it: the real bin in a child process (built by `npm test`, i.e.
 * `tsc -b`, before vitest starts), its stdout, stderr, exit code and the JSON Lines it writes.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const BIN = resolve(import.meta.dirname, '../../bin/wonderlab.mjs');
const dir = mkdtempSync(join(tmpdir(), 'wonderlab-play-'));

function run(...args: string[]) {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function lines(path: string): Record<string, unknown>[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

interface Player {
  seat: number;
  agent: string;
  wonder: string;
  side: string;
  score: { total: number } & Record<string, number>;
  coins: number;
  stages: number;
  built: string[];
  winner: boolean;
  decisionMs?: number;
}

const AI = '--ai=random;rulebased;rulebased';

describe('wonderlab play', () => {
  it('plays 20 games: a table with both agents and 20 JSON lines', () => {
    const out = join(dir, 'games.jsonl');
    const r = run('play', AI, '--games', '20', '--out', out, '--quiet', '--threads', '1');
    expect(r.code, r.stderr).toBe(0);
    // --quiet: no progress line.
    expect(r.stderr).toBe('');
    const text = r.stdout.split('\n');
    expect(text[0]).toMatch(/^20 games \(20 deals\); setup random, seating fixed/);
    const header = text.findIndex((l) => /^agent\s+games\s+wins\s+ties/.test(l));
    expect(header).toBeGreaterThan(0);
    const rows = text.slice(header + 1).filter((l) => /^(random|rulebased)\s/.test(l));
    expect(rows).toHaveLength(2);
    // random plays one seat of 20 games, rulebased two seats.
    expect(rows.find((l) => l.startsWith('random'))).toMatch(/^random\s+20\s/);
    expect(rows.find((l) => l.startsWith('rulebased'))).toMatch(/^rulebased\s+40\s/);
    expect(r.stdout).toContain(`game summaries written to ${out}`);

    const games = lines(out);
    expect(games).toHaveLength(20);
    const ids = new Set<unknown>();
    games.forEach((g, i) => {
      expect(typeof g.id).toBe('string');
      ids.add(g.id);
      expect(g.index).toBe(i);
      expect(Number.isInteger(g.seed)).toBe(true);
      const players = g.players as Player[];
      expect(players).toHaveLength(3);
      expect(players.map((p) => p.seat)).toEqual([0, 1, 2]);
      expect(players.map((p) => p.agent)).toEqual(['random', 'rulebased', 'rulebased']);
      const best = Math.max(...players.map((p) => p.score.total));
      const atBest = players.filter((p) => p.score.total === best).length;
      for (const p of players) {
        expect(typeof p.wonder).toBe('string');
        expect(p.wonder.length).toBeGreaterThan(0);
        expect(['A', 'B']).toContain(p.side);
        expect(Number.isInteger(p.score.total)).toBe(true);
        const sum = ['military', 'treasury', 'wonder', 'civilian', 'commercial', 'guilds', 'science'].reduce((a, k) => a + p.score[k], 0);
        expect(p.score.total).toBe(sum);
        expect(p.coins).toBeGreaterThanOrEqual(0);
        expect(p.stages).toBeGreaterThanOrEqual(0);
        expect(p.stages).toBeLessThanOrEqual(4);
        expect(Array.isArray(p.built)).toBe(true);
        for (const c of p.built) expect(typeof c).toBe('string');
        expect(typeof p.winner).toBe('boolean');
        expect(p.winner).toBe(p.score.total === best && atBest === 1);
      }
      expect(new Set(players.map((p) => p.wonder)).size).toBe(3);
    });
    expect(ids.size).toBe(20);
    // The deals differ.
    expect(new Set(games.map((g) => g.seed)).size).toBe(20);
  });

  it('--threads 1 and --threads 2 write identical files, decision times aside', () => {
    const one = join(dir, 'one.jsonl');
    const two = join(dir, 'two.jsonl');
    const args = ['play', '--ai=mcts(it=3);rulebased;random', '--games', '12', '--seating', 'rotate', '--quiet'];
    const r1 = run(...args, '--threads', '1', '--out', one);
    const r2 = run(...args, '--threads', '2', '--out', two);
    expect(r1.code, r1.stderr).toBe(0);
    expect(r2.code, r2.stderr).toBe(0);
    expect(r1.stdout).toMatch(/; 1 thread$/m);
    expect(r2.stdout).toMatch(/; 2 threads$/m);
    const strip = (path: string) =>
      lines(path).map((g) => ({ ...g, players: (g.players as Player[]).map(({ decisionMs: _ms, ...p }) => p) }));
    const a = strip(one);
    const b = strip(two);
    expect(a).toHaveLength(36);
    expect(b).toEqual(a);
    // decisionMs was there to remove.
    expect((lines(one)[0].players as Player[])[0].decisionMs).toBeTypeOf('number');
  });

  it('the same command twice gives the same games; another --seed other games', () => {
    const a = join(dir, 'a.jsonl');
    const b = join(dir, 'b.jsonl');
    const c = join(dir, 'c.jsonl');
    expect(run('play', AI, '--games', '5', '--quiet', '--threads', '1', '--out', a).code).toBe(0);
    expect(run('play', AI, '--games', '5', '--quiet', '--threads', '1', '--out', b).code).toBe(0);
    expect(run('play', AI, '--games', '5', '--quiet', '--threads', '1', '--seed', '7', '--out', c).code).toBe(0);
    const seeds = (p: string) => lines(p).map((g) => g.seed);
    const totals = (p: string) => lines(p).map((g) => (g.players as Player[]).map((x) => x.score.total));
    expect(seeds(b)).toEqual(seeds(a));
    expect(totals(b)).toEqual(totals(a));
    expect(seeds(c)).not.toEqual(seeds(a));
  });

  it('--json prints the standings as parseable JSON', () => {
    const r = run('play', AI, '--games', '6', '--json', '--quiet', '--threads', '1');
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.games).toBe(6);
    expect(out.options).toMatchObject({ agents: ['random', 'rulebased', 'rulebased'], setup: 'random', deals: 6, seating: 'fixed' });
    const rows = out.standings as { agent: string; games: number; wins: number; ties: number; winRate: number; wilson: { low: number; high: number } }[];
    expect(rows.map((x) => x.agent).sort()).toEqual(['random', 'rulebased']);
    const by = Object.fromEntries(rows.map((x) => [x.agent, x]));
    expect(by.random.games).toBe(6);
    expect(by.rulebased.games).toBe(12);
    for (const row of rows) {
      expect(row.winRate).toBeCloseTo(row.wins / row.games, 12);
      expect(row.wilson.low).toBeLessThanOrEqual(row.winRate);
      expect(row.wilson.high).toBeGreaterThanOrEqual(row.winRate);
    }
    // Wins and shared tops never exceed the games.
    expect(by.random.wins + by.rulebased.wins).toBeLessThanOrEqual(6);
  });

  it('thesis setup with --deals: 21 board sets × deals', () => {
    const out = join(dir, 'thesis.jsonl');
    const r = run('play', AI, '--setup', 'thesis', '--deals', '1', '--quiet', '--threads', '2', '--out', out);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^21 games \(21 board sets × 1 deals\); setup thesis/);
    expect(lines(out)).toHaveLength(21);
  });

  it('--records puts each game\'s full move record in --out', () => {
    const out = join(dir, 'records.jsonl');
    const r = run('play', AI, '--games', '2', '--records', '--quiet', '--threads', '1', '--out', out);
    expect(r.code, r.stderr).toBe(0);
    const games = lines(out);
    expect(games).toHaveLength(2);
    for (const g of games) {
      const record = g.record as { steps: unknown[]; result?: { scores: { total: number }[] } };
      expect(record.steps.length).toBeGreaterThanOrEqual(18);
      expect(record.result!.scores.map((x) => x.total)).toEqual((g.players as Player[]).map((p) => p.score.total));
    }
  });

  it('play --help prints the usage and exits 0', () => {
    const r = run('play', '--help');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^usage: wonderlab play --ai=/);
    for (const option of ['--setup', '--games', '--deals', '--seating', '--threads', '--out', '--json', '--quiet']) expect(r.stdout).toContain(option);
  });
});

describe('wonderlab play: bad input exits 2 and names the bad part', () => {
  const bad = (...args: string[]) => {
    const r = run('play', ...args, '--quiet', ...(args.includes('--threads') ? [] : ['--threads', '1']));
    expect(r.code, `${args.join(' ')}\n${r.stdout}\n${r.stderr}`).toBe(2);
    expect(r.stdout).toBe('');
    return r.stderr;
  };

  it('a bad agent spec', () => {
    const err = bad('--ai=mcts(it=abc);random;random', '--games', '1');
    expect(err).toContain('--ai');
    expect(err).toContain('seat 0 (seats 0–2)');
    expect(err).toContain("'abc'");
    expect(err).toMatch(/\bit\b/);
    expect(bad('--ai=random;bogus;random', '--games', '1')).toMatch(/seat 1 \(seats 0–2\).*unknown agent kind 'bogus'/);
    expect(bad('--ai=random;random;mcts(tree=foo)', '--games', '1')).toMatch(/seat 2 \(seats 0–2\).*tree.*'foo'/);
    expect(bad('--ai=random;random;random(it=5)', '--games', '1')).toContain("'random' takes no parameters");
  });

  it('an unknown setup or seating', () => {
    expect(bad(AI, '--setup', 'foo')).toContain("--setup must be one of random | thesis | robilliard | duplicated, got 'foo'");
    expect(bad(AI, '--seating', 'shuffle', '--games', '1')).toContain("--seating must be one of fixed | rotate | permute | swap, got 'shuffle'");
    expect(bad(AI, '--sides', 'C', '--games', '1')).toContain("--sides must be one of A | B | random, got 'C'");
  });

  it('--games with --setup thesis, and --games with --deals', () => {
    expect(bad(AI, '--setup', 'thesis', '--games', '5')).toMatch(/--games applies to --setup random.*--deals/);
    expect(bad(AI, '--games', '5', '--deals', '2')).toContain('give --games or --deals, not both');
  });

  it('two agents only, or eight', () => {
    expect(bad('--ai=random;random', '--games', '1')).toContain('a game needs 3 to 7 agents, got 2');
    expect(bad(`--ai=${Array(8).fill('random').join(';')}`, '--games', '1')).toContain('got 8');
    expect(bad('--ai=random;random;random;random', '--setup', 'thesis')).toContain('--setup thesis is for 3 players, got 4');
  });

  it('bad numbers', () => {
    expect(bad(AI, '--games', '0')).toContain("--games must be an integer from 1 to 100000000, got '0'");
    expect(bad(AI, '--games', 'ten')).toContain("--games must be an integer");
    // A negative number is the option's value, refused as one (not "needs a value"), long or short.
    expect(bad(AI, '--games', '-3')).toContain("--games must be an integer from 1 to 100000000, got '-3'");
    expect(bad(AI, '-n', '-3')).toContain("--games must be an integer from 1 to 100000000, got '-3'");
    expect(bad(AI, '--games')).toContain('--games needs a value');
    expect(bad(AI, '--games', '1', '--threads', '0')).toContain("--threads must be an integer from 1 to 1024, got '0'");
  });

  it('a missing --ai, an unknown option, a stray argument', () => {
    expect(bad('--games', '1')).toContain('--ai is required');
    expect(bad(AI, '--games', '1', '--bogus')).toMatch(/--bogus/);
    expect(bad(AI, '--games', '1', 'extra')).toContain("unexpected argument 'extra'");
  });
});

describe('seat numbers', () => {
  it("one convention, from 0: --seating swap's help names the seats it exchanges, as the spec's swapSeats does", () => {
    expect(run('play', '--help').stdout).toContain('swap (as given and with the agents of seats 0 and 1 exchanged)');
    const out = join(dir, 'swap.jsonl');
    expect(run('play', '--ai=random;rulebased;mcts(it=2)', '--games', '1', '--seating', 'swap', '--quiet', '--threads', '1', '--out', out).code).toBe(0);
    const [given, swapped] = lines(out).map((g) => (g.players as Player[]).map((p) => `${p.seat}:${p.agent}`));
    expect(given).toEqual(['0:random', '1:rulebased', '2:mcts(it=2)']);
    expect(swapped).toEqual(['0:rulebased', '1:random', '2:mcts(it=2)']);
  });

  it('no text a person reads counts seats from 1', () => {
    const root = resolve(import.meta.dirname, '../..');
    const docs = readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`);
    const texts = ['shared/src/cli/play.ts', 'shared/src/cli/sweep.ts', 'shared/src/cli/summary.ts', 'shared/src/cli/main.ts', 'shared/src/agents/spec.ts', 'README.md', ...docs, 'services/dashboard/public/js/sweep.js', 'services/dashboard/public/js/game.js'];
    for (const path of texts) {
      const text = readFileSync(join(root, path), 'utf8');
      expect(text, path).not.toMatch(/seats 1 and 2|([Ss]eat|agent) \$\{[^}]*\+ 1\}/);
    }
  });
});

describe('agent names', () => {
  it('the standings name each agent by its canonical spec, the spelling submitted in a column beside it', () => {
    const r = run('play', '--ai=mcts:5,10,100;rulebased;rulebased', '--games', '1', '--quiet', '--threads', '1');
    expect(r.code, r.stderr).toBe(0);
    const [header, mcts, rulebased] = r.stdout.split('\n').slice(1);
    expect(header).toMatch(/^agent +as submitted +games /);
    expect(mcts).toMatch(/^mcts\(it=5\) +mcts:5,10,100 +1 /);
    expect(rulebased).toMatch(/^rulebased {2,}2 /);
  });
});
