/**
 * Commercial (yellow) cards: the coins they pay once when built and the VP they score at game end
 * (RULES-NOTES 4 and 5, cards.json notes). In every step below the other seats discard, so the
 * coins of the seat under test change only by its own card.
 */
import { describe, expect, it } from 'vitest';
import { ACTION_BUILD, type PositionPlayer } from '../src/engine/index.js';
import { game, move, play, position, score, scoreOf } from './rules-helpers.js';

/**
 * Seat 0 builds `card` from its hand while the others discard: its coins after the step (the card
 * pays them once) and the commercial VP its city scores then.
 */
const BUILT: { name: string; age: 1 | 2 | 3; players: PositionPlayer[]; card: string; coins: number; vp: number }[] = [
  // Haven: 1 coin per OWN brown card when built (neighbours' brown cards don't count); its VP
  // then counts the own brown cards: Lumber Yard, Ore Vein, Sawmill → 3 coins, 3 VP.
  {
    name: 'Haven pays 1 coin per own brown card: 3 coins, 3 VP',
    age: 3,
    players: [
      { wonder: 'Gizah', coins: 0, built: ['Lumber Yard', 'Ore Vein', 'Sawmill', 'Loom'], hand: ['Haven', 'Altar', 'Baths'] },
      { wonder: 'Rhodes', built: ['Clay Pool', 'Stone Pit'], hand: ['Palace', 'Senate', 'Gardens'] },
      { wonder: 'Ephesus', built: ['Forest Cave'], hand: ['Arena', 'Lodge', 'Study'] },
    ],
    card: 'Haven',
    coins: 3,
    vp: 3,
  },
  // Lighthouse counts own yellow cards INCLUDING itself: Tavern, Forum, Caravansery + Lighthouse
  // = 4 coins and 4 VP (built free by the Caravansery chain; the neighbour's Tavern doesn't count).
  {
    name: 'Lighthouse counts itself: 4 coins, 4 VP',
    age: 3,
    players: [
      { wonder: 'Gizah', coins: 0, built: ['Tavern', 'Forum', 'Caravansery'], hand: ['Lighthouse', 'Altar', 'Baths'] },
      { wonder: 'Rhodes', built: ['Tavern'], hand: ['Palace', 'Senate', 'Gardens'] },
      { wonder: 'Ephesus', hand: ['Arena', 'Lodge', 'Study'] },
    ],
    card: 'Lighthouse',
    coins: 4,
    vp: 4,
  },
  // Chamber of Commerce: 2 coins per own grey card when built, 2 VP per own grey card at the end:
  // Loom, Press, Glassworks → 6 coins, 6 VP (cost CCP paid by Brickyard + Press).
  {
    name: 'Chamber of Commerce: 6 coins and 6 VP for 3 grey cards',
    age: 3,
    players: [
      { wonder: 'Gizah', coins: 0, built: ['Loom', 'Press', 'Glassworks', 'Brickyard'], hand: ['Chamber of Commerce', 'Altar', 'Baths'] },
      { wonder: 'Rhodes', built: ['Press'], hand: ['Palace', 'Senate', 'Gardens'] },
      { wonder: 'Ephesus', hand: ['Arena', 'Lodge', 'Study'] },
    ],
    card: 'Chamber of Commerce',
    coins: 6,
    vp: 6,
  },
  // Arena: 3 coins per own built stage when built, 1 VP per own stage at the end. Gizah with 2
  // stages, Arena free by the Dispensary chain → 6 coins, 2 VP.
  {
    name: 'Arena: 3 coins per own stage (6) and 1 VP per stage (2)',
    age: 3,
    players: [
      { wonder: 'Gizah', side: 'A', stages: 2, coins: 0, built: ['Dispensary'], hand: ['Arena', 'Altar', 'Baths'] },
      { wonder: 'Rhodes', side: 'A', stages: 3, hand: ['Palace', 'Senate', 'Gardens'] },
      { wonder: 'Ephesus', hand: ['Haven', 'Lodge', 'Study'] },
    ],
    card: 'Arena',
    coins: 6,
    vp: 2,
  },
  // Vineyard: 1 coin per brown CARD in the own city and both neighbours (board resources are not
  // cards; a Sawmill is one card): own 1 + left 2 + right 1 = 4 coins; no VP at the end.
  {
    name: 'Vineyard counts own and both neighbours’ brown cards: 4 coins, 0 VP',
    age: 2,
    players: [
      { wonder: 'Olympia', coins: 0, built: ['Lumber Yard'], hand: ['Vineyard', 'Walls', 'School'] },
      { wonder: 'Gizah', built: ['Stone Pit', 'Clay Pool', 'Loom'], hand: ['Aqueduct', 'Statue', 'Temple'] },
      { wonder: 'Rhodes', built: ['Sawmill'], hand: ['Library', 'Courthouse', 'Stables'] },
    ],
    card: 'Vineyard',
    coins: 4,
    vp: 0,
  },
  // Bazar: 2 coins per grey CARD in the own city and both neighbours: own Loom + left Press and
  // Glassworks = 3 grey → 6 coins (Alexandria's glass board resource is not a card).
  {
    name: 'Bazar counts own and both neighbours’ grey cards: 6 coins',
    age: 2,
    players: [
      { wonder: 'Olympia', coins: 0, built: ['Loom'], hand: ['Bazar', 'Walls', 'School'] },
      { wonder: 'Gizah', built: ['Press', 'Glassworks', 'Lumber Yard'], hand: ['Aqueduct', 'Statue', 'Temple'] },
      { wonder: 'Alexandria', hand: ['Library', 'Courthouse', 'Stables'] },
    ],
    card: 'Bazaar',
    coins: 6,
    vp: 0,
  },
  // Tavern: 5 coins from the bank, once: 3 + 5 = 8; no VP.
  {
    name: 'Tavern pays 5 coins: 3 → 8',
    age: 1,
    players: [
      { wonder: 'Olympia', coins: 3, hand: ['Tavern', 'Altar', 'Baths'] },
      { wonder: 'Gizah', hand: ['Theater', 'Stockade', 'Loom'] },
      { wonder: 'Rhodes', hand: ['Press', 'Glassworks', 'Barracks'] },
    ],
    card: 'Tavern',
    coins: 8,
    vp: 0,
  },
];

describe('commercial cards: coins when built', () => {
  for (const { name, age, players, card, coins, vp } of BUILT) {
    it(name, () => {
      const s = game(age, players);
      play(s, { 0: move(s, 0, card, ACTION_BUILD) });
      expect(s.coins[0]).toBe(coins);
      expect(score(s, 0).commercial).toBe(vp);
    });
  }

  // Haven's VP counts the brown cards at game end, not when built: 4 brown cards → 4 VP.
  it('Haven scores the brown cards at game end: 4', () => {
    const pos = position(3, [
      { wonder: 'Gizah', built: ['Haven', 'Lumber Yard', 'Ore Vein', 'Sawmill', 'Clay Pool'] },
      { wonder: 'Rhodes', built: ['Stone Pit'] },
      { wonder: 'Ephesus' },
    ]);
    expect(scoreOf(pos, 0).commercial).toBe(4);
  });

  // Arena's VP counts the stages at game end: a stage built after the Arena adds 1 VP.
  it('Arena scores stages existing at game end: 3 stages → 3 VP', () => {
    const pos = position(3, [
      { wonder: 'Gizah', side: 'A', stages: 3, built: ['Arena'] },
      { wonder: 'Rhodes', side: 'A', stages: 3 },
      { wonder: 'Ephesus' },
    ]);
    expect(scoreOf(pos, 0).commercial).toBe(3);
  });
});
