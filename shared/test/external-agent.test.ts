/**
 * Outside agents (agents/external/, docs/agent-protocol.md) with real processes: the Python
 * random player of agents/py-random replays the built-in `random` game for game, a plain Node.js
 * script plays, and every fault — a crash, a hang, garbage, an illegal or misaddressed answer — fails
 * the game with a message naming the agent and what it did, the process restarted for the next.
 */
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Rng, Sweep, checkSweepSpec, createAgent, decisionContext, legalMoves, newGame, parseSweepSpec, playGame, runGames, sweepModels, type GameSummary } from '@wonderlab/shared';

const REPO_AGENTS = resolve(import.meta.dirname, '../../agents');
/** The Python the test setup made (test/support/python-env.ts), with numpy and onnxruntime: first on PATH, as an operator would put it. */
const VENV_BIN = resolve(import.meta.dirname, '../../.venv/bin');
const faulty = mkdtempSync(join(tmpdir(), 'wl-agents-'));
const saved = process.env.AGENTS_DIR;

/** An agent of its own folder under the test's AGENTS_DIR: a Node script answering as `act` says. */
function install(name: string, act: string, extra = '') {
  mkdirSync(join(faulty, name), { recursive: true });
  writeFileSync(join(faulty, name, 'agent.json'), JSON.stringify({ protocol: 1, name, version: '0.1', summary: `a test agent: ${name}`, command: ['node', 'agent.mjs'], players: [3, 4], params: { depth: 'a test parameter' } }));
  writeFileSync(
    join(faulty, name, 'agent.mjs'),
    `import { createInterface } from 'node:readline';
import { existsSync, writeFileSync } from 'node:fs';
${extra}
const say = (m) => process.stdout.write(JSON.stringify(m) + '\\n');
createInterface({ input: process.stdin }).on('line', (line) => {
  const msg = JSON.parse(line);
  if (msg.type === 'hello') say({ type: 'hello', protocol: 1, name: '${name}', version: '0.1', players: [3, 4] });
  if (msg.type === 'act') { ${act} }
});`,
  );
}

