/**
 * End-of-game scoring from concrete positions: science (wild symbols included), the ten guilds,
 * Olympia B's copied guild, treasury, and the winner with its tie-breaks. Every expected number is
 * worked out from the rulebook (reference/RULES-NOTES.md, cards.json), not from the engine.
 */
import { describe, expect, it } from 'vitest';
import { gameResult, stateFromPosition, type PositionPlayer } from '../src/engine/index.js';
import { position, scoreOf } from './rules-helpers.js';

/** Three players; seat 0 is the one under test. Boards default to Gizah, Rhodes, Ephesus, side A. */
function three(p0: Partial<PositionPlayer>, p1: Partial<PositionPlayer> = {}, p2: Partial<PositionPlayer> = {}) {
  return position(3, [
    { wonder: 'Gizah', coins: 0, ...p0 },
    { wonder: 'Rhodes', coins: 0, ...p1 },
    { wonder: 'Ephesus', coins: 0, ...p2 },
  ]);
}

describe('science', () => {
  // One symbol of each kind: 1 + 1 + 1 + one set of 7.
  it('one complete set scores 10', () => {
    expect(scoreOf(three({ built: ['Apothecary', 'Workshop', 'Scriptorium'] }), 0).science).toBe(10);
  });

  // Each complete set adds 7, not only the first: 2² × 3 + 2 × 7 = 26.
  it('two complete sets score 26', () => {
    const built = ['Apothecary', 'Dispensary', 'Workshop', 'Laboratory', 'Scriptorium', 'Library'];
    expect(scoreOf(three({ built }), 0).science).toBe(26);
  });

  // Three of each: 27 + 3 × 7 = 48.
  it('three complete sets score 48', () => {
    const built = [
      'Apothecary', 'Dispensary', 'Lodge',
      'Workshop', 'Laboratory', 'Observatory',
      'Scriptorium', 'Library', 'University',
    ];
    expect(scoreOf(three({ built }), 0).science).toBe(48);
  });

  // No set: compass 3, gear 1 → 9 + 1 = 10.
  it('compass 3 and gear 1 without a wild score 10', () => {
    expect(scoreOf(three({ built: ['Apothecary', 'Dispensary', 'Lodge', 'Workshop'] }), 0).science).toBe(10);
  });

  // RULES-NOTES 1: gear 1, compass 3 and one wild = 18 (wild on the tablet: 9 + 1 + 1 + 7), not 17.
  it('one wild (Scientists Guild) with compass 3 and gear 1 scores 18, not 17', () => {
    const s = scoreOf(three({ built: ['Apothecary', 'Dispensary', 'Lodge', 'Workshop', 'Scientists Guild'] }), 0);
    expect(s.science).toBe(18);
    // The Scientists Guild scores as science only.
    expect(s.guilds).toBe(0);
  });

  // The wild may be any symbol, the compass too: gear 2, tablet 2 and one wild on the compass
  // = 4 + 4 + 1 + 7 = 16 (on the gear it would be 9 + 4 = 13).
  it('one wild completing a set on the compass: gear 2 + tablet 2 + wild = 16', () => {
    const built = ['Workshop', 'Laboratory', 'Scriptorium', 'Library', 'Scientists Guild'];
    expect(scoreOf(three({ built }), 0).science).toBe(16);
  });

  // Babylon A stage 2 is a wild symbol: compass 1, gear 1, wild → tablet: 1 + 1 + 1 + 7 = 10.
  it('Babylon A stage 2 is a wild symbol: compass 1 + gear 1 + wild = 10', () => {
    const pos = three({ wonder: 'Babylon', side: 'A', stages: 2, built: ['Apothecary', 'Workshop'] });
    expect(scoreOf(pos, 0).science).toBe(10);
  });

  // Two wilds (Babylon A stage 2 + Scientists Guild) with one compass: the best assignment is
  // gear + tablet, 1 + 1 + 1 + 7 = 10; putting both on the compass gives only 9.
  it('two wilds with a single compass score 10 (one set), not 9', () => {
    const pos = three({ wonder: 'Babylon', side: 'A', stages: 2, built: ['Apothecary', 'Scientists Guild'] });
    expect(scoreOf(pos, 0).science).toBe(10);
  });

  // Two wilds (Babylon B stage 3 + Scientists Guild) with compass 3, gear 2: best is both on the
  // tablet: 9 + 4 + 4 + 2 × 7 = 31 (5,2,0 → 29; 4,2,1 → 28; 3,3,1 → 26).
  it('two wilds with compass 3 and gear 2 score 31', () => {
    const pos = three({
      wonder: 'Babylon',
      side: 'B',
      stages: 3,
      built: ['Apothecary', 'Dispensary', 'Lodge', 'Workshop', 'Laboratory', 'Scientists Guild'],
    });
    expect(scoreOf(pos, 0).science).toBe(31);
  });
});

