/**
 * The queue's order of a sweep's games (src/lab/plan/schedule.ts): a permutation of the games that
 * interleaves the cells deal by deal, so that any prefix — a sweep stopped early — holds every cell
 * in equal measure, keeps a deal's seat orders together and covers the board sets before repeating
 * a deal.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Sweep, cellPlayRank, parseSweepSpec, schedulePosition, scheduledIndex, type ScheduleShape } from '../src/lab/index.js';

const shapes = fc.record({ cells: fc.integer({ min: 1, max: 5 }), sets: fc.integer({ min: 1, max: 4 }), deals: fc.integer({ min: 1, max: 6 }), orders: fc.integer({ min: 1, max: 6 }) });
const sizeOf = (s: ScheduleShape) => s.cells * s.sets * s.deals * s.orders;
const perCell = (s: ScheduleShape) => s.sets * s.deals * s.orders;

describe('interleaved schedule', () => {
  it('is a permutation of the game indices, and schedulePosition is its inverse', () => {
    fc.assert(
      fc.property(shapes, (s) => {
        const seen = new Set<number>();
        for (let p = 0; p < sizeOf(s); p++) {
          const k = scheduledIndex(s, p);
          expect(k).toBeGreaterThanOrEqual(0);
          expect(k).toBeLessThan(sizeOf(s));
          expect(schedulePosition(s, k)).toBe(p);
          seen.add(k);
        }
        expect(seen.size).toBe(sizeOf(s));
      }),
    );
  });

  it('any prefix holds every cell within one deal of its share; a deal\'s seat orders are consecutive', () => {
    fc.assert(
      fc.property(shapes, (s) => {
        const counts = new Array<number>(s.cells).fill(0);
        const groupStart = new Map<string, number>();
        for (let p = 0; p < sizeOf(s); p++) {
          const k = scheduledIndex(s, p);
          const cell = Math.floor(k / perCell(s));
          counts[cell]++;
          for (const c of counts) expect(Math.abs(c - (p + 1) / s.cells)).toBeLessThanOrEqual(s.orders);
          // The group of a (cell, board set, deal): its seat orders at consecutive positions.
          const group = `${Math.floor(k / s.orders)}`;
          if (!groupStart.has(group)) groupStart.set(group, p);
          expect(p - groupStart.get(group)!).toBe(k % s.orders);
        }
      }),
    );
  });

  it('within a cell, every board set has deal d before any set has deal d + 1; the play rank counts that order', () => {
    fc.assert(
      fc.property(shapes, (s) => {
        const ranks = new Array<number>(s.cells).fill(0);
        const lastDeal = new Array<number>(s.cells).fill(0);
        for (let p = 0; p < sizeOf(s); p++) {
          const k = scheduledIndex(s, p);
          const cell = Math.floor(k / perCell(s));
          const deal = Math.floor((k % perCell(s)) / s.orders) % s.deals;
          expect(deal).toBeGreaterThanOrEqual(lastDeal[cell]);
          lastDeal[cell] = deal;
          expect(cellPlayRank(s, k)).toBe(ranks[cell]++);
        }
      }),
    );
  });

  it('a sweep queues its games interleaved, unless it was stored sequential', () => {
    const spec = parseSweepSpec({ name: 's', players: 3, seats: [{ agent: 'mcts', params: { it: [10, 20, 30] } }, 'rulebased', 'rulebased'], wonders: { mode: 'thesis' }, deals: { count: 2 }, seating: 'swap' });
    const sweep = new Sweep(spec);
    expect(sweep.shape).toEqual({ cells: 3, sets: 21, deals: 2, orders: 2 });
    const first = Array.from({ length: 12 }, (_, p) => sweep.game(sweep.indexAt(p)));
    // Round 0 is deal 0 of board set 0 in cells 0, 1, 2 (both seat orders each), then set 1.
    expect(first.map((g) => [g.cell, g.set, g.deal, g.seating])).toEqual([
      [0, 0, 0, 0], [0, 0, 0, 1], [1, 0, 0, 0], [1, 0, 0, 1], [2, 0, 0, 0], [2, 0, 0, 1],
      [0, 1, 0, 0], [0, 1, 0, 1], [1, 1, 0, 0], [1, 1, 0, 1], [2, 1, 0, 0], [2, 1, 0, 1],
    ]);
    const old = new Sweep(spec, { schedule: 'sequential' });
    expect(Array.from({ length: old.size }, (_, p) => old.indexAt(p))).toEqual(Array.from({ length: old.size }, (_, k) => k));
    expect(old.playRank(old.gamesPerCell + 5)).toBe(5);
  });
});
