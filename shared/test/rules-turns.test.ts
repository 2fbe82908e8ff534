/**
 * Turn flow with wonder powers: Babylon B's seventh card (RULES-NOTES 7), Halikarnassos' build
 * from the discard pile (8), Olympia A's free build once per Age (9), and the passing direction
 * of the hands (2).
 */
import { describe, expect, it } from 'vitest';
import {
  ACTION_BUILD,
  ACTION_BUILD_DISCARDED,
  ACTION_DISCARD,
  ACTION_FREE_BUILD,
  ACTION_STAGE,
  CARDS,
  PHASE_DISCARD_BUILD,
  PHASE_SEVENTH,
  PHASE_TURN,
  actingSeats,
  encodeMove,
  handBase,
  legalMoves,
  moveAction,
  moveCard,
  newGame,
  step,
  type GameState,
} from '../src/engine/index.js';
import { card, cityNames, discardFirst, discardNames, findMove, game, handIds, move, play, score } from './rules-helpers.js';

/** Names of the cards offered to build from the discard pile. */
function discardBuildOptions(s: GameState, seat: number): string[] {
  const moves = legalMoves(s, seat, 'all');
  expect(moves.every((m) => moveAction(m) === ACTION_BUILD_DISCARDED)).toBe(true);
  return moves.map((m) => CARDS[moveCard(m)].name).sort();
}

describe('Babylon B: the seventh card', () => {
  // With stage 2 built, after turn 6 Babylon alone plays its last card (PHASE_SEVENTH); here it
  // builds it. The other last cards go to the discard pile; then Age II begins.
  it('after turn 6 Babylon B (stage 2) acts alone and builds its seventh card', () => {
    const s = game(1, [
      { wonder: 'Babylon', side: 'B', stages: 2, coins: 3, hand: ['Altar', 'Theater'] },
      { wonder: 'Gizah', coins: 3, hand: ['Baths', 'Stockade'] },
      { wonder: 'Rhodes', coins: 3, hand: ['Loom', 'Press'] },
    ]);
    play(s, {
      0: move(s, 0, 'Altar', ACTION_BUILD),
      1: move(s, 1, 'Baths', ACTION_DISCARD),
      2: move(s, 2, 'Loom', ACTION_DISCARD),
    });
    expect(s.phase).toBe(PHASE_SEVENTH);
    expect(s.age).toBe(1);
    expect(actingSeats(s)).toEqual([0]);
    expect(legalMoves(s, 1)).toEqual([]);
    expect(legalMoves(s, 2)).toEqual([]);
    const theater = move(s, 0, 'Theater', ACTION_BUILD);
    expect(findMove(s, 0, 'Theater', ACTION_DISCARD)).toBeDefined();
    step(s, [theater, 0, 0]);
    expect(cityNames(s, 0)).toEqual(['Altar', 'Theater']);
    expect(score(s, 0).civilian).toBe(4);
    expect(discardNames(s)).toEqual(['Baths', 'Loom', 'Press', 'Stockade']);
    expect(s.age).toBe(2);
    expect(s.turn).toBe(1);
    expect(s.phase).toBe(PHASE_TURN);
    expect(Array.from(s.coins)).toEqual([3, 6, 6]);
  });

  // Stage 2 built on turn 6 itself: the seventh card of this Age may already be played; here it
  // is discarded for 3 coins.
  it('stage 2 built on turn 6: the seventh card of the same Age is played (discard: +3 coins)', () => {
    const s = game(1, [
      { wonder: 'Babylon', side: 'B', stages: 1, coins: 3, built: ['Sawmill', 'Glassworks'], hand: ['Altar', 'Theater'] },
      { wonder: 'Gizah', hand: ['Baths', 'Stockade'] },
      { wonder: 'Rhodes', hand: ['Loom', 'Press'] },
    ]);
    // Babylon B stage 2 costs WWG: Sawmill + Glassworks.
    play(s, { 0: move(s, 0, 'Altar', ACTION_STAGE) });
    expect(s.stages[0]).toBe(2);
    expect(s.phase).toBe(PHASE_SEVENTH);
    expect(actingSeats(s)).toEqual([0]);
    step(s, [encodeMove(card('Theater'), ACTION_DISCARD), 0, 0]);
    expect(s.coins[0]).toBe(6);
    expect(s.age).toBe(2);
    expect(discardNames(s)).toContain('Theater');
  });

  // The seventh card may also build a wonder stage: Babylon B stage 3 (CCCP) with Brickyard and
  // Press, in Age II (the power lasts for every later Age). Stage 3 is a wild science symbol.
  it('the seventh card can build stage 3 (Age II)', () => {
    const s = game(2, [
      { wonder: 'Babylon', side: 'B', stages: 2, coins: 3, built: ['Brickyard', 'Press'], hand: ['Walls', 'Statue'] },
      { wonder: 'Gizah', hand: ['Aqueduct', 'Temple'] },
      { wonder: 'Rhodes', hand: ['School', 'Library'] },
    ]);
    play(s, { 0: move(s, 0, 'Walls', ACTION_DISCARD) });
    expect(s.phase).toBe(PHASE_SEVENTH);
    expect(s.coins[0]).toBe(6);
    const stage = move(s, 0, 'Statue', ACTION_STAGE);
    step(s, [stage, 0, 0]);
    expect(s.stages[0]).toBe(3);
    expect(s.age).toBe(3);
    // One wild symbol alone is best as any single symbol: 1² = 1.
    expect(score(s, 0).science).toBe(1);
  });

  // Without stage 2 (only stage 1) the last card is discarded with the others: no PHASE_SEVENTH.
  it('Babylon B with stage 1 only: the seventh card is discarded, Age II starts', () => {
    const s = game(1, [
      { wonder: 'Babylon', side: 'B', stages: 1, coins: 3, hand: ['Altar', 'Theater'] },
      { wonder: 'Gizah', hand: ['Baths', 'Stockade'] },
      { wonder: 'Rhodes', hand: ['Loom', 'Press'] },
    ]);
    play(s, { 0: move(s, 0, 'Altar', ACTION_BUILD) });
    expect(s.age).toBe(2);
    expect(s.phase).toBe(PHASE_TURN);
    expect(discardNames(s)).toContain('Theater');
    expect(s.coins[0]).toBe(3);
  });
});