beforeAll(() => {
  install('first', "say({ type: 'move', id: msg.id, game: msg.game, action: msg.legal[0].action });");
  install('thinker', "say({ type: 'move', id: msg.id, game: msg.game, action: msg.legal[0].action, stats: { iterations: 300, moves: msg.legal.map((m, i) => ({ action: m.action, visits: i === 0 ? 200 : 10 - (i % 10), value: i === 0 ? 0.75 : 0.25 })) } });");
  install('quitter', "say({ type: 'move', id: msg.id, game: msg.game, action: msg.legal[0].action });", "process.stdin.on('data', (d) => { if (String(d).includes('\"type\":\"end\"')) process.exit(0); });");
  install('oops', "process.stdout.write('oops\\n'); process.exit(4);");
  install('bytes', "process.stdout.write(Buffer.from([0x41, 0xff, 0xff, 0xff, 0xff, 0x02, 0, 0, 0, 0x41, 0x41, 0x0a]));");
  mkdirSync(join(faulty, 'nul'), { recursive: true });
  writeFileSync(join(faulty, 'nul', 'agent.json'), JSON.stringify({ protocol: 1, name: 'nul', version: '0.1', summary: 'a command no system can run', command: ['no\u0000de'], players: [3] }));
  install('crasher', "process.stderr.write('something broke\\n'); process.exit(3);");
  install('sleeper', 'setTimeout(() => {}, 1e9);');
  install('babbler', "process.stdout.write('thinking...\\n');");
  install('cheater', "say({ type: 'move', id: msg.id, game: msg.game, action: 9999 });");
  install('confused', "say({ type: 'move', id: msg.id + 1, game: msg.game, action: msg.legal[0].action });");
  // Builds whenever it can with probability `build` (a typed parameter a tune can search), else the first move.
  mkdirSync(join(faulty, 'builder'), { recursive: true });
  writeFileSync(join(faulty, 'builder', 'agent.json'), JSON.stringify({ protocol: 1, name: 'builder', version: '0.1', summary: 'builds with probability build', command: ['node', 'agent.mjs'], players: [3], params: { build: { description: 'the probability of building when it can', type: 'number', min: 0, max: 1, default: 0.5 }, note: 'a parameter it only reads' } }));
  writeFileSync(
    join(faulty, 'builder', 'agent.mjs'),
    `import { createInterface } from 'node:readline';
let p = 0.5, x = 1;
const say = (m) => process.stdout.write(JSON.stringify(m) + '\\n');
createInterface({ input: process.stdin }).on('line', (line) => {
  const msg = JSON.parse(line);
  if (msg.type === 'hello') { p = Number(msg.params.build ?? 0.5); say({ type: 'hello', protocol: 1, name: 'builder', version: '0.1', players: [3] }); }
  if (msg.type === 'game') x = msg.seed || 1;
  if (msg.type === 'act') {
    x = (x * 1103515245 + 12345) % 2147483648;
    const build = msg.legal.find((m) => m.kind === 'build');
    say({ type: 'move', id: msg.id, game: msg.game, action: build && x / 2147483648 < p ? build.action : msg.legal[0].action });
  }
});`,
  );
  // Crashes at its first decision the first time it runs, then plays: the lab restarts it.
  install('flaky', "if (!existsSync(MARK)) { writeFileSync(MARK, ''); process.exit(1); } say({ type: 'move', id: msg.id, game: msg.game, action: msg.legal[0].action });", `const MARK = ${JSON.stringify(join(faulty, 'flaky.mark'))};`);
  process.env.AGENTS_DIR = [faulty, REPO_AGENTS].join(':');
  savedPath = process.env.PATH;
  process.env.PATH = `${VENV_BIN}:${process.env.PATH}`;
});
let savedPath: string | undefined;
afterAll(() => {
  process.env.PATH = savedPath;
  if (saved === undefined) delete process.env.AGENTS_DIR;
  else process.env.AGENTS_DIR = saved;
});

/** A game's outcome without the agents' names and thinking times. */
const outcome = (g: GameSummary) => ({ id: g.id, winners: g.winners, players: g.players.map((p) => ({ city: p.city, side: p.side, score: p.score, coins: p.coins, built: p.built, decisions: p.decisions })) });

function spec(seat0: string, count: number, players = 3) {
  return parseSweepSpec({ name: 'ext', players, seats: [seat0, ...Array(players - 1).fill('rulebased')], deals: { firstSeed: 4242, count }, seating: 'rotate' });
}

async function play(seat0: string, count: number): Promise<GameSummary[]> {
  const sweep = new Sweep(spec(seat0, count));
  const games: GameSummary[] = [];
  await runGames(Array.from({ length: sweep.size }, (_, k) => sweep.game(k)), { threads: 2, onResult: (g: GameSummary) => games.push(g) });
  return games.sort((a, b) => a.index - b.index);
}

