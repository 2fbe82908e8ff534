/**
 * The `wonderlab` command as a user runs it: the real bin in a child process (built by `npm test`
 * before vitest starts), its stdout, stderr and exit code.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const BIN = resolve(import.meta.dirname, '../../bin/wonderlab.mjs');
const dir = mkdtempSync(join(tmpdir(), 'wonderlab-cli-'));

function run(...args: string[]) {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/**
 * The commands `wonderlab --help` lists: the first word of each line of its commands section
 * that starts a command (two spaces, then a lower-case word).
 */
function listedCommands(help: string): string[] {
  const section = help.slice(help.indexOf('commands:'));
  return [...section.matchAll(/^ {2}([a-z]+)\b/gm)].map((m) => m[1]);
}

function file(name: string, content: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

const POSITION = {
  age: 3,
  players: [
    {
      wonder: 'Babylon',
      side: 'A',
      stages: 2,
      coins: 5,
      built: ['Lumber Yard', 'Scriptorium'],
      military: [1, 3, -1],
      hand: ['Temple', 'Gardens', 'University'],
    },
    { wonder: 'Rhodes', coins: 3, built: ['Glassworks', 'Stone Pit'], hand: ['Palace'] },
    { wonder: 'gizah', side: 'B', coins: 3, built: ['Clay Pool', 'Loom'], hand: ['Altar'] },
  ],
};

describe('wonderlab eval', () => {
  it('prints every breakdown and the cheapest payment of each card in hand', () => {
    const r = run('eval', file('pos.json', POSITION));
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    const babylon = out.players[0];
    // Tokens 1 + 3 − 1; 5 coins → 1; stage 1 → 3 VP; tablet + wild on a tablet → 2² = 4.
    expect(babylon.score).toEqual({
      military: 3,
      treasury: 1,
      wonder: 3,
      civilian: 0,
      commercial: 0,
      guilds: 0,
      science: 4,
      total: 11,
    });
    // Temple (W C G): wood and clay own; glass only from Rhodes' Glassworks (left) at 2.
    expect(babylon.hand[0]).toEqual({
      card: 'Temple',
      build: { legal: true, free: false, payLeft: 2, payRight: 0 },
      wonder: { legal: false },
    });
    // Gardens (W C C): one clay short, bought from Gizah's Clay Pool (right) at 2.
    expect(babylon.hand[1].build).toEqual({ legal: true, free: false, payLeft: 0, payRight: 2 });
    // University chains from Library, which Babylon lacks; W W G P needs 1 wood, glass, papyrus:
    // nobody sells papyrus here, so it cannot be built.
    expect(babylon.hand[2].build).toEqual({ legal: false });
    // Babylon A stage 3 (C C C C): 1 own clay, Gizah's Clay Pool, no more clay anywhere.
    expect(babylon.hand[2].wonder).toEqual({ legal: false });
  });

  it('names the unknown card and exits non-zero', () => {
    const bad = structuredClone(POSITION);
    bad.players[1].hand = ['Palase'];
    const r = run('eval', file('typo.json', bad));
    expect(r.code).not.toBe(0);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain("players[1].hand[0]: unknown card 'Palase'");
  });

  it('rejects a file that is not JSON or does not exist, in one line', () => {
    const notJson = run('eval', file('broken.json', '{ "age": 3, '));
    expect(notJson.code).toBe(1);
    expect(notJson.stderr).toMatch(/broken\.json is not valid JSON/);
    expect(notJson.stderr.trim().split('\n')).toHaveLength(1);
    const missing = run('eval', join(dir, 'nope.json'));
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/cannot read .*nope\.json: ENOENT/);
  });
});

describe('wonderlab cards', () => {
  it('--json lists 7 cards per player in Ages I and II, and Age III without its n + 2 guilds', () => {
    for (const n of [3, 4, 5, 6, 7]) {
      const r = run('cards', '--players', String(n), '--json');
      expect(r.code).toBe(0);
      const decks = JSON.parse(r.stdout) as { age: number; cards: string[] }[];
      expect(decks.map((d) => d.age)).toEqual([1, 2, 3]);
      expect(decks[0].cards).toHaveLength(7 * n);
      expect(decks[1].cards).toHaveLength(7 * n);
      expect(decks[2].cards).toHaveLength(7 * n - (n + 2));
    }
  });

  it('rejects a player count outside 3–7', () => {
    const r = run('cards', '--players', '8');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--players must be an integer from 3 to 7, got 8');
  });
});

