/**
 * Military conflicts at the end of an Age (RULES-NOTES 6) and the decks: sizes for 3 to 7
 * players, guilds in Age III, 7 cards dealt per player.
 */
import { describe, expect, it } from 'vitest';
import {
  CARDS,
  GUILD_IDS,
  HAND_SIZE,
  TOKENS_PER_SEAT,
  actingSeats,
  ageDeckWithoutGuilds,
  newGame,
  resolveConflicts,
  step,
  tokenBase,
  tokenIndex,
  type GameState,
} from '../src/engine/index.js';
import { discardFirst, game, position, scoreOf } from './rules-helpers.js';

function tokens(s: GameState, p: number, age: number): [number, number] {
  return [s.tokens[tokenIndex(p, age, 0)], s.tokens[tokenIndex(p, age, 1)]];
}

function military(s: GameState, p: number): number {
  let t = 0;
  for (let i = 0; i < TOKENS_PER_SEAT; i++) t += s.tokens[tokenBase(p) + i];
  return t;
}

describe('military conflicts', () => {
  // Age III, 3 players (each seat's two neighbours are the two other seats): shields 1, 2, 0.
  // Seat 0: loses to seat 1 (−1), beats seat 2 (+5) → 4. Seat 1: beats both → +10.
  // Seat 2: loses to both → −2.
  it('Age III: +5 per win, −1 per loss (3 players)', () => {
    const s = game(3, [
      { wonder: 'Gizah', built: ['Stockade'] },
      { wonder: 'Babylon', built: ['Walls'] },
      { wonder: 'Ephesus' },
    ]);
    resolveConflicts(s);
    expect(tokens(s, 0, 3)).toEqual([-1, 5]);
    expect(tokens(s, 1, 3)).toEqual([5, 5]);
    expect(tokens(s, 2, 3)).toEqual([-1, -1]);
    expect([0, 1, 2].map((p) => military(s, p))).toEqual([4, 10, -2]);
  });

  // Age I, 4 players, shields 1, 1, 0, 2: a tie gives nothing; a win +1.
  // Seat 0: tie with seat 1, loses to seat 3 → −1. Seat 1: beats seat 2 (+1), tie with seat 0 → 1.
  // Seat 2: loses to seats 3 and 1 → −2. Seat 3: beats seats 0 and 2 → 2.
  it('Age I: +1 per win, ties give nothing (4 players)', () => {
    const s = game(1, [
      { wonder: 'Gizah', built: ['Stockade'] },
      { wonder: 'Babylon', built: ['Barracks'] },
      { wonder: 'Ephesus' },
      { wonder: 'Olympia', built: ['Walls'] },
    ]);
    resolveConflicts(s);
    expect(tokens(s, 0, 1)).toEqual([0, -1]);
    expect(tokens(s, 1, 1)).toEqual([1, 0]);
    expect([0, 1, 2, 3].map((p) => military(s, p))).toEqual([-1, 1, -2, 2]);
  });

  // Age II: +3 per win. Rhodes A with 2 stages (2 shields) beats a Stockade (1) and nobody (0).
  it('Age II: +3 per win; Rhodes A stage 2 shields count', () => {
    const s = game(2, [
      { wonder: 'Rhodes', side: 'A', stages: 2 },
      { wonder: 'Gizah', built: ['Stockade'] },
      { wonder: 'Babylon' },
    ]);
    resolveConflicts(s);
    expect(tokens(s, 0, 2)).toEqual([3, 3]);
    expect(military(s, 0)).toBe(6);
  });

  // The military category is the sum of the tokens: 1 + 3 + 5 − 1 − 1 = 7.
  it('military score sums victory and defeat tokens: 7', () => {
    const pos = position(3, [
      { wonder: 'Gizah', military: [1, 3, 5, -1, -1], coins: 0 },
      { wonder: 'Rhodes' },
      { wonder: 'Babylon' },
    ]);
    expect(scoreOf(pos, 0).military).toBe(7);
  });
});

describe('decks', () => {
  // Every Age deck holds 7 cards per player (cards.json copies by player count).
  it('Ages I and II: 7n cards for 3 to 7 players', () => {
    const sizes = [3, 4, 5, 6, 7].map((n) => [ageDeckWithoutGuilds(1, n).length, ageDeckWithoutGuilds(2, n).length]);
    expect(sizes).toEqual([[21, 21], [28, 28], [35, 35], [42, 42], [49, 49]]);
  });

  // Age III: 7n − (n + 2) non-guild cards (16, 22, 28, 34, 40), plus n + 2 of the 10 guilds.
  it('Age III: 7n − (n + 2) non-guild cards; 10 guilds exist', () => {
    expect([3, 4, 5, 6, 7].map((n) => ageDeckWithoutGuilds(3, n).length)).toEqual([16, 22, 28, 34, 40]);
    expect(GUILD_IDS.length).toBe(10);
  });

  // A real game deals 7 cards to every player, and Age III hands hold exactly n + 2 guilds.
  it('newGame deals 7 cards each; Age III has n + 2 guilds', () => {
    for (let n = 3; n <= 7; n++) {
      const s = newGame({ players: n, seed: 100 + n, sides: 'A' });
      expect(Array.from(s.handLen)).toEqual(new Array(n).fill(HAND_SIZE));
      // The dealt cards are the Age I deck.
      const dealt = Array.from(s.hands.subarray(0, n * HAND_SIZE)).sort((a, b) => a - b);
      expect(dealt).toEqual(ageDeckWithoutGuilds(1, n).sort((a, b) => a - b));
      while (s.age < 3) {
        const moves = new Array<number>(n).fill(0);
        for (const p of actingSeats(s)) moves[p] = discardFirst(s, p);
        step(s, moves);
      }
      expect(Array.from(s.handLen)).toEqual(new Array(n).fill(HAND_SIZE));
      const guilds = Array.from(s.hands.subarray(0, n * HAND_SIZE)).filter((c) => CARDS[c].isGuild);
      expect(guilds.length).toBe(n + 2);
      expect(new Set(guilds).size).toBe(n + 2);
    }
  });
});
