/** One rating question as data (so it can cross to a thread) and its answer: Bradley–Terry or Plackett–Luce ratings on the Elo scale. */
import { fitPlackettLuce, PLACKETT_LUCE_METHOD } from './ladder.js';
import { eloRatings, fitBradleyTerry, type Ranking, type Ratings } from './ratings.js';

/** What to fit: configurations, the finishing orders among them, and the anchor (0 Elo). */
export interface RatingProblem {
  model: 'bradley-terry' | 'plackett-luce';
  configs: string[];
  rankings: Ranking[];
  /** Games with two or more configurations at the table. */
  games: number;
  anchor?: string;
}

export function solveRatings(p: RatingProblem): Ratings {
  if (p.model === 'plackett-luce') return eloRatings(p.configs, fitPlackettLuce(p.configs.length, p.rankings), p.games, p.anchor, PLACKETT_LUCE_METHOD);
  return eloRatings(p.configs, fitBradleyTerry(p.configs.length, p.rankings), p.games, p.anchor);
}