describe('wonderlab replay', () => {
  it('confirms a recorded demo game and rejects a tampered one', () => {
    const recordPath = join(dir, 'game.json');
    expect(run('demo', '--players', '4', '--seed', '5', '--record', recordPath).code).toBe(0);
    const ok = run('replay', recordPath);
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout)).toEqual({ matches: true, differences: [] });

    const record = JSON.parse(readFileSync(recordPath, 'utf8'));
    const move = record.steps[3].moves[0];
    move.action = move.action === 'discard' ? 'stage' : 'discard';
    move.payLeft = 0;
    move.payRight = 0;
    const tampered = run('replay', file('tampered.json', record));
    expect(tampered.code).toBe(1);
    expect(JSON.parse(tampered.stdout).matches).toBe(false);
  });

  it('says which file is not a game record', () => {
    const r = run('replay', file('notrecord.json', { hello: 1 }));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('not a game record');
  });
});

describe('every command answers --help and -h with its usage, exit 0, and does nothing else', () => {
  const help = run('--help');
  const commands = listedCommands(help.stdout);

  it('wonderlab --help lists every command, serve (what npm start runs) among them', () => {
    expect(help.code).toBe(0);
    expect(commands).toEqual(['serve', 'play', 'sweep', 'tune', 'remote', 'learn', 'agents', 'eval', 'cards', 'replay', 'demo', 'env']);
  });

  it.each(['--help', '-h'])('%s', (flag) => {
    // serve with a Redis that would not answer: had it started a lab, it would have started a
    // redis-server with its data in DATA_DIR, and run until the timeout.
    const data = join(dir, `serve-data${flag}`);
    for (const command of commands) {
      const r = spawnSync(process.execPath, [BIN, command, flag], {
        encoding: 'utf8',
        timeout: 15_000,
        input: '',
        env: { ...process.env, REDIS_URL: 'redis://127.0.0.1:1', DATA_DIR: data, PORT: '0', LOG_LEVEL: 'silent' },
      });
      expect({ command, code: r.status, stderr: r.stderr }).toEqual({ command, code: 0, stderr: '' });
      expect(r.stdout, command).toMatch(new RegExp(`^usage: wonderlab ${command}\\b`));
    }
    expect(existsSync(data)).toBe(false);
  });

  it('a mistyped option of a command is named, with a pointer to that command\'s --help', () => {
    for (const command of ['serve', 'eval', 'cards', 'replay', 'demo', 'env', 'agents']) {
      const r = run(command, '--bogus');
      expect({ command, code: r.code, stderr: r.stderr }).toEqual({ command, code: 2, stderr: `wonderlab ${command}: unknown option '--bogus'\nrun "wonderlab ${command} --help" for its options\n` });
    }
  });
});

describe('wonderlab agents and play --help', () => {
  it('list every agent kind and MCTS option, as the parameter table gives them', async () => {
    const { agentsMarkdown, agentsText } = await import('../src/agents/index.js');
    const text = run('agents');
    expect(text.code).toBe(0);
    expect(text.stdout.trim()).toBe(agentsText());
    // The outside agents installed (the repository's agents/, AGENTS_DIR's default) beside the built-in ones.
    expect(text.stdout).toMatch(/outside agents \(AGENTS_DIR: .*agents; ext\(name=…\) plays one\):\n  ext\(name=node-first\)  1\.0\.0, 3\/4\/5\/6\/7 players/);
    expect(text.stdout).toContain('  ext(name=py-random)  1.0.0');
    const md = run('agents', '--markdown');
    expect(md.stdout.trim()).toBe(agentsMarkdown());
    const help = run('play', '--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('usage: wonderlab play');
    expect(help.stdout).toContain(agentsText());
  });
});
