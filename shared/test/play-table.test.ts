/**
 * A game with a person at the table (lab/play): played through its view's moves to the end, its
 * record replays; a move that is not legal changes nothing; a game rebuilt from its log is the same
 * game; what the person sees and any hint depend only on what their seat knows.
 */
import { describe, expect, it } from 'vitest';
import { FIXTURE_MODELS } from './fixture-models.js';
import { HUMAN, PlayError, PlayTable, hintAt, playView, type PlaySetup } from '../src/lab/index.js';
import { Rng, determinize, handView, legalMoves, replay } from '../src/engine/index.js';

const setup = (agents: string[], seat = 0, seed = 5): PlaySetup => ({ players: agents.length, seat, agents, seed });

/** Runs `body` with MODELS_DIR at the fixture networks (test/fixtures/models). */
function useModelsDirFor(body: () => void): void {
  const before = process.env.MODELS_DIR;
  process.env.MODELS_DIR = FIXTURE_MODELS;
  try {
    body();
  } finally {
    if (before === undefined) delete process.env.MODELS_DIR;
    else process.env.MODELS_DIR = before;
  }
}

/** Plays the person's seat with moves drawn from its view (every legal use of every card), to the end or `steps` moves. */
function playOut(t: PlayTable, rng: Rng, steps = Infinity): number {
  let played = 0;
  while (!t.over && played < steps) {
    const view = t.view();
    expect(view.yourMove).toBe(true);
    const moves = view.hand.flatMap((c) => c.moves.map((m) => m.move));
    t.play(moves[rng.int(moves.length)]);
    played++;
  }
  return played;
}

