/**
 * Trading with neighbours (RULES-NOTES 2 and 3): base price 2, trading-post directions,
 * Marketplace, Olympia B, what can and cannot be bought, coins, own choice cards first, and the
 * undominated (payLeft, payRight) splits of 'all' mode.
 *
 * players[i + 1] is player i's LEFT neighbour: seat 0's left is seat 1, its right seat 2.
 */
import { describe, expect, it } from 'vitest';
import { ACTION_BUILD, ACTION_STAGE } from '../src/engine/index.js';
import { cityNames, game, handEntry, move, play, position, splits } from './rules-helpers.js';

describe('prices', () => {
  // Base price: 2 coins a unit. Gizah (stone) needs wood for a Stockade; only the left neighbour
  // (Olympia, wood board resource) has wood.
  it('a unit bought from a neighbour costs 2', () => {
    const pos = position(1, [
      { wonder: 'Gizah', hand: ['Stockade'] },
      { wonder: 'Olympia' },
      { wonder: 'Rhodes' },
    ]);
    expect(handEntry(pos, 0, 'Stockade').build).toMatchObject({ legal: true, payLeft: 2, payRight: 0 });
  });

  // West Trading Post: raw materials from the LEFT neighbour at 1; the right one still costs 2.
  // Wood from both sides at different prices gives two undominated splits: (1,0) and (0,2).
  it('West Trading Post: left at 1, right at 2 → splits (1,0) and (0,2)', () => {
    const s = game(1, [
      { wonder: 'Gizah', built: ['West Trading Post'], hand: ['Stockade'] },
      { wonder: 'Olympia' },
      { wonder: 'Babylon', built: ['Lumber Yard'] },
    ]);
    expect(splits(s, 0, 'Stockade')).toEqual([[1, 0], [0, 2]]);
  });

  // East Trading Post: raw materials from the RIGHT neighbour at 1; the left one costs 2.
  it('East Trading Post: right at 1, left at 2 → splits (2,0) and (0,1)', () => {
    const s = game(1, [
      { wonder: 'Gizah', built: ['East Trading Post'], hand: ['Stockade'] },
      { wonder: 'Olympia' },
      { wonder: 'Babylon', built: ['Lumber Yard'] },
    ]);
    expect(splits(s, 0, 'Stockade')).toEqual([[2, 0], [0, 1]]);
    const pos = position(1, [
      { wonder: 'Gizah', built: ['East Trading Post'], hand: ['Stockade'] },
      { wonder: 'Olympia' },
      { wonder: 'Babylon', built: ['Lumber Yard'] },
    ]);
    expect(handEntry(pos, 0, 'Stockade').build).toMatchObject({ legal: true, payLeft: 0, payRight: 1 });
  });

  // West Trading Post gives no discount on the right: wood only on the right costs 2.
  it('West Trading Post does not discount the right neighbour', () => {
    const pos = position(1, [
      { wonder: 'Gizah', built: ['West Trading Post'], hand: ['Stockade'] },
      { wonder: 'Rhodes' },
      { wonder: 'Babylon', built: ['Lumber Yard'] },
    ]);
    expect(handEntry(pos, 0, 'Stockade').build).toMatchObject({ legal: true, payLeft: 0, payRight: 2 });
  });

  // Marketplace: manufactured goods from BOTH neighbours at 1 (papyrus from Ephesus on the left,
  // glass from Alexandria on the right), raw materials still at 2 (ore on the right).
  it('Marketplace: glass and papyrus at 1 from either side, ore still at 2', () => {
    const pos = position(1, [
      { wonder: 'Gizah', built: ['Marketplace'], hand: ['Workshop', 'Scriptorium', 'Barracks'] },
      { wonder: 'Ephesus' },
      { wonder: 'Alexandria', built: ['Ore Vein'] },
    ]);
    expect(handEntry(pos, 0, 'Workshop').build).toMatchObject({ legal: true, payLeft: 0, payRight: 1 });
    expect(handEntry(pos, 0, 'Scriptorium').build).toMatchObject({ legal: true, payLeft: 1, payRight: 0 });
    expect(handEntry(pos, 0, 'Barracks').build).toMatchObject({ legal: true, payLeft: 0, payRight: 2 });
  });

  // Olympia B stage 1: raw materials from both neighbours at 1 (splits (1,0) and (0,1)), but
  // manufactured goods still at 2.
  it('Olympia B stage 1: raw from both at 1, glass at 2', () => {
    const s = game(1, [
      { wonder: 'Olympia', side: 'B', stages: 1, hand: ['Baths', 'Workshop'] },
      { wonder: 'Gizah' },
      { wonder: 'Alexandria', built: ['Stone Pit'] },
    ]);
    expect(splits(s, 0, 'Baths')).toEqual([[1, 0], [0, 1]]);
    expect(splits(s, 0, 'Workshop')).toEqual([[0, 2]]);
  });

  // Three stone bought with West Trading Post: the left has 2 (Gizah board + Stone Pit) at 1
  // each, the right 3 (Quarry + Stone Pit) at 2 each. Undominated splits: (2,2), (1,4), (0,6);
  // with 5 coins only (2,2) and (1,4).
  it('several units: every undominated split, limited by the coins', () => {
    const players = (coins: number) => [
      { wonder: 'Rhodes', coins, built: ['West Trading Post'], hand: ['Aqueduct'] },
      { wonder: 'Gizah', built: ['Stone Pit'] },
      { wonder: 'Olympia', built: ['Quarry', 'Stone Pit'] },
    ];
    expect(splits(game(2, players(10)), 0, 'Aqueduct')).toEqual([[2, 2], [1, 4], [0, 6]]);
    expect(splits(game(2, players(5)), 0, 'Aqueduct')).toEqual([[2, 2], [1, 4]]);
    expect(handEntry(position(2, players(10)), 0, 'Aqueduct').build).toMatchObject({ legal: true, payLeft: 2, payRight: 2 });
  });

  // Trade discounts apply to wonder stages too: Gizah A stage 1 (SS) with 1 own stone and a West
  // Trading Post buys the second stone from the left for 1.
  it('discounts apply to wonder stages: Gizah A stage 1 for 1 coin', () => {
    const pos = position(1, [
      { wonder: 'Gizah', side: 'A', built: ['West Trading Post'], hand: ['Altar'] },
      { wonder: 'Rhodes', built: ['Stone Pit'] },
      { wonder: 'Babylon' },
    ]);
    expect(handEntry(pos, 0, 'Altar').wonder).toMatchObject({ legal: true, payLeft: 1, payRight: 0 });
  });
});

