/**
 * Commercial (yellow) cards: the coins they pay once when built and the VP they score at game end
 * (RULES-NOTES 4 and 5, cards.json notes). In every step below the other seats discard, so the
 * coins of the seat under test change only by its own card.
 */
import { describe, expect, it } from 'vitest';
import { ACTION_BUILD } from '../src/engine/index.js';
import { game, move, play, position, score, scoreOf } from './rules-helpers.js';

describe('commercial cards: coins when built', () => {
  // Haven: 1 coin per OWN brown card when built (neighbours' brown cards don't count); its VP
  // then counts the own brown cards: Lumber Yard, Ore Vein, Sawmill → 3 coins, 3 VP.
  it('Haven pays 1 coin per own brown card: 3 coins, 3 VP', () => {
    const s = game(3, [
      { wonder: 'Gizah', coins: 0, built: ['Lumber Yard', 'Ore Vein', 'Sawmill', 'Loom'], hand: ['Haven', 'Altar', 'Baths'] },
      { wonder: 'Rhodes', built: ['Clay Pool', 'Stone Pit'], hand: ['Palace', 'Senate', 'Gardens'] },
      { wonder: 'Ephesus', built: ['Forest Cave'], hand: ['Arena', 'Lodge', 'Study'] },
    ]);
    const m = move(s, 0, 'Haven', ACTION_BUILD);
    play(s, { 0: m });
    expect(s.coins[0]).toBe(3);
    expect(score(s, 0).commercial).toBe(3);
  });

  // Haven's VP counts the brown cards at game end, not when built: 4 brown cards → 4 VP.
  it('Haven scores the brown cards at game end: 4', () => {
    const pos = position(3, [
      { wonder: 'Gizah', built: ['Haven', 'Lumber Yard', 'Ore Vein', 'Sawmill', 'Clay Pool'] },
      { wonder: 'Rhodes', built: ['Stone Pit'] },
      { wonder: 'Ephesus' },
    ]);
    expect(scoreOf(pos, 0).commercial).toBe(4);
  });

  // Lighthouse counts own yellow cards INCLUDING itself: Tavern, Forum, Caravansery + Lighthouse
  // = 4 coins and 4 VP (built free by the Caravansery chain; the neighbour's Tavern doesn't count).
  it('Lighthouse counts itself: 4 coins, 4 VP', () => {
    const s = game(3, [
      { wonder: 'Gizah', coins: 0, built: ['Tavern', 'Forum', 'Caravansery'], hand: ['Lighthouse', 'Altar', 'Baths'] },
      { wonder: 'Rhodes', built: ['Tavern'], hand: ['Palace', 'Senate', 'Gardens'] },
      { wonder: 'Ephesus', hand: ['Arena', 'Lodge', 'Study'] },
    ]);
    play(s, { 0: move(s, 0, 'Lighthouse', ACTION_BUILD) });
    expect(s.coins[0]).toBe(4);
    expect(score(s, 0).commercial).toBe(4);
  });

  // Chamber of Commerce: 2 coins per own grey card when built, 2 VP per own grey card at the end:
  // Loom, Press, Glassworks → 6 coins, 6 VP (cost CCP paid by Brickyard + Press).
  it('Chamber of Commerce: 6 coins and 6 VP for 3 grey cards', () => {
    const s = game(3, [
      { wonder: 'Gizah', coins: 0, built: ['Loom', 'Press', 'Glassworks', 'Brickyard'], hand: ['Chamber of Commerce', 'Altar', 'Baths'] },
      { wonder: 'Rhodes', built: ['Press'], hand: ['Palace', 'Senate', 'Gardens'] },
      { wonder: 'Ephesus', hand: ['Arena', 'Lodge', 'Study'] },
    ]);
    play(s, { 0: move(s, 0, 'Chamber of Commerce', ACTION_BUILD) });
    expect(s.coins[0]).toBe(6);
    expect(score(s, 0).commercial).toBe(6);
  });

  // Arena: 3 coins per own built stage when built, 1 VP per own stage at the end. Gizah with 2
  // stages, Arena free by the Dispensary chain → 6 coins, 2 VP.
  it('Arena: 3 coins per own stage (6) and 1 VP per stage (2)', () => {
    const s = game(3, [
      { wonder: 'Gizah', side: 'A', stages: 2, coins: 0, built: ['Dispensary'], hand: ['Arena', 'Altar', 'Baths'] },
      { wonder: 'Rhodes', side: 'A', stages: 3, hand: ['Palace', 'Senate', 'Gardens'] },
      { wonder: 'Ephesus', hand: ['Haven', 'Lodge', 'Study'] },
    ]);
    play(s, { 0: move(s, 0, 'Arena', ACTION_BUILD) });
    expect(s.coins[0]).toBe(6);
    expect(score(s, 0).commercial).toBe(2);
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

  // Vineyard: 1 coin per brown CARD in the own city and both neighbours (board resources are not
  // cards; a Sawmill is one card): own 1 + left 2 + right 1 = 4 coins; no VP at the end.
  it('Vineyard counts own and both neighbours’ brown cards: 4 coins, 0 VP', () => {
    const s = game(2, [
      { wonder: 'Olympia', coins: 0, built: ['Lumber Yard'], hand: ['Vineyard', 'Walls', 'School'] },
      { wonder: 'Gizah', built: ['Stone Pit', 'Clay Pool', 'Loom'], hand: ['Aqueduct', 'Statue', 'Temple'] },
      { wonder: 'Rhodes', built: ['Sawmill'], hand: ['Library', 'Courthouse', 'Stables'] },
    ]);
    play(s, { 0: move(s, 0, 'Vineyard', ACTION_BUILD) });
    expect(s.coins[0]).toBe(4);
    expect(score(s, 0).commercial).toBe(0);
  });

  // Bazar: 2 coins per grey CARD in the own city and both neighbours: own Loom + left Press and
  // Glassworks = 3 grey → 6 coins (Alexandria's glass board resource is not a card).
  it('Bazar counts own and both neighbours’ grey cards: 6 coins', () => {
    const s = game(2, [
      { wonder: 'Olympia', coins: 0, built: ['Loom'], hand: ['Bazar', 'Walls', 'School'] },
      { wonder: 'Gizah', built: ['Press', 'Glassworks', 'Lumber Yard'], hand: ['Aqueduct', 'Statue', 'Temple'] },
      { wonder: 'Alexandria', hand: ['Library', 'Courthouse', 'Stables'] },
    ]);
    play(s, { 0: move(s, 0, 'Bazaar', ACTION_BUILD) });
    expect(s.coins[0]).toBe(6);
    expect(score(s, 0).commercial).toBe(0);
  });

  // Tavern: 5 coins from the bank, once: 3 + 5 = 8.
  it('Tavern pays 5 coins: 3 → 8', () => {
    const s = game(1, [
      { wonder: 'Olympia', coins: 3, hand: ['Tavern', 'Altar', 'Baths'] },
      { wonder: 'Gizah', hand: ['Theater', 'Stockade', 'Loom'] },
      { wonder: 'Rhodes', hand: ['Press', 'Glassworks', 'Barracks'] },
    ]);
    play(s, { 0: move(s, 0, 'Tavern', ACTION_BUILD) });
    expect(s.coins[0]).toBe(8);
  });
});
