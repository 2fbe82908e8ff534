#!/usr/bin/env node
// The 2014 paper's Table 1 on our engine: how many discards `mcts-robilliard`'s no-discard playouts
// make in each Age for trade limits L = 16, 24, 32 and 48, with the payment search in its
// cheapest-first order. (The paper's random order, option tord=random, was removed with issue 41:
// its counts are in reproduction/inputs/reasons.md and the script at commit d08092a plays them.) A discard in
// a no-discard playout means the search found no card it could pay for within L, or there was
// none; the paper's counts rise steeply as L falls in Ages II and III, which tells how its search
// orders and counts its branches.
//
//   node reproduction/scripts/playout-discards.mjs [--games 3] [--playouts 1000] [--json FILE]
//
// The positions are those of real games (three rulebased-robilliard players, seeds 1..games); at
// each of seat 0's turns, `playouts` simulations (× 1.5 in Age II, × 2 in Age III, as the paper's
// budget) run from a world sampled for seat 0 to the end of the game, every seat drawing as
// the no-discard policy does. Discards are counted in the Age in which the simulated move is made.
import fs from 'node:fs';
import { createAgent, decisionContext, parseAgentSpec } from '../../shared/dist/src/agents/index.js';
import { Playouts } from '../../shared/dist/src/agents/mcts/policies.js';
import { ACTION_DISCARD, PHASE_TURN, Rng, actingSeats, determinize, legalMoves, moveAction, newGame, step } from '../../shared/dist/src/engine/index.js';
import { options } from './lab-client.mjs';

const args = process.argv.slice(2);
const opt = options(args);
const games = Number(opt('games', '3'));
const perTurn = Number(opt('playouts', '1000'));
const jsonOut = opt('json', '');
const LIMITS = [16, 24, 32, 48];
const ORDERS = ['cheapest'];
const AGE_SCALE = [1, 1.5, 2];

/**
 * Discards per Age, per order and limit: counts[order][limit] = [I, II, III], by the Age in which
 * the simulated move is made; byDecision the same by the Age of the turn the playouts start from
 * (the paper does not say which it counts).
 */
const table = () => Object.fromEntries(ORDERS.map((o) => [o, Object.fromEntries(LIMITS.map((l) => [l, [0, 0, 0]]))]));
/** An MCTS agent's parameters from its spec (of the kinds parseAgentSpec answers, only MCTS ones have them). */
function mctsParams(text) {
  const spec = parseAgentSpec(text);
  if (!('params' in spec)) throw new Error(`${text}: not an MCTS agent`);
  return spec.params;
}

const counts = table();
const byDecision = table();
const playoutsRun = Object.fromEntries(ORDERS.map((o) => [o, Object.fromEntries(LIMITS.map((l) => [l, 0]))]));

function simulate(world, policies, rng, tally) {
  const moves = new Int32Array(world.n);
  while (!world.isOver()) {
    for (const q of actingSeats(world)) {
      const m = policies.move(world, q, 'nodiscard', rng);
      if (world.phase === PHASE_TURN && moveAction(m) === ACTION_DISCARD) tally[world.age - 1]++;
      moves[q] = m;
    }
    step(world, moves);
  }
}

const started = performance.now();
for (let g = 1; g <= games; g++) {
  const s = newGame({ players: 3, seed: g, sides: 'A' });
  const agents = [0, 1, 2].map(() => createAgent('rulebased-robilliard'));
  const rng = new Rng(g);
  const moves = new Int32Array(3);
  while (!s.isOver()) {
    if (s.phase === PHASE_TURN) {
      const n = Math.round(perTurn * AGE_SCALE[s.age - 1]);
      for (const order of ORDERS) {
        for (const limit of LIMITS) {
          const policies = new Playouts(mctsParams(`mcts-robilliard(tl=${limit})`));
          const simRng = new Rng(`${g}/${s.age}/${s.turn}/${order}/${limit}`);
          const tally = counts[order][limit];
          const before = tally[0] + tally[1] + tally[2];
          for (let i = 0; i < n; i++) simulate(determinize(s, 0, simRng), policies, simRng, tally);
          byDecision[order][limit][s.age - 1] += tally[0] + tally[1] + tally[2] - before;
          playoutsRun[order][limit] += n;
        }
      }
    }
    for (const q of actingSeats(s)) {
      const legal = legalMoves(s, q, 'cheapest', []);
      moves[q] = agents[q].decide(decisionContext(s, q, legal, rng, false)).move;
    }
    step(s, moves);
  }
  console.error(`game ${g} of ${games}: ${((performance.now() - started) / 1000).toFixed(0)} s`);
}

const paper = { 16: [35908, 14540, 67171], 24: [40304, 6727, 15578], 32: [38080, 6009, 11370], 48: [36340, 6191, 11314] };
const lines = [];
const rel = (row, base) => row.map((v, a) => `${v} (${(v / base[a]).toFixed(2)})`);
/** @type {[string, typeof counts][]} */
const tables = [['the Age of the simulated move', counts], ['the Age of the turn the playouts start from', byDecision]];
for (const [title, t] of tables) {
  lines.push(`Discards in no-discard playouts by ${title} (${games} games, ${perTurn} playouts per turn of seat 0 in Age I, ×1.5 / ×2 later), and each count / the count at L = 48:`);
  lines.push('');
  lines.push('| L | paper I | II | III | cheapest-first I | II | III |');
  lines.push('| --- | --- | --- | --- | --- | --- | --- |');
  for (const l of LIMITS) lines.push(`| ${l} | ${rel(paper[l], paper[48]).join(' | ')} | ${rel(t.cheapest[l], t.cheapest[48]).join(' | ')} |`);
  lines.push('');
}
console.log(lines.join('\n'));
if (jsonOut) {
  fs.writeFileSync(jsonOut, `${JSON.stringify({ games, playoutsPerTurn: perTurn, limits: LIMITS, paper, counts, byDecision, playouts: playoutsRun, seconds: Math.round((performance.now() - started) / 1000) }, null, 1)}\n`);
}
