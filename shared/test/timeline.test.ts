/**
 * The replay's timeline (engine/record.ts): each step's running scores. The final step's scores
 * are the game's result, seat for seat and category for category; no category but military
 * ever goes below zero; what a city has built is never taken back.
 */
import { describe, expect, it } from 'vitest';
import { SCORE_CATEGORIES, recordFromLog, replay, timeline, type GameRecord, type ScoreBreakdown } from '../src/engine/index.js';
import { playGame, type GamePlan } from '../src/lab/index.js';

/** A seeded 3-player game between fast agents, recorded. */
function recordedGame(seed: number, agents = ['rulebased', 'random', 'rulebased']): GameRecord {
  const plan: GamePlan = { id: `timeline-${seed}`, index: 0, seed, set: -1, deal: 0, seating: 0, agents, sides: 'random', open: false };
  return recordFromLog(playGame(plan, { record: true }).log!);
}

/** Categories that only grow: cards, stages and science symbols are never lost. */
const NEVER_SHRINK = ['wonder', 'civilian', 'science'] as const;

describe('timeline: running scores', () => {
  it('the last step scores what the game scored, for every seat and category', () => {
    for (const seed of [1, 2, 3, 17]) {
      const record = recordedGame(seed);
      const steps = timeline(record);
      expect(steps.length).toBe(record.steps.length);
      const last = steps[steps.length - 1];
      expect(last.scores).toEqual(record.result!.scores);
    }
  });

  it('one score per seat at every step, whose total is the sum of its categories', () => {
    const steps = timeline(recordedGame(5));
    for (const [i, step] of steps.entries()) {
      expect(step.scores, `step ${i}`).toHaveLength(3);
      for (const score of step.scores) {
        expect(score.total, `step ${i}`).toBe(SCORE_CATEGORIES.reduce((t, c) => t + score[c], 0));
      }
    }
  });

  it('only military can be negative; it is the seat’s conflict tokens; built points never shrink', () => {
    for (const seed of [4, 8, 15, 16, 23, 42]) {
      const steps = timeline(recordedGame(seed));
      let previous: ScoreBreakdown[] | undefined;
      for (const [i, step] of steps.entries()) {
        step.scores.forEach((score, seat) => {
          const where = `seed ${seed}, step ${i}, seat ${seat}`;
          for (const c of SCORE_CATEGORIES) if (c !== 'military') expect(score[c], `${where}: ${c}`).toBeGreaterThanOrEqual(0);
          // The next step's snapshot holds the tokens after this one.
          if (i + 1 < steps.length) expect(score.military, where).toBe(steps[i + 1].before[seat].militaryPoints);
          if (previous) for (const c of NEVER_SHRINK) expect(score[c], `${where}: ${c}`).toBeGreaterThanOrEqual(previous[seat][c]);
        });
        previous = step.scores;
      }
    }
  });

  it('a step scores after its moves: a blue card built shows in that step’s civilian points', () => {
    const steps = timeline(recordedGame(9));
    let seen = 0;
    for (const [i, step] of steps.entries()) {
      if (i === 0) continue;
      for (const m of step.moves) {
        const gained = step.scores[m.seat].civilian - steps[i - 1].scores[m.seat].civilian;
        if (m.action === 'build' && gained > 0) seen++;
        if (m.action !== 'build' && m.action !== 'freeBuild' && m.action !== 'buildDiscarded') expect(gained, `step ${i}`).toBe(0);
      }
    }
    expect(seen, 'some blue card was built').toBeGreaterThan(0);
  });

  it('the record itself is unchanged: it still replays', () => {
    const record = recordedGame(11);
    const copy = JSON.parse(JSON.stringify(record));
    timeline(record);
    expect(record).toEqual(copy);
    expect(replay(copy).differences).toEqual([]);
  });
});
