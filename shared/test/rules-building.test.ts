/**
 * Building structures: chains (free of coins and resources), never two buildings of the same
 * name (RULES-NOTES 10), and the coin cost of brown cards paid to the bank.
 */
import { describe, expect, it } from 'vitest';
import { ACTION_BUILD, ACTION_DISCARD, ACTION_STAGE, CARDS, legalMoves, moveAction, moveCard } from '../src/engine/index.js';
import { cityNames, findMove, game, handEntry, move, play, position } from './rules-helpers.js';

describe('chains', () => {
  // Baths → Aqueduct: free although the city has no stone and no coins.
  it('a chain builds free with no resources and no coins', () => {
    const pos = position(2, [
      { wonder: 'Olympia', coins: 0, built: ['Baths'], hand: ['Aqueduct', 'Walls'] },
      { wonder: 'Rhodes', hand: ['Statue', 'Temple'] },
      { wonder: 'Babylon', hand: ['School', 'Library'] },
    ]);
    expect(handEntry(pos, 0, 'Aqueduct').build).toEqual({ legal: true, free: true, payLeft: 0, payRight: 0 });
    const s = game(2, pos.players);
    play(s, { 0: move(s, 0, 'Aqueduct', ACTION_BUILD) });
    expect(s.coins[0]).toBe(0);
    expect(cityNames(s, 0)).toEqual(['Aqueduct', 'Baths']);
  });

  // Age I → II → III chains: Scriptorium → Library → Senate (WWSO) with nothing else: free.
  it('an Age II building chains into Age III: Library → Senate free', () => {
    const pos = position(3, [
      { wonder: 'Gizah', coins: 0, built: ['Scriptorium', 'Library'], hand: ['Senate'] },
      { wonder: 'Rhodes' },
      { wonder: 'Babylon' },
    ]);
    expect(handEntry(pos, 0, 'Senate').build).toMatchObject({ legal: true, free: true, payLeft: 0, payRight: 0 });
  });

  // Without the chain the same card must be paid: Aqueduct (SSS) with no stone anywhere is not
  // buildable.
  it('without the chain building, Aqueduct needs its stone', () => {
    const pos = position(2, [
      { wonder: 'Olympia', coins: 9, hand: ['Aqueduct'] },
      { wonder: 'Rhodes' },
      { wonder: 'Babylon' },
    ]);
    expect(handEntry(pos, 0, 'Aqueduct').build.legal).toBe(false);
  });
});

describe('same name', () => {
  // The Age I Loom blocks the Age II Loom; the card can still be used for a stage or discarded.
  it('Loom of Age I blocks Loom of Age II', () => {
    const s = game(2, [
      { wonder: 'Rhodes', side: 'A', built: ['Loom', 'Lumber Yard', 'Timber Yard'], hand: ['Loom', 'Walls'] },
      { wonder: 'Gizah', hand: ['Statue', 'Temple'] },
      { wonder: 'Babylon', hand: ['School', 'Library'] },
    ]);
    expect(findMove(s, 0, 'Loom', ACTION_BUILD)).toBeUndefined();
    // Rhodes A stage 1 costs WW: Lumber Yard + Timber Yard.
    expect(findMove(s, 0, 'Loom', ACTION_STAGE)).toBeDefined();
    expect(findMove(s, 0, 'Loom', ACTION_DISCARD)).toBeDefined();
  });

  // A free building (Altar) already in the city cannot be built again.
  it('a building already in the city cannot be built again', () => {
    const pos = position(1, [
      { wonder: 'Gizah', built: ['Altar'], hand: ['Altar', 'Theater'] },
      { wonder: 'Rhodes' },
      { wonder: 'Babylon' },
    ]);
    expect(handEntry(pos, 0, 'Altar').build.legal).toBe(false);
    expect(handEntry(pos, 0, 'Theater').build.legal).toBe(true);
  });
  // Games of five or more players deal two copies of some cards: a hand holding both lists each
  // of the card's moves once, as for one copy.
  it('two copies of a card in one hand give its moves once', () => {
    const s = game(1, [
      { wonder: 'Gizah', hand: ['Lumber Yard', 'Lumber Yard', 'Altar'] },
      { wonder: 'Rhodes', hand: ['Stockade', 'Baths', 'Altar'] },
      { wonder: 'Babylon', hand: ['Theater', 'Baths', 'Altar'] },
    ]);
    const moves = legalMoves(s, 0, 'cheapest');
    expect(new Set(moves).size).toBe(moves.length);
    const lumber = moves.filter((m) => CARDS[moveCard(m)].name === 'Lumber Yard').map(moveAction);
    expect(lumber.sort()).toEqual([ACTION_BUILD, ACTION_DISCARD]);
    expect(legalMoves(s, 0, 'all').filter((m) => CARDS[moveCard(m)].name === 'Lumber Yard')).toHaveLength(2);
  });
});