describe('outside agents', () => {
  it('the Python random player (agents/py-random) plays exactly the games of the built-in random, on game threads', async () => {
    const [outside, builtIn] = [await play('ext(name=py-random)', 40), await play('random', 40)];
    expect(outside).toHaveLength(120);
    expect(outside.map(outcome)).toEqual(builtIn.map(outcome));
    expect(outside[0].players.find((p) => p.seat === 0)!.agent).toBe('ext(name=py-random)');
  }, 120_000);

  it('a trained network served by agents/py-policy (onnxruntime in Python) plays move for move as policy(model=…) does', async () => {
    for (const [players, model] of [[3, 'dqn-2021/3p-rule-random.onnx'], [4, 'dqn-2021/4p-rule-random-random.onnx']] as const) {
      const run = async (seat0: string) => {
        const sweep = new Sweep(parseSweepSpec({ name: 'policy', players, seats: [seat0, 'rulebased', ...Array(players - 2).fill('random')], deals: { firstSeed: 9100, count: 15 }, seating: 'rotate' }));
        const got: GameSummary[] = [];
        await runGames(Array.from({ length: sweep.size }, (_, k) => sweep.game(k)), { threads: 2, onResult: (g: GameSummary) => got.push(g) });
        return got.sort((a, b) => a.index - b.index).map(outcome);
      };
      const [outside, builtIn] = [await run(`ext(name=py-policy,model=${model})`), await run(`policy(model=${model})`)];
      expect(outside).toHaveLength(15 * players);
      expect(outside).toEqual(builtIn);
    }
  }, 120_000);

  it('a plain Node.js script with no lab code (agents/node-first) plays 4 and 3 player games', () => {
    for (const players of [3, 4]) {
      const sweep = new Sweep(spec('ext(name=node-first)', 1, players));
      const g = playGame(sweep.game(0));
      expect(g.players).toHaveLength(players);
      expect(g.players.every((p) => p.decisions === 18)).toBe(true);
    }
  });

  it('search statistics an agent reports go with its move, as the lab searches report theirs (for records and the why panel)', () => {
    const s = newGame({ players: 3, seed: 5 });
    const legal = legalMoves(s, 0, 'cheapest', []);
    const decide = (options: object) => createAgent('ext(name=thinker)', options).decide(decisionContext(s, 0, legal, new Rng(1), false));
    const top = decide({ searchStatistics: true });
    expect(top.move).toBe(legal[0]);
    expect(top.iterations).toBe(300);
    expect(top.search!.moves[0]).toEqual({ move: legal[0], visits: 200, value: 0.75 });
    expect(top.search!.moves).toHaveLength(Math.min(8, legal.length));
    expect(decide({ searchStatistics: 'all' }).search!.moves).toHaveLength(legal.length);
    // Not asked for (a sweep without records): none kept.
    expect(decide({}).search).toBeUndefined();
  });

  it.each([
    ['crasher', /^outside agent 'crasher' exited with code 3; its stderr ended: something broke \(while deciding move 1\)$/],
    ['sleeper', /^outside agent 'sleeper' did not answer within 200 ms \(while deciding move 1\): killed$/],
    ['babbler', /^outside agent 'babbler' printed "thinking\.\.\." where a "move" message was due: killed$/],
    ['cheater', /^outside agent 'cheater' chose action 9999, not one of the \d+ legal \(/],
    ['confused', /^outside agent 'confused' answered \{"id":2,"game":\d+\} to request 1 of game \d+: killed$/],
  ])('%s: the game fails naming the agent and what it did; the next game goes on', (name, message) => {
    const sweep = new Sweep(spec(`ext(name=${name},time=0.1)`, 2));
    expect(() => playGame(sweep.game(0))).toThrow(message);
    // The same thread plays on: a good agent, and the faulty one failing afresh (its process restarted).
    expect(playGame(new Sweep(spec('ext(name=first)', 1)).game(0)).players).toHaveLength(3);
    expect(() => playGame(sweep.game(1))).toThrow(message);
  });

  it('fault=forfeit: the faulty seat is played by random from its fault on, the game marked with the reason; the process restarted for the next', () => {
    const sweep = new Sweep(spec('ext(name=crasher,fault=forfeit)', 2));
    const g = playGame(sweep.game(0));
    expect(g.forfeits).toEqual([{ seat: 0, reason: expect.stringMatching(/^outside agent 'crasher' exited with code 3; its stderr ended: something broke \(while deciding move 1\)$/) }]);
    expect(g.players.find((p) => p.seat === 0)!.decisions).toBe(18);
    // A forfeit from the first decision is random's game from the same generator.
    const asRandom = playGame({ ...sweep.game(0), agents: sweep.game(0).agents.map((a) => (a.startsWith('ext(') ? 'random' : a)) });
    expect(g.players.map((p) => p.score)).toEqual(asRandom.players.map((p) => p.score));
    expect(playGame(sweep.game(1)).forfeits).toHaveLength(1);
    // Without it the game fails; a game with no fault carries no forfeits.
    expect(() => parseSweepSpec({ name: 'x', players: 3, seats: ['ext(name=first,fault=maybe)', 'random', 'random'], deals: { count: 1 } })).toThrow("fault: fail or forfeit, got 'maybe'");
    expect(playGame(new Sweep(spec('ext(name=first,fault=forfeit)', 1)).game(0)).forfeits).toBeUndefined();
  });

  it('the review cases: a command that cannot start, output then exit, bytes like a marker, a process gone between games', () => {
    const privateTmp = mkdtempSync(join(tmpdir(), 'wl-review-'));
    const savedTmp = process.env.TMPDIR;
    process.env.TMPDIR = privateTmp;
    try {
      reviewCases(privateTmp);
    } finally {
      if (savedTmp === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = savedTmp;
    }
  });

  function reviewCases(privateTmp: string): void {
    const game = (seat0: string, k = 0) => playGame(new Sweep(spec(seat0, 3)).game(k));
    const started = Date.now();
    expect(() => game('ext(name=nul)')).toThrow(/^outside agent 'nul' could not be started: .*\(while starting\)$/);
    expect(Date.now() - started).toBeLessThan(5000);
    // Its pipes' folder is gone too (the process's temporary folder is this test's own: others run beside it).
    expect(readdirSync(privateTmp).filter((f) => f.startsWith('wonderlab-agent-'))).toEqual([]);
    // Printing and exiting, ten times over: each game fails naming the agent; the thread goes on.
    for (let k = 0; k < 10; k++) expect(() => game('ext(name=oops,time=0.5)')).toThrow(/^outside agent 'oops' (printed "oops"|exited with code 4)/);
    expect(() => game('ext(name=bytes,time=0.5)')).toThrow(/^outside agent 'bytes' printed .* where a "move" message was due: killed$/);
    // An agent that exits after each game: the next game starts a fresh process and plays.
    for (let k = 0; k < 3; k++) expect(game('ext(name=quitter)', k).players).toHaveLength(3);
  }

  it('a crashed process is restarted for the next game, which it plays', () => {
    const sweep = new Sweep(spec('ext(name=flaky)', 2));
    expect(() => playGame(sweep.game(0))).toThrow(/^outside agent 'flaky' exited with code 1/);
    expect(playGame(sweep.game(1)).players[0].decisions).toBe(18);
  });

  it('a tune searches the typed parameters of an outside agent: SPSA over build, the steps ext(name=builder,build=…), the recommendation one of them', async () => {
    const { cmdTune } = await import('../src/cli/tune.js');
    const dir = mkdtempSync(join(tmpdir(), 'wl-ext-tune-'));
    const file = join(dir, 'tune.json');
    writeFileSync(file, JSON.stringify({ name: 'tune builder', players: 3, seats: ['ext(name=builder,note=x)', 'ext(name=builder,note=x)', 'random'], deals: { firstSeed: 300, count: 1 }, tune: { method: 'spsa', params: [{ key: 'build' }], steps: 6, inFlight: 1 } }));
    const out: string[] = [];
    expect(await cmdTune([file, '--json', '--threads', '1'], (s) => out.push(s), () => {})).toBe(0);
    const ran = JSON.parse(out.join('\n'));
    expect(ran.recommendation).toMatch(/^ext\(name=builder,build=[\d.]+,note=x\)$/);
    expect(ran.search.trajectory).toHaveLength(6);
    expect(ran.games).toBe(12);
    // Refused: a parameter it does not type, a range outside its own, a value outside it at submit.
    const refused = (tune: object, seat0 = 'ext(name=builder)') => {
      try {
        checkSweepSpec({ name: 'x', players: 3, seats: [seat0, seat0, 'random'], deals: { count: 1 }, tune });
        return 'accepted';
      } catch (err) {
        return (err as Error).message;
      }
    };
    expect(refused({ method: 'spsa', params: [{ key: 'note' }], steps: 2 })).toMatch(/^tune\.params\.0\.key: 'note' is no option of ext/);
    expect(refused({ method: 'spsa', params: [{ key: 'build', max: 2 }], steps: 2 })).toMatch(/^tune\.params\.0\.max: 2 is outside build's range 0 to 1/);
    expect(refused({ method: 'spsa', params: [{ key: 'build' }], steps: 2 }, 'ext(name=first)')).toMatch(/outside agent 'first' declares no typed parameters to tune/);
    expect(refused({ method: 'spsa', params: [{ key: 'build' }], steps: 2 }, 'ext(name=builder,build=3)')).toMatch(/^seats\.0: outside agent 'builder': build: expected a number from 0 to 1, got '3'/);
  }, 60_000);

  it('at submit: an agent not installed, a player count it does not play, a parameter it does not take, a budget over the limit — each a problem naming the seat', () => {
    const check = (seat0: string, players = 3) => {
      try {
        checkSweepSpec({ name: 'x', players, seats: [seat0, ...Array(players - 1).fill('random')], deals: { count: 1 } }, { maxCells: 10, maxGames: 100, maxMoveIterations: 1e5, maxMoveSeconds: 60, maxGameSeconds: 1e4, maxCpuHours: 10 } as never);
        return 'accepted';
      } catch (err) {
        return (err as Error).message;
      }
    };
    expect(check('ext(name=first)')).toBe('accepted');
    expect(check('ext(name=nobody)')).toMatch(/^seats\.0: outside agent 'nobody': not installed \(no nobody\/agent\.json under AGENTS_DIR/);
    expect(check('ext(name=first)', 5)).toBe("seats.0: outside agent 'first' plays 3, 4 players, not 5 (its agent.json)");
    expect(check('ext(name=first,colour=red)')).toBe("seats.0: outside agent 'first': unknown parameter 'colour' (it takes depth, and the lab's time and fault)");
    expect(check('ext(name=first,depth=3)')).toBe('accepted');
    expect(check('ext(name=first,time=120)')).toMatch(/^seats\.0: agent 'ext\(name=first,time=120\)': time=120 seconds per move, over this lab's limit of 60/);
    // A network an agent reads (a parameter of type model): required without a default, checked as
    // the lab's own agents' networks are, and recorded with its hash.
    expect(check('ext(name=py-policy)')).toBe("seats.0: outside agent 'py-policy': model: required (a model file under MODELS_DIR, e.g. model=dqn-2021/3p-rule-random.onnx)");
    expect(check('ext(name=py-policy,model=../x.onnx)')).toMatch(/^seats\.0: model '\.\.\/x\.onnx': /);
    expect(check('ext(name=py-policy,model=nothing-here.onnx)')).toMatch(/^seats\.0: model 'nothing-here\.onnx': /);
    expect(check('ext(name=py-policy,model=dqn-2021/3p-rule-random.onnx)', 4)).toMatch(/^seats\.0: model 'dqn-2021\/3p-rule-random\.onnx': reads observations of \d+ values \(3 players\), a game of 4/);
    expect(check('ext(name=py-policy,model=dqn-2021/3p-rule-random.onnx)')).toBe('accepted');
    const sweep = new Sweep(parseSweepSpec({ name: 'x', players: 3, seats: ['ext(name=py-policy,model=dqn-2021/3p-rule-random.onnx)', 'random', 'random'], deals: { count: 1 } }));
    expect(sweepModels(sweep.cells)).toEqual({ 'dqn-2021/3p-rule-random.onnx': expect.stringMatching(/^[0-9a-f]{64}$/) });
  });
});