describe('guilds', () => {
  // Workers Guild: 1 VP per brown card of both neighbours; own brown cards and boards don't count.
  it('Workers Guild counts neighbours’ brown cards: 3', () => {
    const pos = three(
      { built: ['Workers Guild', 'Clay Pool'] },
      { built: ['Lumber Yard', 'Stone Pit'] },
      { built: ['Sawmill', 'Loom'] },
    );
    expect(scoreOf(pos, 0).guilds).toBe(3);
  });

  // Craftsmens Guild: 2 VP per grey card of both neighbours (cards.json: "some transcriptions
  // wrongly say 1"); the own Loom doesn't count. 3 grey cards → 6.
  it('Craftsmens Guild scores 2 per neighbours’ grey card: 6', () => {
    const pos = three(
      { built: ["Craftsmen's Guild", 'Loom'] },
      { built: ['Glassworks', 'Press', 'Lumber Yard'] },
      { built: ['Loom'] },
    );
    expect(scoreOf(pos, 0).guilds).toBe(6);
  });

  // Traders Guild: 1 VP per yellow card of both neighbours (own Vineyard not counted).
  it('Traders Guild counts neighbours’ yellow cards: 3', () => {
    const pos = three(
      { built: ['Traders Guild', 'Vineyard'] },
      { built: ['Tavern', 'Forum'] },
      { built: ['Marketplace', 'Altar'] },
    );
    expect(scoreOf(pos, 0).guilds).toBe(3);
  });

  // Philosophers Guild: 1 VP per green card of both neighbours.
  it('Philosophers Guild counts neighbours’ green cards: 3', () => {
    const pos = three(
      { built: ['Philosophers Guild', 'Apothecary'] },
      { built: ['Workshop', 'School'] },
      { built: ['Library'] },
    );
    const s = scoreOf(pos, 0);
    expect(s.guilds).toBe(3);
    expect(s.science).toBe(1);
  });

  // Spies Guild: 1 VP per red card of both neighbours (own Guard Tower not counted).
  it('Spies Guild counts neighbours’ red cards: 3', () => {
    const pos = three(
      { built: ['Spies Guild', 'Guard Tower'] },
      { built: ['Stockade', 'Walls'] },
      { built: ['Barracks'] },
    );
    expect(scoreOf(pos, 0).guilds).toBe(3);
  });

  // Strategists Guild: 1 VP per DEFEAT token of both neighbours; victory tokens and the own
  // defeats don't count. Neighbours hold 2 + 1 defeats → 3.
  it('Strategists Guild counts only the neighbours’ defeat tokens: 3', () => {
    const pos = three(
      { built: ['Strategists Guild'], military: [-1, -1, -1] },
      { military: [-1, -1, 3] },
      { military: [1, -1, 5] },
    );
    const s = scoreOf(pos, 0);
    expect(s.guilds).toBe(3);
    expect(s.military).toBe(-3);
  });

  // Shipowners Guild: own brown + grey + purple, itself included: 2 brown + 1 grey + 2 purple = 5
  // (the neighbours' cards don't count; the Spies Guild itself scores 0 here).
  it('Shipowners Guild counts own brown, grey and purple cards including itself: 5', () => {
    const pos = three(
      { built: ['Shipowners Guild', 'Lumber Yard', 'Ore Vein', 'Loom', 'Spies Guild'] },
      { built: ['Stone Pit', 'Press'] },
      { built: ['Clay Pool'] },
    );
    expect(scoreOf(pos, 0).guilds).toBe(5);
  });

  // Shipowners Guild alone is worth at least 1 (it counts itself).
  it('Shipowners Guild alone scores 1', () => {
    expect(scoreOf(three({ built: ['Shipowners Guild'] }, { built: ['Sawmill'] }), 0).guilds).toBe(1);
  });

  // Magistrates Guild: 1 VP per blue card of both neighbours (own Temple not counted).
  it('Magistrates Guild counts neighbours’ blue cards: 3', () => {
    const pos = three(
      { built: ['Magistrates Guild', 'Temple'] },
      { built: ['Altar', 'Baths'] },
      { built: ['Palace'] },
    );
    const s = scoreOf(pos, 0);
    expect(s.guilds).toBe(3);
    expect(s.civilian).toBe(3);
  });

  // Builders Guild: own stages AND both neighbours' stages: 2 + 1 + 3 = 6.
  it('Builders Guild counts own and both neighbours’ wonder stages: 6', () => {
    const pos = three(
      { wonder: 'Gizah', side: 'A', stages: 2, built: ['Builders Guild'] },
      { wonder: 'Rhodes', side: 'B', stages: 1 },
      { wonder: 'Babylon', side: 'A', stages: 3 },
    );
    expect(scoreOf(pos, 0).guilds).toBe(6);
  });
});

