/**
 * Wonder stages: the next stage's cost and payment, Gizah B's four stages, stage VP in the
 * "wonder" category, Rhodes' shields, Ephesos' coins, Alexandria's choice production, and the
 * card tucked under a stage (RULES-NOTES 11; wonders.json).
 */
import { describe, expect, it } from 'vitest';
import { ACTION_BUILD, ACTION_STAGE, BOARDS, hasNextStage, legalMoves, moveAction, newGame, nextStage, nextStageCost } from '../src/engine/index.js';
import { cityNames, findMove, game, handEntry, move, play, position, score, scoreOf, splits } from './rules-helpers.js';

describe('next stage cost', () => {
  // Gizah A with stage 1 built: the next stage is stage 2, WWW. Gizah has no wood: 2 from the left
  // (Olympia board + Lumber Yard) and 1 from the right (Timber Yard), 2 coins each = 6 coins.
  it('Gizah A stage 2 (WWW) bought for 6: legal with 6 coins, not with 5', () => {
    const players = (coins: number) => [
      { wonder: 'Gizah', side: 'A' as const, stages: 1, coins, hand: ['Altar'] },
      { wonder: 'Olympia', built: ['Lumber Yard'] },
      { wonder: 'Rhodes', built: ['Timber Yard'] },
    ];
    expect(handEntry(position(1, players(6)), 0, 'Altar').wonder).toEqual({ legal: true, payLeft: 4, payRight: 2 });
    expect(handEntry(position(1, players(5)), 0, 'Altar').wonder.legal).toBe(false);
  });

  // Side B has its own costs: Gizah B stage 1 is WW (side A's would be SS): 2 wood from the left
  // for 4 coins.
  it('Gizah B stage 1 costs WW: 4 coins to the left', () => {
    const pos = position(1, [
      { wonder: 'Gizah', side: 'B', coins: 5, hand: ['Altar'] },
      { wonder: 'Olympia', built: ['Lumber Yard'] },
      { wonder: 'Rhodes' },
    ]);
    expect(handEntry(pos, 0, 'Altar').wonder).toEqual({ legal: true, payLeft: 4, payRight: 0 });
  });

  // A complete wonder has no next stage: Rhodes B has only 2 stages.
  it('a complete wonder (Rhodes B, 2 stages) offers no stage', () => {
    const pos = position(1, [
      { wonder: 'Rhodes', side: 'B', stages: 2, coins: 20, built: ['Quarry', 'Stone Pit', 'Foundry', 'Ore Vein'], hand: ['Altar'] },
      { wonder: 'Gizah' },
      { wonder: 'Babylon' },
    ]);
    expect(handEntry(pos, 0, 'Altar').wonder.legal).toBe(false);
  });
});

describe('the stage tables', () => {
  // hasNextStage and nextStageCost read typed arrays built from the boards; they must say what the
  // boards say for every board, side and number of stages built (Gizah B has four stages, Rhodes
  // B two).
  it('agree with the boards for every board, side and stage', () => {
    let checked = 0;
    for (const board of BOARDS) {
      for (const side of ['A', 'B'] as const) {
        const s = newGame({ players: 3, seed: 1, boards: [board.id, board.id, board.id], sides: side, duplicateBoards: true });
        const stages = board.sides[side === 'A' ? 0 : 1];
        for (let built = 0; built <= stages.length; built++) {
          s.stages[0] = built;
          expect(hasNextStage(s, 0)).toBe(built < stages.length);
          expect(nextStage(s, 0)).toBe(stages[built]);
          if (built < stages.length) expect(nextStageCost(s, 0)).toBe(stages[built].costPacked);
          checked++;
        }
      }
    }
    expect(checked).toBe(BOARDS.reduce((sum, b) => sum + b.sides[0].length + b.sides[1].length + 2, 0));
  });
});