describe('Halikarnassos: build from the discard pile', () => {
  // At the end of the turn the stage is built: PHASE_DISCARD_BUILD, Halikarnassos alone; options
  // are the discarded cards it does not own (this turn's discard Aqueduct included; Ore Vein and
  // the Age II Loom excluded, the city having an Ore Vein and the Age I Loom). The card is free.
  it('after the stage: only unowned discarded cards (this turn’s included), built free', () => {
    const s = game(
      2,
      [
        { wonder: 'Halicarnassus', side: 'A', stages: 1, coins: 3, built: ['Foundry', 'Ore Vein', 'Loom'], hand: ['Walls', 'Statue', 'Temple'] },
        { wonder: 'Gizah', coins: 3, hand: ['Aqueduct', 'Courthouse', 'School'] },
        { wonder: 'Rhodes', coins: 3, hand: ['Glassworks', 'Press', 'Library'] },
      ],
      ['Altar', 'Ore Vein'],
    );
    s.discard[card('Loom', 2)]++;
    // Halikarnassos A stage 2 costs OOO: Foundry + Ore Vein.
    play(s, {
      0: move(s, 0, 'Walls', ACTION_STAGE),
      1: move(s, 1, 'Aqueduct', ACTION_DISCARD),
      2: move(s, 2, 'Glassworks', ACTION_BUILD),
    });
    expect(s.stages[0]).toBe(2);
    expect(s.phase).toBe(PHASE_DISCARD_BUILD);
    expect(actingSeats(s)).toEqual([0]);
    expect(legalMoves(s, 1)).toEqual([]);
    expect(discardBuildOptions(s, 0)).toEqual(['Altar', 'Aqueduct']);
    // Aqueduct (SSS) is built free: no stone, coins unchanged.
    step(s, [encodeMove(card('Aqueduct'), ACTION_BUILD_DISCARDED), 0, 0]);
    expect(s.coins[0]).toBe(3);
    expect(cityNames(s, 0)).toContain('Aqueduct');
    expect(score(s, 0).civilian).toBe(5);
    expect(s.discard[card('Aqueduct')]).toBe(0);
    expect(s.phase).toBe(PHASE_TURN);
    expect(s.turn).toBe(6);
    expect(s.age).toBe(2);
  });

  // On turn 6 the seventh cards of the Age are on the pile too (Halikarnassos' own included).
  it('stage built on turn 6: the seventh cards of the Age can be built', () => {
    const s = game(1, [
      { wonder: 'Halicarnassus', side: 'A', stages: 1, coins: 3, built: ['Foundry', 'Ore Vein'], hand: ['Altar', 'Theater'] },
      { wonder: 'Gizah', hand: ['Baths', 'Stockade'] },
      { wonder: 'Rhodes', hand: ['Loom', 'Press'] },
    ]);
    play(s, {
      0: move(s, 0, 'Altar', ACTION_STAGE),
      1: move(s, 1, 'Baths', ACTION_BUILD),
      2: move(s, 2, 'Loom', ACTION_BUILD),
    });
    expect(s.phase).toBe(PHASE_DISCARD_BUILD);
    expect(s.age).toBe(1);
    expect(discardBuildOptions(s, 0)).toEqual(['Press', 'Stockade', 'Theater']);
    step(s, [encodeMove(card('Stockade'), ACTION_BUILD_DISCARDED), 0, 0]);
    expect(cityNames(s, 0)).toEqual(['Foundry', 'Ore Vein', 'Stockade']);
    expect(s.coins[0]).toBe(3);
    expect(s.age).toBe(2);
  });

  /** Turn 5 of Age I: Halikarnassos (this side, city and pile) builds its second stage with an Altar, its neighbours build. */
  function secondStageTurn(side: 'A' | 'B', built: string[], discard: string[]): GameState {
    const s = game(
      1,
      [
        { wonder: 'Halicarnassus', side, stages: 1, built, hand: ['Altar', 'Theater', 'Baths'] },
        { wonder: 'Gizah', hand: ['Altar', 'Theater', 'Loom'] },
        { wonder: 'Rhodes', hand: ['Theater', 'Loom', 'Press'] },
      ],
      discard,
    );
    play(s, {
      0: move(s, 0, 'Altar', ACTION_STAGE),
      1: move(s, 1, 'Altar', ACTION_BUILD),
      2: move(s, 2, 'Theater', ACTION_BUILD),
    });
    return s;
  }

  // Nothing eligible on the pile (only a card the city owns): nothing happens, play goes on.
  it('no eligible discarded card: no discard-build phase', () => {
    const s = secondStageTurn('A', ['Foundry', 'Ore Vein'], ['Ore Vein']);
    expect(s.phase).toBe(PHASE_TURN);
    expect(s.turn).toBe(6);
    expect(actingSeats(s)).toEqual([0, 1, 2]);
  });

  // Halikarnassos B: every stage builds from the discard pile; stage 2 (CCC) triggers too.
  it('Halikarnassos B stage 2 also builds from the discard pile', () => {
    const s = secondStageTurn('B', ['Brickyard', 'Clay Pool'], ['Tavern']);
    expect(s.phase).toBe(PHASE_DISCARD_BUILD);
    expect(discardBuildOptions(s, 0)).toEqual(['Tavern']);
    step(s, [encodeMove(card('Tavern'), ACTION_BUILD_DISCARDED), 0, 0]);
    // A Tavern built from the pile still pays its 5 coins: 3 + 5.
    expect(s.coins[0]).toBe(8);
    // Halikarnassos B: stage 1 2 VP, stage 2 1 VP.
    expect(score(s, 0).wonder).toBe(3);
  });
  // Babylon B's seventh card and Halikarnassos on turn 6: Halikarnassos builds its stage on
  // turn 6, Babylon then discards its seventh card; that card is on the pile Halikarnassos
  // chooses from, with the other seventh cards.
  it('with Babylon B on turn 6: Babylon’s discarded seventh card can be built', () => {
    const s = game(1, [
      { wonder: 'Halicarnassus', side: 'A', stages: 1, built: ['Foundry', 'Ore Vein'], hand: ['Altar', 'Theater'] },
      { wonder: 'Babylon', side: 'B', stages: 2, hand: ['Loom', 'Workshop'] },
      { wonder: 'Gizah', hand: ['Press', 'Baths'] },
    ]);
    play(s, {
      0: move(s, 0, 'Altar', ACTION_STAGE),
      1: move(s, 1, 'Loom', ACTION_BUILD),
      2: move(s, 2, 'Press', ACTION_BUILD),
    });
    expect(s.phase).toBe(PHASE_SEVENTH);
    expect(actingSeats(s)).toEqual([1]);
    step(s, [0, encodeMove(card('Workshop'), ACTION_DISCARD), 0]);
    expect(s.phase).toBe(PHASE_DISCARD_BUILD);
    expect(actingSeats(s)).toEqual([0]);
    expect(discardBuildOptions(s, 0)).toEqual(['Baths', 'Theater', 'Workshop']);
  });
});