describe('what can be bought', () => {
  // A neighbour's brown choice card (Timber Yard: wood or stone) can be bought.
  it('a neighbour’s brown choice card can be bought: stone for 2', () => {
    const pos = position(1, [
      { wonder: 'Olympia', hand: ['Baths'] },
      { wonder: 'Rhodes', built: ['Timber Yard'] },
      { wonder: 'Babylon' },
    ]);
    expect(handEntry(pos, 0, 'Baths').build).toMatchObject({ legal: true, payLeft: 2, payRight: 0 });
  });

  // A choice card produces one unit a turn: a neighbour's only wood source being a Timber Yard,
  // two wood (Caravansery, WW) cannot be bought from it.
  it('a neighbour’s choice card gives one unit only: WW from one Timber Yard is not buyable', () => {
    const pos = position(2, [
      { wonder: 'Gizah', coins: 9, hand: ['Caravansery'] },
      { wonder: 'Rhodes', built: ['Timber Yard'] },
      { wonder: 'Babylon' },
    ]);
    expect(handEntry(pos, 0, 'Caravansery').build.legal).toBe(false);
  });

  // Forum and Caravansery production can never be bought (yellow cards).
  it('Forum and Caravansery production cannot be bought', () => {
    const pos = position(2, [
      { wonder: 'Olympia', coins: 9, hand: ['Walls', 'School'] },
      { wonder: 'Rhodes', built: ['Forum', 'Caravansery'] },
      { wonder: 'Babylon' },
    ]);
    // Walls needs SSS, School WP: stone and papyrus only from the neighbour's yellow cards.
    expect(handEntry(pos, 0, 'Walls').build.legal).toBe(false);
    expect(handEntry(pos, 0, 'School').build.legal).toBe(false);
  });

  // Alexandria's stage production (A stage 2: one of W/S/C/O) serves Alexandria only.
  it('Alexandria stage production cannot be bought, but Alexandria uses it itself', () => {
    const pos = position(1, [
      { wonder: 'Olympia', coins: 9, hand: ['Baths', 'Workshop'] },
      { wonder: 'Alexandria', side: 'A', stages: 2, hand: ['Baths', 'Workshop'] },
      { wonder: 'Babylon', hand: ['Altar', 'Theater'] },
    ]);
    expect(handEntry(pos, 0, 'Baths').build.legal).toBe(false);
    // Alexandria's board resource (glass) can be bought.
    expect(handEntry(pos, 0, 'Workshop').build).toMatchObject({ legal: true, payLeft: 2, payRight: 0 });
    expect(handEntry(pos, 1, 'Baths').build).toMatchObject({ legal: true, payLeft: 0, payRight: 0 });
  });

  // Buying never uses up the neighbour's resource: Gizah uses its only stone for its own Baths
  // while both its neighbours buy that same stone the same turn. Gizah gets 2 + 2 coins.
  it('a neighbour’s own use never limits what can be bought', () => {
    const s = game(1, [
      { wonder: 'Olympia', coins: 3, hand: ['Baths', 'Altar'] },
      { wonder: 'Gizah', coins: 3, hand: ['Baths', 'Altar'] },
      { wonder: 'Rhodes', coins: 3, hand: ['Baths', 'Altar'] },
    ]);
    const m0 = move(s, 0, 'Baths', ACTION_BUILD);
    const m1 = move(s, 1, 'Baths', ACTION_BUILD);
    const m2 = move(s, 2, 'Baths', ACTION_BUILD);
    play(s, { 0: m0, 1: m1, 2: m2 });
    expect(cityNames(s, 0)).toEqual(['Baths']);
    expect(cityNames(s, 1)).toEqual(['Baths']);
    expect(cityNames(s, 2)).toEqual(['Baths']);
    expect(Array.from(s.coins)).toEqual([1, 7, 1]);
  });

  // Not enough coins: 1 coin cannot buy a unit at 2; 2 coins can; with a West Trading Post 1 coin
  // is enough.
  it('not enough coins → not legal', () => {
    const players = (coins: number, built: string[] = []) => [
      { wonder: 'Gizah', coins, built, hand: ['Stockade'] },
      { wonder: 'Olympia' },
      { wonder: 'Rhodes' },
    ];
    expect(handEntry(position(1, players(1)), 0, 'Stockade').build.legal).toBe(false);
    expect(handEntry(position(1, players(2)), 0, 'Stockade').build).toMatchObject({ legal: true, payLeft: 2 });
    expect(handEntry(position(1, players(1, ['West Trading Post'])), 0, 'Stockade').build).toMatchObject({ legal: true, payLeft: 1 });
  });
});