describe('coin costs', () => {
  // Timber Yard costs 1 coin to the bank: not buildable with 0 coins.
  it('Timber Yard is not buildable with 0 coins', () => {
    const pos = position(1, [
      { wonder: 'Gizah', coins: 0, hand: ['Timber Yard'] },
      { wonder: 'Rhodes' },
      { wonder: 'Babylon' },
    ]);
    expect(handEntry(pos, 0, 'Timber Yard').build.legal).toBe(false);
  });

  // With 1 coin the Timber Yard is built and the coin goes to the bank (not to a neighbour).
  it('Timber Yard with 1 coin: built, 1 → 0, neighbours get nothing', () => {
    const s = game(1, [
      { wonder: 'Gizah', coins: 1, hand: ['Timber Yard', 'Altar'] },
      { wonder: 'Rhodes', coins: 3, hand: ['Altar', 'Theater'] },
      { wonder: 'Babylon', coins: 3, hand: ['Theater', 'Altar'] },
    ]);
    play(s, {
      0: move(s, 0, 'Timber Yard', ACTION_BUILD),
      1: move(s, 1, 'Altar', ACTION_BUILD),
      2: move(s, 2, 'Theater', ACTION_BUILD),
    });
    expect(Array.from(s.coins)).toEqual([0, 3, 3]);
    expect(cityNames(s, 0)).toEqual(['Timber Yard']);
  });

  // Sawmill (Age II) costs 1 coin, paid to the bank: 4 coins → 3.
  it('Sawmill costs 1 coin: 4 → 3', () => {
    const s = game(2, [
      { wonder: 'Gizah', coins: 4, hand: ['Sawmill', 'Walls'] },
      { wonder: 'Rhodes', coins: 3, hand: ['Loom', 'Press'] },
      { wonder: 'Babylon', coins: 3, hand: ['Press', 'Loom'] },
    ]);
    play(s, {
      0: move(s, 0, 'Sawmill', ACTION_BUILD),
      1: move(s, 1, 'Loom', ACTION_BUILD),
      2: move(s, 2, 'Press', ACTION_BUILD),
    });
    expect(Array.from(s.coins)).toEqual([3, 3, 3]);
  });

  // Discarding gives 3 coins.
  it('discarding a card gives 3 coins', () => {
    const s = game(1, [
      { wonder: 'Gizah', coins: 0, hand: ['Altar', 'Theater'] },
      { wonder: 'Rhodes', coins: 0, hand: ['Altar', 'Theater'] },
      { wonder: 'Babylon', coins: 0, hand: ['Theater', 'Altar'] },
    ]);
    play(s, {
      0: move(s, 0, 'Altar', ACTION_DISCARD),
      1: move(s, 1, 'Altar', ACTION_BUILD),
      2: move(s, 2, 'Theater', ACTION_BUILD),
    });
    expect(Array.from(s.coins.slice(0, 3))).toEqual([3, 0, 0]);
  });
});