describe('a game against agents', () => {
  it('is played to its end through the view, and its record replays with the human seat named', () => {
    const t = new PlayTable(setup([HUMAN, 'random', 'rulebased']));
    playOut(t, new Rng(1));
    const view = t.view();
    expect(view.over).toBe(true);
    expect(view.hand).toEqual([]);
    expect(view.result!.players.map((p) => p.canonical)).toEqual([HUMAN, 'random', 'rulebased']);
    // 18 turns of 3 seats, and the seventh-card and discard-pile steps of some wonders.
    expect(view.log.length).toBeGreaterThanOrEqual(18);
    const outcome = replay(t.record());
    expect(outcome.differences).toEqual([]);
    expect(outcome.matches).toBe(true);
  });

  it('refuses a move that is not legal, or not the person\'s, and changes nothing', () => {
    const t = new PlayTable(setup(['rulebased', HUMAN, 'random', 'random'], 1));
    playOut(t, new Rng(2), 3);
    const before = JSON.stringify(t.view());
    const moves = t.log.moves.length;
    for (const bad of [-1, 1.5, 'build', 99999999, null]) {
      expect(() => t.play(bad)).toThrow(PlayError);
      expect(() => t.play(bad)).toThrow(/is not one of your legal moves now/);
    }
    // A legal move of another seat's hand is not the person's.
    const mine = new Set(legalMoves(t.state, 1, 'all'));
    const theirs = legalMoves(t.state, 0, 'all').find((m) => !mine.has(m));
    expect(theirs).toBeDefined();
    expect(() => t.play(theirs)).toThrow(/is not one of your legal moves now/);
    expect(t.log.moves.length).toBe(moves);
    expect(JSON.stringify(t.view())).toBe(before);
  });

  it('rebuilt from its log is the same game, and plays on', () => {
    const live = new PlayTable(setup([HUMAN, 'mcts:30', 'rulebased'], 0, 9));
    playOut(live, new Rng(3), 7);
    const rebuilt = new PlayTable(live.setup, structuredClone(live.log));
    expect(JSON.stringify(rebuilt.view())).toBe(JSON.stringify(live.view()));
    playOut(rebuilt, new Rng(4));
    expect(replay(rebuilt.record()).matches).toBe(true);
  });

  it('shows the person only what their seat knows: the same view and the same hint in any world consistent with it', () => {
    const t = new PlayTable(setup([HUMAN, 'rulebased', 'random', 'rulebased'], 0, 12));
    playOut(t, new Rng(5), 8);
    const s = t.state;
    const rng = new Rng(77);
    let differing = 0;
    for (let k = 0; k < 5; k++) {
      const world = determinize(s, 0, rng);
      // The hidden cards differ (another seat's hand) …
      if ([1, 2, 3].some((q) => handView(world, q).join() !== handView(s, q).join())) differing++;
      // … and nothing the person sees or is told does.
      expect(JSON.stringify(playView(world, 0, t.setup.agents))).toBe(JSON.stringify(playView(s, 0, t.setup.agents)));
      const a = hintAt(s, 0, 'mcts(it=200)', 31);
      const b = hintAt(world, 0, 'mcts(it=200)', 31);
      expect(b.move).toEqual(a.move);
      expect(b.search!.moves).toEqual(a.search!.moves);
    }
    expect(differing).toBeGreaterThan(0);
    // Other seats' stages and discards stay face down in the log; the person's own are named.
    for (const st of t.view().log) {
      for (const m of st.moves) {
        if (m.seat !== 0 && (m.action === 'stage' || m.action === 'discard')) expect(m.card).toBeUndefined();
        else expect(typeof m.card).toBe('string');
      }
    }
  });

  it('names no card of another seat\'s hand while the game is on: its searches show only the move it played, face down as played', () => {
    const t = new PlayTable(setup([HUMAN, 'mcts(it=60)', 'mcts-strong(it=60)', 'minimax(depth=1)'], 0, 14));
    const rng = new Rng(8);
    let faceDown = 0;
    while (!t.over) {
      for (const st of t.view().log) {
        for (const m of st.moves) {
          if (m.seat === 0 || !m.search) continue;
          expect(m.search.hidden).toBe(true);
          expect(m.search.moves.length).toBeLessThanOrEqual(1);
          const shown = m.search.moves[0]?.move;
          if (m.card === undefined) {
            // A stage or discard: neither the move nor its search names the card (the probe saw `stage Clay Pool`).
            faceDown++;
            expect(shown?.card).toBeUndefined();
          } else if (shown) expect(shown.card).toBe(m.card);
        }
      }
      playOut(t, rng, 1);
    }
    expect(faceDown, 'some agent built a stage or discarded').toBeGreaterThan(0);
    // Over, the game is public: the searches are whole again.
    expect(t.view().log.some((st) => st.moves.some((m) => (m.search?.moves.length ?? 0) > 1))).toBe(true);
  });

  it('shows a guided agent\'s network prediction once the game is over, never while it is on (it reads its own hand)', () => {
    useModelsDirFor(() => {
      const t = new PlayTable(setup([HUMAN, 'mcts-strong(it=30,model=net-3p.onnx,eval=mix,prior=net)', 'rulebased']));
      playOut(t, new Rng(6), 1);
      const during = t.view().log[0].moves.find((m) => m.seat === 1)!;
      expect(during.search!.hidden).toBe(true);
      expect(during.search).not.toHaveProperty('network');
      const whole = new PlayTable(t.setup, structuredClone(t.log));
      playOut(whole, new Rng(7));
      const after = whole.view().log[0].moves.find((m) => m.seat === 1)!;
      expect(after.search!.network).toHaveLength(3);
      for (const vp of after.search!.network!) expect(Number.isFinite(vp)).toBe(true);
    });
  });

  it('shows an agent\'s effort and played move beside it while the game is on, its whole search once over, and a hint with its own', () => {
    const t = new PlayTable(setup([HUMAN, 'mcts:100', 'rulebased']));
    playOut(t, new Rng(6), 1);
    const step = t.view().log[0];
    const mcts = step.moves.find((m) => m.seat === 1)!;
    expect(mcts.search!.iterations).toBe(100);
    // The other root moves are cards of its hand: not shown until the end.
    expect(mcts.search!.moves).toHaveLength(1);
    expect(mcts.search!.hidden).toBe(true);
    expect(mcts.search!.moves[0].move).toMatchObject({ action: mcts.action, payLeft: mcts.payLeft, payRight: mcts.payRight });
    expect(mcts.search!.moves[0].move.card).toBe(mcts.card);
    const whole = new PlayTable(t.setup, structuredClone(t.log));
    playOut(whole, new Rng(7));
    const after = whole.view().log[0].moves.find((m) => m.seat === 1)!;
    expect(after.search!.moves.length).toBeGreaterThan(1);
    expect(after.search!.hidden).toBeUndefined();
    const hint = t.hint('minimax(depth=2)');
    expect(hint.agent).toBe('minimax(depth=2)');
    expect(t.view().hand.flatMap((c) => c.moves.map((m) => m.move))).toContain(hint.move.code);
    expect(hint.search!.depth).toBe(2);
    expect(() => t.hint('mcts(it=0)')).toThrow(/agent: .*it: expected an integer from 1/);
  });

  it('refuses a setup without one person, or with a bad agent, naming the field', () => {
    expect(() => new PlayTable(setup(['random', 'random', 'random']))).toThrow("agents.0: your seat's agent must be 'human'");
    expect(() => new PlayTable(setup([HUMAN, HUMAN, 'random']))).toThrow('agents.1: one person per game');
    expect(() => new PlayTable(setup([HUMAN, 'mcts(c=-1)', 'random']))).toThrow(/agents\.1: agent 'mcts\(c=-1\)': c: expected/);
    expect(() => new PlayTable({ ...setup([HUMAN, 'random', 'random']), boards: ['Rhodos', 'Rhodos', 'Giza'] })).toThrow(/boards/);
  });
});