describe('Olympia B copies a neighbour guild', () => {
  // Copying the Scientists Guild gives a wild symbol: compass 1 + gear 1 + wild = 10 science,
  // which beats the other neighbour's Traders Guild (1 yellow card among Olympia's neighbours).
  it('copies the Scientists Guild as a wild when that is best: science 10, guilds 0', () => {
    const pos = three(
      { wonder: 'Olympia', side: 'B', stages: 3, built: ['Apothecary', 'Workshop'] },
      { built: ['Scientists Guild'] },
      { built: ['Traders Guild', 'Tavern'] },
    );
    const s = scoreOf(pos, 0);
    expect(s.science).toBe(10);
    expect(s.guilds).toBe(0);
    // Olympia B: stage 1 no VP, stage 2 5 VP, stage 3 no VP.
    expect(s.wonder).toBe(5);
  });

  // The copy scores from Olympia's point of view: the Strategists Guild of seat 1 is worth 0 to
  // seat 1 (its neighbours have no defeats) but 3 to Olympia (seat 1 itself holds 3 defeats).
  it('scores a copied Strategists Guild from Olympia’s point of view: 3', () => {
    const pos = three(
      { wonder: 'Olympia', side: 'B', stages: 3 },
      { built: ['Strategists Guild'], military: [-1, -1, -1] },
      {},
    );
    expect(scoreOf(pos, 0).guilds).toBe(3);
    expect(scoreOf(pos, 1).guilds).toBe(0);
  });

  // Of two neighbour guilds it takes the better one: Workers (1 brown) vs Magistrates (3 blue) → 3.
  it('takes the better of two neighbour guilds: 3', () => {
    const pos = three(
      { wonder: 'Olympia', side: 'B', stages: 3 },
      { built: ['Workers Guild', 'Lumber Yard'] },
      { built: ['Magistrates Guild', 'Altar', 'Baths', 'Theater'] },
    );
    expect(scoreOf(pos, 0).guilds).toBe(3);
  });

  // Without its third stage Olympia B copies nothing.
  it('copies nothing before stage 3: guilds 0', () => {
    const pos = three(
      { wonder: 'Olympia', side: 'B', stages: 2 },
      { built: ['Magistrates Guild', 'Altar', 'Baths', 'Theater'] },
    );
    expect(scoreOf(pos, 0).guilds).toBe(0);
  });
});

describe('treasury and the winner', () => {
  // 1 VP per full 3 coins: 8 coins → 2, 2 coins → 0.
  it('treasury is coins / 3 rounded down', () => {
    expect(scoreOf(three({ coins: 8 }), 0).treasury).toBe(2);
    expect(scoreOf(three({ coins: 2 }), 0).treasury).toBe(0);
  });

  // The most VP wins even with fewer coins: Baths 3 VP + 0 coins beats 8 coins (2 VP).
  it('most VP wins: decidedBy vp', () => {
    const s = stateFromPosition(three({ built: ['Baths'] }, { coins: 8 }, { coins: 1 }));
    const r = gameResult(s);
    expect(r.scores.map((x) => x.total)).toEqual([3, 2, 0]);
    expect(r.winners).toEqual([0]);
    expect(r.decidedBy).toBe('vp');
  });

  // RULES-NOTES 12: a VP tie goes to the most coins. 5 coins and 3 coins are both 1 VP.
  it('a VP tie is broken by coins: decidedBy coins', () => {
    const s = stateFromPosition(three({ coins: 5 }, { coins: 3 }, { coins: 0 }));
    const r = gameResult(s);
    expect(r.scores.map((x) => x.total)).toEqual([1, 1, 0]);
    expect(r.winners).toEqual([0]);
    expect(r.decidedBy).toBe('coins');
    expect(r.ranks).toEqual([1, 2, 3]);
  });

  // A tie on VP and coins is shared.
  it('a tie on VP and coins is shared', () => {
    const s = stateFromPosition(three({ coins: 4 }, { coins: 4 }, { coins: 0 }));
    const r = gameResult(s);
    expect(r.winners).toEqual([0, 1]);
    expect(r.decidedBy).toBe('shared');
    expect(r.ranks).toEqual([1, 1, 3]);
  });
});