describe('Gizah B has four stages', () => {
  // Stage 4 (SSSSP) after 3 stages: Gizah's stone + Quarry (2) + Stone Pit = 4 stone, Press:
  // free. Wonder VP then 3 + 5 + 5 + 7 = 20, and no fifth stage is offered.
  it('stage 4 is built and the wonder scores 20; no stage 5', () => {
    const s = game(3, [
      { wonder: 'Gizah', side: 'B', stages: 3, coins: 0, built: ['Quarry', 'Stone Pit', 'Press'], hand: ['Palace', 'Senate', 'Gardens'] },
      { wonder: 'Rhodes', hand: ['Lodge', 'Study', 'Arena'] },
      { wonder: 'Babylon', hand: ['Haven', 'Academy', 'Circus'] },
    ]);
    const m = move(s, 0, 'Palace', ACTION_STAGE);
    play(s, { 0: m });
    expect(s.stages[0]).toBe(4);
    expect(s.coins[0]).toBe(0);
    expect(score(s, 0).wonder).toBe(20);
    expect(legalMoves(s, 0, 'all').filter((x) => moveAction(x) === ACTION_STAGE)).toEqual([]);
  });
});

describe('stage VP go to the wonder category', () => {
  // Gizah A 3 + 5 + 7 = 15; Ephesos B 2 + 3 + 5 = 10; Rhodes B 3 + 4 = 7.
  it('Gizah A 15, Ephesos B 10, Rhodes B 7', () => {
    const pos = position(3, [
      { wonder: 'Gizah', side: 'A', stages: 3, coins: 0 },
      { wonder: 'Ephesus', side: 'B', stages: 3, coins: 0 },
      { wonder: 'Rhodes', side: 'B', stages: 2, coins: 0 },
    ]);
    const scores = [0, 1, 2].map((p) => scoreOf(pos, p));
    expect(scores.map((x) => x.wonder)).toEqual([15, 10, 7]);
    expect(scores.map((x) => x.total)).toEqual([15, 10, 7]);
    expect(scores.map((x) => x.civilian)).toEqual([0, 0, 0]);
  });

  // Halikarnassos B 2 + 1 + 0 = 3; Olympia A 3 + 0 + 7 = 10; Alexandria A 3 + 0 + 7 = 10;
  // Babylon B 3 + 0 + 0 = 3.
  it('Halikarnassos B 3, Olympia A 10, Alexandria A 10, Babylon B 3', () => {
    const pos = position(3, [
      { wonder: 'Halicarnassus', side: 'B', stages: 3 },
      { wonder: 'Olympia', side: 'A', stages: 3 },
      { wonder: 'Alexandria', side: 'A', stages: 3 },
      { wonder: 'Babylon', side: 'B', stages: 3 },
    ]);
    expect([0, 1, 2, 3].map((p) => scoreOf(pos, p).wonder)).toEqual([3, 10, 10, 3]);
  });
});

