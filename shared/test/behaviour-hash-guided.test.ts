/**
 * The network-guided search's behaviour, pinned as behaviour-hash.test.ts pins the rest: a hash
 * over every move and final score of seeded 3-player games in which one seat searches with a
 * published network (run scale's generation 1) by each way the search reads one — eval=mix with
 * prior=net, eval=net in batches, prior=root, both in batches. A change meant to leave the guided
 * search alone (a new option at its default, a faster kernel) must leave this hash as it is.
 *
 * The fixture was computed at 880dc33, before the options lambda, ptemp, noise and alpha, and
 * again after them: the same hash (their defaults play the same games).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PUBLISHED_MODELS, useModelsDir } from './fixture-models.js';
import { createAgent, decisionContext, parseAgentSpec } from '../src/agents/index.js';
import { Rng, actingSeats, gameResult, legalMoves, newGame, step } from '../src/engine/index.js';

useModelsDir(PUBLISHED_MODELS);

const fixture = JSON.parse(readFileSync(new URL('./fixtures/behaviour-hash-guided.json', import.meta.url), 'utf8')) as { games: number; hash: string };

const GUIDED_SPECS = [
  'mcts-strong(it=8,time=0,model=scale/gen-1.onnx,eval=mix,prior=net)',
  'mcts(it=8,time=0,model=scale/gen-1.onnx,eval=net,batch=4)',
  'mcts-strong(it=8,time=0,model=scale/gen-1.onnx,prior=root)',
  'mcts(it=8,time=0,det=is,model=scale/gen-1.onnx,eval=mix,prior=net,batch=4)',
];
const OTHERS = ['rulebased', 'random'];
const GAMES = 48;

function guidedHash(): { games: number; hash: string } {
  const hash = createHash('sha256');
  for (let g = 0; g < GAMES; g++) {
    const seed = 900_000 + g;
    const seats = [0, 1, 2].map((i) => (i === g % 3 ? GUIDED_SPECS[g % GUIDED_SPECS.length] : OTHERS[(g + i) % OTHERS.length]));
    const s = newGame({ players: 3, seed });
    const agents = seats.map((text) => createAgent(parseAgentSpec(text)));
    const rngs = seats.map((_, i) => new Rng(`guided ${seed} ${i}`));
    const moves = [0, 0, 0];
    hash.update(`${seed}:${seats.join(';')}\n`);
    while (!s.isOver()) {
      for (const seat of actingSeats(s)) {
        moves[seat] = agents[seat].decide(decisionContext(s, seat, legalMoves(s, seat, agents[seat].moveMode, []), rngs[seat], false)).move;
        hash.update(`${seat}=${moves[seat]} `);
      }
      step(s, moves);
    }
    hash.update(JSON.stringify(gameResult(s)) + '\n');
  }
  return { games: GAMES, hash: hash.digest('hex') };
}

describe('guided behaviour', () => {
  it(`the same seeds give the same ${GAMES} guided games (moves and scores) as the fixture`, () => {
    expect(guidedHash()).toEqual(fixture);
  }, 120_000);
});
