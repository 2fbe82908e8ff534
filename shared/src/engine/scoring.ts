/**
 * Final scoring: the seven categories of the score pad, and the winner.
 *
 * - military: the conflict tokens; treasury: 1 VP per 3 coins;
 * - wonder: VP printed on built stages; civilian: blue cards;
 * - commercial: yellow cards' end-of-game VP (Haven, Lighthouse, Chamber of Commerce, Arena);
 * - guilds: purple cards' VP (a copied guild of Olympia B included);
 * - science: each symbol count squared, plus 7 per complete set; wild symbols (Babylon, the
 *   Scientists Guild, a copied Scientists Guild) take whichever symbols score most.
 * Winner: most VP; a tie goes to the most coins; a tie on both is shared.
 */
import { BOARDS, CARDS } from './catalog.js';
import { count } from './counting.js';
import { BLUE, PURPLE, SCIENCE_WILD, YELLOW } from './resources.js';
import { POWER_COPY_GUILD, cityBase, scienceIndex, tokenBase, type GameState } from './state.js';

export interface ScoreBreakdown {
  military: number;
  treasury: number;
  wonder: number;
  civilian: number;
  commercial: number;
  guilds: number;
  science: number;
  total: number;
}

export const SCORE_CATEGORIES = ['military', 'treasury', 'wonder', 'civilian', 'commercial', 'guilds', 'science'] as const;

/** Science points for the three symbol counts and a number of wild symbols placed optimally. */
export function sciencePoints(compass: number, gear: number, tablet: number, wilds = 0): number {
  if (wilds === 0) {
    return compass * compass + gear * gear + tablet * tablet + 7 * Math.min(compass, gear, tablet);
  }
  let best = 0;
  for (let a = 0; a <= wilds; a++) {
    for (let b = 0; a + b <= wilds; b++) {
      const pts = sciencePoints(compass + a, gear + b, tablet + wilds - a - b);
      if (pts > best) best = pts;
    }
  }
  return best;
}

/** VP a guild card scores for seat p (0 for the Scientists Guild, which scores as science). */
function guildPoints(s: GameState, p: number, c: number): number {
  let vp = 0;
  for (const e of CARDS[c].effects) if (e.kind === 'vpPer') vp += e.amount * count(s, p, e.per);
  return vp;
}

interface Scored {
  breakdown: ScoreBreakdown;
  /** The neighbour's guild Olympia B copies, or −1. */
  copiedGuild: number;
}

function scoreWithCopy(s: GameState, p: number): Scored {
  const breakdown: ScoreBreakdown = {
    military: 0,
    treasury: Math.floor(s.coins[p] / 3),
    wonder: 0,
    civilian: 0,
    commercial: 0,
    guilds: 0,
    science: 0,
    total: 0,
  };
  for (let i = tokenBase(p), end = tokenBase(p + 1); i < end; i++) breakdown.military += s.tokens[i];
  const stages = BOARDS[s.board[p]].sides[s.side[p]];
  for (let i = 0; i < s.stages[p]; i++) breakdown.wonder += stages[i].vp;
  const len = s.cityLen[p];
  for (let i = 0; i < len; i++) {
    const c = s.city[cityBase(p) + i];
    const card = CARDS[c];
    if (card.colour === BLUE) breakdown.civilian += card.vp;
    else if (card.colour === YELLOW) {
      for (const e of card.effects) if (e.kind === 'vpPer') breakdown.commercial += e.amount * count(s, p, e.per);
    } else if (card.colour === PURPLE) breakdown.guilds += guildPoints(s, p, c);
  }
  const compass = s.science[scienceIndex(p, 0)];
  const gear = s.science[scienceIndex(p, 1)];
  const tablet = s.science[scienceIndex(p, 2)];
  const wilds = s.science[scienceIndex(p, SCIENCE_WILD)];
  breakdown.science = sciencePoints(compass, gear, tablet, wilds);

  // Olympia B: copy the neighbour guild worth the most to this city.
  let copiedGuild = -1;
  if (s.powers[p] & POWER_COPY_GUILD) {
    let bestGain = 0;
    for (const q of [s.left(p), s.right(p)]) {
      for (let i = 0; i < s.cityLen[q]; i++) {
        const c = s.city[cityBase(q) + i];
        if (CARDS[c].colour !== PURPLE) continue;
        const gain =
          CARDS[c].science === SCIENCE_WILD
            ? sciencePoints(compass, gear, tablet, wilds + 1) - breakdown.science
            : guildPoints(s, p, c);
        if (copiedGuild < 0 || gain > bestGain) {
          bestGain = gain;
          copiedGuild = c;
        }
      }
    }
    if (copiedGuild >= 0) {
      if (CARDS[copiedGuild].science === SCIENCE_WILD) breakdown.science += bestGain;
      else breakdown.guilds += bestGain;
    }
  }
  breakdown.total =
    breakdown.military +
    breakdown.treasury +
    breakdown.wonder +
    breakdown.civilian +
    breakdown.commercial +
    breakdown.guilds +
    breakdown.science;
  return { breakdown, copiedGuild };
}

/** Seat p's score as the city stands now (the final score once the game is over). */
export function scoreSeat(s: GameState, p: number): ScoreBreakdown {
  return scoreWithCopy(s, p).breakdown;
}

/** The guild Olympia B would copy at seat p (name), or undefined. */
export function copiedGuild(s: GameState, p: number): string | undefined {
  const c = scoreWithCopy(s, p).copiedGuild;
  return c >= 0 ? CARDS[c].name : undefined;
}

export function scoreAll(s: GameState): ScoreBreakdown[] {
  const scores: ScoreBreakdown[] = [];
  for (let p = 0; p < s.n; p++) scores.push(scoreSeat(s, p));
  return scores;
}

export interface GameResult {
  scores: ScoreBreakdown[];
  coins: number[];
  /** Seats with the most VP (and, among those, the most coins). */
  winners: number[];
  /** 'vp': one seat had the most VP; 'coins': the VP tie was broken by coins; 'shared': still tied. */
  decidedBy: 'vp' | 'coins' | 'shared';
  /** 1-based rank per seat by (VP, coins); tied seats share the better rank. */
  ranks: number[];
}

export function gameResult(s: GameState): GameResult {
  const scores = scoreAll(s);
  const coins = Array.from(s.coins);
  const n = s.n;
  const key = (p: number) => scores[p].total * 1000 + coins[p];
  const bestVp = Math.max(...scores.map((x) => x.total));
  const vpLeaders = [...Array(n).keys()].filter((p) => scores[p].total === bestVp);
  const bestCoins = Math.max(...vpLeaders.map((p) => coins[p]));
  const winners = vpLeaders.filter((p) => coins[p] === bestCoins);
  const decidedBy = vpLeaders.length === 1 ? 'vp' : winners.length === 1 ? 'coins' : 'shared';
  const ranks = [...Array(n).keys()].map((p) => 1 + [...Array(n).keys()].filter((q) => key(q) > key(p)).length);
  return { scores, coins, winners, decidedBy, ranks };
}