describe('Olympia A: free build once per Age', () => {
  // Stage 2 built: once per Age one structure may be built for free. Olympia (0 coins) cannot
  // pay the Baths' stone, but ACTION_FREE_BUILD builds it. Next turn, same Age: no free build.
  // Next Age: available again.
  it('free build: used once in Age I, not again in Age I, again in Age II', () => {
    const s = game(1, [
      { wonder: 'Olympia', side: 'A', stages: 2, coins: 0, hand: ['Baths', 'Workshop', 'Altar'] },
      { wonder: 'Gizah', hand: ['Stockade', 'Theater', 'Loom'] },
      { wonder: 'Rhodes', hand: ['Press', 'Glassworks', 'Barracks'] },
    ]);
    const baths = card('Baths');
    expect(findMove(s, 0, 'Baths', ACTION_BUILD)).toBeUndefined();
    expect(legalMoves(s, 0, 'all')).toContain(encodeMove(baths, ACTION_FREE_BUILD));
    play(s, { 0: encodeMove(baths, ACTION_FREE_BUILD) });
    expect(cityNames(s, 0)).toEqual(['Baths']);
    expect(s.coins[0]).toBe(0);
    expect(s.turn).toBe(6);
    // Turn 6 of Age I: no free build any more.
    expect(legalMoves(s, 0, 'all').filter((m) => moveAction(m) === ACTION_FREE_BUILD)).toEqual([]);
    play(s);
    expect(s.age).toBe(2);
    // Age II: give Olympia a Walls (SSS, unaffordable with 3 coins and no stone): free build again.
    s.hands[handBase(s, 0)] = card('Walls', 2);
    expect(findMove(s, 0, 'Walls', ACTION_BUILD)).toBeUndefined();
    expect(legalMoves(s, 0, 'all')).toContain(encodeMove(card('Walls', 2), ACTION_FREE_BUILD));
  });

  // From the Age the stage is built: stage 2 built on turn 5 → the free build is available on
  // turn 6 of the same Age.
  it('the free build is available from the turn after stage 2 is built, same Age', () => {
    const s = game(1, [
      { wonder: 'Olympia', side: 'A', stages: 1, coins: 0, built: ['Stone Pit', 'Timber Yard'], hand: ['Altar', 'Theater', 'Loom'] },
      { wonder: 'Rhodes', hand: ['Press', 'Glassworks', 'Loom'] },
      { wonder: 'Babylon', hand: ['Barracks', 'Workshop', 'Press'] },
    ]);
    // Olympia A stage 2 costs SS: Stone Pit + Timber Yard.
    play(s, {
      0: move(s, 0, 'Altar', ACTION_STAGE),
      1: move(s, 1, 'Press', ACTION_BUILD),
      2: move(s, 2, 'Press', ACTION_BUILD),
    });
    expect(s.stages[0]).toBe(2);
    expect(s.turn).toBe(6);
    // Seat 0 now holds Babylon's Barracks and Workshop, neither affordable with 0 coins.
    expect(findMove(s, 0, 'Workshop', ACTION_BUILD)).toBeUndefined();
    expect(legalMoves(s, 0, 'all')).toContain(encodeMove(card('Workshop'), ACTION_FREE_BUILD));
    expect(legalMoves(s, 0, 'all')).toContain(encodeMove(card('Barracks'), ACTION_FREE_BUILD));
  });

  // In a position: freeBuildUsed says whether this Age's use is gone.
  it('position: free build legal when unused this Age, not when used', () => {
    const players = (freeBuildUsed: boolean) => [
      { wonder: 'Olympia', side: 'A' as const, stages: 2, coins: 0, freeBuildUsed, hand: ['Baths'] },
      { wonder: 'Gizah' },
      { wonder: 'Rhodes' },
    ];
    const unused = game(1, players(false));
    expect(legalMoves(unused, 0, 'all')).toContain(encodeMove(card('Baths'), ACTION_FREE_BUILD));
    const used = game(1, players(true));
    expect(legalMoves(used, 0, 'all').filter((m) => moveAction(m) === ACTION_FREE_BUILD)).toEqual([]);
  });

  // Before stage 2 there is no free build.
  it('Olympia A with stage 1 only has no free build', () => {
    const s = game(1, [
      { wonder: 'Olympia', side: 'A', stages: 1, coins: 0, hand: ['Baths'] },
      { wonder: 'Gizah' },
      { wonder: 'Rhodes' },
    ]);
    expect(legalMoves(s, 0, 'all').filter((m) => moveAction(m) === ACTION_FREE_BUILD)).toEqual([]);
  });
});