describe('the play thread', () => {
  it('refuses a request behind its copy of the game, and after forgetting it serves the stored game again', async () => {
    const { PlayTables } = await import('@wonderlab/shared');
    const tables = new PlayTables();
    try {
      const setup1: PlaySetup = setup([HUMAN, 'random', 'rulebased'], 0, 3);
      const first = await tables.call({ op: 'view', id: 'g1', stored: { setup: setup1 } });
      const stored = { setup: setup1, log: first.log };
      const move = first.view!.hand[0].moves[0].move;
      const moved = await tables.call({ op: 'move', id: 'g1', stored, move });
      expect(moved.log!.moves.length).toBeGreaterThan(first.log!.moves.length);
      // A second tab, or a store that could not be written: the request's game is behind the thread's.
      await expect(tables.call({ op: 'move', id: 'g1', stored, move })).rejects.toThrow(/moved on/);
      await tables.call({ op: 'forget', id: 'g1' });
      const again = await tables.call({ op: 'view', id: 'g1', stored });
      expect(again.view!.log).toEqual(first.view!.log);
      expect(again.view!.yourMove).toBe(true);
      expect((await tables.call({ op: 'move', id: 'g1', stored, move })).log).toEqual(moved.log);
    } finally {
      await tables.close();
    }
  });

  /** A stored game whose person has played nothing yet, and its first legal move. */
  async function fresh(tables: import('@wonderlab/shared').PlayTables, id: string, agents: string[], seed: number) {
    const stored = { setup: setup(agents, 0, seed) };
    const first = await tables.call({ op: 'view', id, stored });
    return { stored: { ...stored, log: first.log }, move: first.view!.hand[0].moves[0].move };
  }

  it('one game\'s thinking agents hold up neither another game\'s view nor its move', async () => {
    const { PlayTables } = await import('@wonderlab/shared');
    const tables = new PlayTables({ threads: 2, queue: 4, deadlineMs: 60_000 });
    try {
      const slow = await fresh(tables, 'slow', [HUMAN, 'mcts(it=10000000,time=1.5)', 'mcts(it=10000000,time=1.5)'], 4);
      const quick = await fresh(tables, 'quick', [HUMAN, 'random', 'rulebased'], 5);
      const order: string[] = [];
      const thinking = tables.call({ op: 'move', id: 'slow', stored: slow.stored, move: slow.move }).then(() => order.push('slow move'));
      // The slow game's agents now think for about 3 s on one thread.
      await new Promise((r) => setTimeout(r, 200));
      await tables.call({ op: 'view', id: 'quick', stored: quick.stored }).then(() => order.push('other view'));
      await tables.call({ op: 'move', id: 'quick', stored: quick.stored, move: quick.move }).then(() => order.push('other move'));
      await thinking;
      expect(order).toEqual(['other view', 'other move', 'slow move']);
    } finally {
      await tables.close();
    }
  });

  it('a move past the deadline stops its thread, changes nothing, and the next request is served; past the queue, a refusal', async () => {
    const { PlayTables } = await import('@wonderlab/shared');
    // A deadline a restarted thread's first move keeps on a busy machine; the slow agent takes 30 s.
    const tables = new PlayTables({ threads: 1, queue: 1, deadlineMs: 5000 });
    try {
      const slow = await fresh(tables, 'slow', [HUMAN, 'mcts(it=10000000,time=30)', 'random'], 6);
      const quick = await fresh(tables, 'quick', [HUMAN, 'random', 'random'], 7);
      const other = await fresh(tables, 'other', [HUMAN, 'random', 'random'], 8);
      const stopped = tables.call({ op: 'move', id: 'slow', stored: slow.stored, move: slow.move });
      const waits = tables.call({ op: 'move', id: 'quick', stored: quick.stored, move: quick.move });
      // One thread, one move waiting: a third is refused at once (PlayBusy), not queued.
      await expect(tables.call({ op: 'hint', id: 'other', stored: other.stored, agent: 'random' })).rejects.toMatchObject({ name: 'PlayBusy', message: expect.stringMatching(/PLAY_THREADS/) });
      await expect(stopped).rejects.toMatchObject({ name: 'PlayTimeout', message: expect.stringMatching(/did not answer within .* stopped/) });
      // The thread was replaced: the move that waited is played.
      expect((await waits).log!.moves.length).toBeGreaterThan(quick.stored.log!.moves.length);
      // The stopped game is as it was: its view is the stored game's.
      expect((await tables.call({ op: 'view', id: 'slow', stored: slow.stored })).log).toEqual(slow.stored.log);
    } finally {
      await tables.close();
    }
  });
});
