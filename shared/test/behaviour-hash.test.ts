/**
 * The agents' and the rules' behaviour, pinned: a hash over every move and every final score of
 * 1,530 seeded games, every named agent at 3, 5 and 7 players, and the MCTS agent with each option
 * a researcher keeps. A change meant to leave behaviour alone (a refactor, a speed-up) must leave
 * this hash as it is; a change meant to alter play updates the fixture and says so in its commit.
 *
 * The MCTS budgets are tiny and time=0 (no wall-clock cut-off), so that every decision runs its
 * iterations to the end and the games depend on the seeds alone.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createAgent, decisionContext, parseAgentSpec } from '../src/agents/index.js';
import { Rng, actingSeats, gameResult, legalMoves, newGame, step } from '../src/engine/index.js';

const fixture = JSON.parse(readFileSync(new URL('./fixtures/behaviour-hash.json', import.meta.url), 'utf8')) as { games: number; hash: string };

/** Every agent without parameters. */
const SIMPLE_SPECS = ['random', 'rulebased', 'rulebased-robilliard', 'rulebased-robilliard-notrade', 'rulebased-dawieang'];

/** Every named MCTS agent, and the MCTS options kept for research. */
const MCTS_SPECS = [
  'mcts(it=2,time=0)',
  'mcts-robilliard(it=2,time=0)',
  'mcts-strong(it=2,time=0)',
  'mcts(it=2,time=0,det=is,reuse=on,reward=rank)',
  'mcts(it=2,time=0,trades=all,arms=all,parms=all,final=mean)',
  'mcts(it=2,time=0,playout=mast,opp=mast,pw=0.5,pwq=2)',
  'mcts(it=2,time=0,tree=seats,playout=nodiscard,opp=same,kscore=20,depth=4)',
  'mcts(it=3,time=0,det=pimc,worlds=3,reward=share,scale=1/2/3,c=1.2)',
  'mcts(it=2,time=0,playout=rulebased,opp=random,pe=0.3,tl=2/3/4,reward=vp)',
  'mcts(it=2,time=0,opp=nodiscard,reward=margin,depth=9)',
];

const GAMES_PER_COUNT = 510;

/**
 * Plays the games and hashes, per game, its seats' specs, every move of every seat in order and
 * the final score breakdowns. Seats cycle through the specs so that each meets every other; one
 * seat in three is an MCTS agent, which keeps the test's time to about half a minute.
 */
function behaviourHash(gamesPerCount: number): { games: number; hash: string } {
  const hash = createHash('sha256');
  let games = 0;
  for (const n of [3, 5, 7]) {
    for (let g = 0; g < gamesPerCount; g++) {
      const seed = n * 100_000 + g;
      const seats = Array.from({ length: n }, (_, i) => ((g + i) % 3 === 0 ? MCTS_SPECS[(g * n + i) % MCTS_SPECS.length] : SIMPLE_SPECS[(g * n + i) % SIMPLE_SPECS.length]));
      // Every tenth game open (every hand visible): the other way decisionContext samples worlds.
      const open = g % 10 === 0;
      const s = newGame({ players: n, seed });
      const agents = seats.map((text) => createAgent(parseAgentSpec(text)));
      const rngs = seats.map((_, i) => new Rng(`behaviour ${seed} ${i}`));
      const moves = new Array<number>(n).fill(0);
      hash.update(`${seed}:${seats.join(';')}:${open}\n`);
      while (!s.isOver()) {
        for (const seat of actingSeats(s)) {
          const legal = legalMoves(s, seat, agents[seat].moveMode, []);
          moves[seat] = agents[seat].decide(decisionContext(s, seat, legal, rngs[seat], open)).move;
          hash.update(`${seat}=${moves[seat]} `);
        }
        step(s, moves);
      }
      hash.update(JSON.stringify(gameResult(s)) + '\n');
      games++;
    }
  }
  return { games, hash: hash.digest('hex') };
}

describe('behaviour', () => {
  it(`the same seeds give the same ${fixture.games} games (moves and scores) as the fixture`, () => {
    expect(behaviourHash(GAMES_PER_COUNT)).toEqual(fixture);
  }, 300_000);
});