describe('own production first', () => {
  // An own choice card (Timber Yard) pays the stone: nothing is bought although both neighbours
  // sell stone.
  it('own Timber Yard pays the stone of the Baths: free', () => {
    const s = game(1, [
      { wonder: 'Rhodes', coins: 5, built: ['Timber Yard'], hand: ['Baths'] },
      { wonder: 'Gizah' },
      { wonder: 'Babylon', built: ['Stone Pit'] },
    ]);
    expect(splits(s, 0, 'Baths')).toEqual([[0, 0]]);
  });

  // Caravansery (own yellow choice card) pays one of three stone; two are bought: 4 coins
  // instead of 6.
  it('own Caravansery pays one stone of the Walls: 4 coins for the other two', () => {
    const pos = position(2, [
      { wonder: 'Olympia', coins: 9, built: ['Caravansery'], hand: ['Walls'] },
      { wonder: 'Gizah', built: ['Quarry'] },
      { wonder: 'Babylon' },
    ]);
    expect(handEntry(pos, 0, 'Walls').build).toMatchObject({ legal: true, payLeft: 4, payRight: 0 });
  });

  // Alexandria B with both stages: stage 1 gives W/S/C/O, stage 2 G/P/L. Temple (WCG): glass from
  // the board, wood or clay from stage 1, the other one bought for 2.
  it('Alexandria B choice production: Temple costs one bought unit (2)', () => {
    const pos = position(2, [
      { wonder: 'Alexandria', side: 'B', stages: 2, coins: 5, hand: ['Temple', 'School'] },
      { wonder: 'Olympia' },
      { wonder: 'Babylon' },
    ]);
    const temple = handEntry(pos, 0, 'Temple').build;
    expect(temple.legal).toBe(true);
    expect((temple.payLeft ?? 0) + (temple.payRight ?? 0)).toBe(2);
    // School (WP): wood from stage 1, papyrus from stage 2: free.
    expect(handEntry(pos, 0, 'School').build).toMatchObject({ legal: true, payLeft: 0, payRight: 0 });
  });
});

describe('payments move coins', () => {
  // The coins paid go to the neighbour sold from: Gizah buys wood from Olympia (left) at 2: Gizah 3 → 1, Olympia 3 → 5 (Olympia builds a free card).
  it('paying the left neighbour: 2 coins move from buyer to seller', () => {
    const s = game(1, [
      { wonder: 'Gizah', coins: 3, hand: ['Stockade', 'Altar'] },
      { wonder: 'Olympia', coins: 3, hand: ['Altar', 'Theater'] },
      { wonder: 'Rhodes', coins: 3, hand: ['Theater', 'Altar'] },
    ]);
    play(s, {
      0: move(s, 0, 'Stockade', ACTION_BUILD),
      1: move(s, 1, 'Altar', ACTION_BUILD),
      2: move(s, 2, 'Theater', ACTION_BUILD),
    });
    expect(Array.from(s.coins)).toEqual([1, 5, 3]);
  });

  // Stage payments too: Gizah A stage 1 (SS) buying 1 stone from the right for 2.
  it('paying for a stage: Gizah A stage 1 buys a stone from the right for 2', () => {
    const s = game(1, [
      { wonder: 'Gizah', side: 'A', coins: 3, hand: ['Stockade', 'Altar'] },
      { wonder: 'Olympia', coins: 3, hand: ['Altar', 'Theater'] },
      { wonder: 'Rhodes', coins: 3, built: ['Stone Pit'], hand: ['Theater', 'Altar'] },
    ]);
    expect(splits(s, 0, 'Stockade', ACTION_STAGE)).toEqual([[0, 2]]);
    play(s, {
      0: move(s, 0, 'Stockade', ACTION_STAGE),
      1: move(s, 1, 'Altar', ACTION_BUILD),
      2: move(s, 2, 'Theater', ACTION_BUILD),
    });
    expect(s.stages[0]).toBe(1);
    expect(Array.from(s.coins)).toEqual([1, 3, 5]);
  });
});