describe('stage effects', () => {
  // Rhodes A stage 2 gives 2 shields; Rhodes B 1 + 1.
  it('Rhodes shields: A with 2 stages has 2, B with 2 stages has 2, B with 1 has 1', () => {
    const s = game(1, [
      { wonder: 'Rhodes', side: 'A', stages: 2 },
      { wonder: 'Gizah', built: ['Stockade'] },
      { wonder: 'Babylon' },
    ]);
    expect(s.shields[0]).toBe(2);
    expect(s.shields[1]).toBe(1);
    expect(game(1, [{ wonder: 'Rhodes', side: 'B', stages: 2 }, { wonder: 'Gizah' }, { wonder: 'Babylon' }]).shields[0]).toBe(2);
    expect(game(1, [{ wonder: 'Rhodes', side: 'B', stages: 1 }, { wonder: 'Gizah' }, { wonder: 'Babylon' }]).shields[0]).toBe(1);
  });

  // Rhodes B stage 1 (SSS) when built: 3 coins, 1 shield, 3 VP.
  it('building Rhodes B stage 1: +3 coins, 1 shield, 3 VP', () => {
    const s = game(1, [
      { wonder: 'Rhodes', side: 'B', coins: 0, built: ['Quarry', 'Stone Pit'], hand: ['Altar', 'Theater', 'Baths'] },
      { wonder: 'Gizah', hand: ['Loom', 'Press', 'Glassworks'] },
      { wonder: 'Babylon', hand: ['Press', 'Loom', 'Stockade'] },
    ]);
    play(s, { 0: move(s, 0, 'Altar', ACTION_STAGE) });
    expect(s.coins[0]).toBe(3);
    expect(s.shields[0]).toBe(1);
    expect(score(s, 0).wonder).toBe(3);
  });

  // Ephesos A stage 2 (WW) pays 9 coins once when built.
  it('Ephesos A stage 2 pays 9 coins', () => {
    const s = game(2, [
      { wonder: 'Ephesus', side: 'A', stages: 1, coins: 0, built: ['Sawmill'], hand: ['Walls', 'School', 'Statue'] },
      { wonder: 'Gizah', hand: ['Loom', 'Press', 'Glassworks'] },
      { wonder: 'Babylon', hand: ['Press', 'Loom', 'Aqueduct'] },
    ]);
    play(s, { 0: move(s, 0, 'Walls', ACTION_STAGE) });
    expect(s.stages[0]).toBe(2);
    expect(s.coins[0]).toBe(9);
  });

  // Ephesos B stage 1 (SS) pays 4 coins and is worth 2 VP; the 2 stone are bought for 4.
  it('Ephesos B stage 1 pays 4 coins: 4 − 4 paid + 4 = 4', () => {
    const s = game(1, [
      { wonder: 'Ephesus', side: 'B', coins: 4, hand: ['Altar', 'Theater', 'Baths'] },
      { wonder: 'Gizah', built: ['Stone Pit'], hand: ['Loom', 'Press', 'Glassworks'] },
      { wonder: 'Babylon', hand: ['Press', 'Loom', 'Stockade'] },
    ]);
    const m = move(s, 0, 'Altar', ACTION_STAGE);
    play(s, { 0: m });
    expect(s.coins[0]).toBe(4);
    expect(score(s, 0).wonder).toBe(2);
  });

  // Alexandria A stage 2 (OO) gives one of W/S/C/O each turn for Alexandria's own use: on the
  // next turn the Baths (S) is free, though no neighbour has stone.
  it('Alexandria A stage 2 choice production pays a stone from the next turn on', () => {
    const s = game(1, [
      { wonder: 'Alexandria', side: 'A', stages: 1, coins: 0, built: ['Ore Vein', 'Clay Pit'], hand: ['Altar', 'Theater', 'Glassworks'] },
      { wonder: 'Olympia', hand: ['Loom', 'Press', 'Glassworks'] },
      { wonder: 'Babylon', hand: ['Press', 'Baths', 'Stockade'] },
    ]);
    expect(findMove(s, 0, 'Altar', ACTION_STAGE)).toBeDefined();
    play(s, {
      0: move(s, 0, 'Altar', ACTION_STAGE),
      1: move(s, 1, 'Loom', ACTION_BUILD),
      2: move(s, 2, 'Press', ACTION_BUILD),
    });
    expect(s.stages[0]).toBe(2);
    // Hands pass left in Age I: seat 0 now holds Babylon's Baths and Stockade.
    expect(splits(s, 0, 'Baths')).toEqual([[0, 0]]);
  });

  // The card used for a stage is tucked face down: it is no structure (no VP, not in the city).
  it('the card under a stage is not a structure', () => {
    const s = game(1, [
      { wonder: 'Gizah', side: 'A', coins: 0, built: ['Stone Pit'], hand: ['Altar', 'Theater', 'Baths'] },
      { wonder: 'Olympia', hand: ['Loom', 'Press', 'Glassworks'] },
      { wonder: 'Babylon', hand: ['Press', 'Loom', 'Stockade'] },
    ]);
    play(s, { 0: move(s, 0, 'Altar', ACTION_STAGE) });
    expect(s.stages[0]).toBe(1);
    expect(cityNames(s, 0)).toEqual(['Stone Pit']);
    expect(score(s, 0).civilian).toBe(0);
    expect(score(s, 0).wonder).toBe(3);
  });
});