describe('passing direction', () => {
  /** Everyone discards its first card; checks who receives whose remaining hand. */
  function checkPass(s: GameState, dir: 1 | -1): void {
    const n = s.n;
    const before = [...Array(n).keys()].map((p) => {
      const h = handIds(s, p);
      h.splice(h.indexOf(s.hands[handBase(s, p)]), 1);
      return h.sort((a, b) => a - b);
    });
    play(s);
    for (let p = 0; p < n; p++) {
      const to = (p + dir + n) % n;
      expect(handIds(s, to).sort((a, b) => a - b)).toEqual(before[p]);
    }
  }

  function playAge(s: GameState): void {
    const age = s.age;
    while (s.age === age) {
      const moves = new Array<number>(s.n).fill(0);
      for (const p of actingSeats(s)) moves[p] = discardFirst(s, p);
      step(s, moves);
    }
  }

  // Age I: seat p's hand goes to seat p + 1 (its left neighbour).
  it('Age I passes left (p → p + 1)', () => {
    const s = newGame({ players: 4, seed: 11, boards: ['Gizah', 'Rhodes', 'Ephesus', 'Alexandria'], sides: 'A' });
    checkPass(s, 1);
    expect(s.turn).toBe(2);
  });

  // Age II: to seat p − 1 (the right neighbour).
  it('Age II passes right (p → p − 1)', () => {
    const s = newGame({ players: 4, seed: 12, boards: ['Gizah', 'Rhodes', 'Ephesus', 'Alexandria'], sides: 'A' });
    playAge(s);
    expect(s.age).toBe(2);
    checkPass(s, -1);
  });

  // Age III: left again.
  it('Age III passes left (p → p + 1)', () => {
    const s = newGame({ players: 5, seed: 13, boards: ['Gizah', 'Rhodes', 'Ephesus', 'Alexandria', 'Olympia'], sides: 'A' });
    playAge(s);
    playAge(s);
    expect(s.age).toBe(3);
    checkPass(s, 1);
  });
});
