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
import { perEffects, perTotal } from './counting.js';
import { CARD_COLOUR, boardSideIndex } from './moves.js';
import { BLUE, PURPLE, SCIENCE_WILD, YELLOW } from './resources.js';
import { MAX_STAGE_SLOTS, POWER_COPY_GUILD, cityBase, scienceIndex, tokenBase, type GameState } from './state.js';

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

// What end-of-game scoring reads of a card, as typed arrays (colour and VP from moves.ts): scoring
// runs for every seat at the end of every simulated game, and reading the card objects there was
// a visible part of a search's playout.
/** Per card type: its science symbol (SCIENCE_WILD for the Scientists Guild; −1 for none). */
const SCIENCE = Int8Array.from(CARDS, (c) => c.science);
/**
 * Per card type: the civilian VP it scores (a blue card's printed VP, 0 for the others), and
 * whether its VP are counted at the end, as commercial (yellow) or guild (purple) VP: the city loop
 * adds the first to every card without a branch on its colour, which a city's cards mispredicted.
 */
const CIVILIAN_VP = Int32Array.from(CARDS, (c) => (c.colour === BLUE ? c.vp : 0));
const COUNTED_NONE = 0;
const COUNTED_COMMERCIAL = 1;
const COUNTED_GUILD = 2;
const COUNTED_VP = Uint8Array.from(CARDS, (c) => (c.colour === YELLOW ? COUNTED_COMMERCIAL : c.colour === PURPLE ? COUNTED_GUILD : COUNTED_NONE));
/** Per board side (moves.ts boardSideIndex) and stages built (0 … MAX_STAGE_SLOTS): the stages' VP. */
const STAGE_VP_STRIDE = MAX_STAGE_SLOTS + 1;
const STAGE_VP_BUILT = Int32Array.from(
  BOARDS.flatMap((b) => b.sides.flatMap((side) => Array.from({ length: STAGE_VP_STRIDE }, (_, built) => side.slice(0, built).reduce((vp, stage) => vp + stage.vp, 0)))),
);
/** Every card's VP-per effects (a yellow card's, a guild's). */
const VP_PER = perEffects('vpPer');

// One seat's score by category, as scoreInto leaves it: the categories in SCORE_CATEGORIES'
// order, then the total. Scratch, so that a search's scoring allocates nothing.
const MILITARY = 0;
const TREASURY = 1;
const WONDER = 2;
const CIVILIAN = 3;
const COMMERCIAL = 4;
const GUILDS = 5;
const SCIENCE_VP = 6;
const TOTAL = 7;
const parts = new Int32Array(TOTAL + 1);

/**
 * Scores seat p into `parts`; returns the neighbour's guild Olympia B copies, or −1. The one
 * place the score pad is computed: scoreSeat, scoreTotal and copiedGuild read it.
 */
function scoreInto(s: GameState, p: number): number {
  let military = 0;
  for (let i = tokenBase(p), end = tokenBase(p + 1); i < end; i++) military += s.tokens[i];
  const wonder = STAGE_VP_BUILT[boardSideIndex(s, p) * STAGE_VP_STRIDE + s.stages[p]];
  let civilian = 0;
  let commercial = 0;
  let guilds = 0;
  const base = cityBase(p);
  const len = s.cityLen[p];
  for (let i = 0; i < len; i++) {
    const c = s.city[base + i];
    civilian += CIVILIAN_VP[c];
    const counted = COUNTED_VP[c];
    if (counted === COUNTED_COMMERCIAL) commercial += perTotal(VP_PER, s, p, c);
    else if (counted === COUNTED_GUILD) guilds += perTotal(VP_PER, s, p, c);
  }
  const compass = s.science[scienceIndex(p, 0)];
  const gear = s.science[scienceIndex(p, 1)];
  const tablet = s.science[scienceIndex(p, 2)];
  const wilds = s.science[scienceIndex(p, SCIENCE_WILD)];
  let science = sciencePoints(compass, gear, tablet, wilds);

  // Olympia B: copy the neighbour guild worth the most to this city (the left neighbour's
  // first, and a later one only when it is worth more).
  let copied = -1;
  if (s.powers[p] & POWER_COPY_GUILD) {
    let bestGain = 0;
    for (let side = 0; side < 2; side++) {
      const q = side === 0 ? s.left(p) : s.right(p);
      for (let i = 0; i < s.cityLen[q]; i++) {
        const c = s.city[cityBase(q) + i];
        if (CARD_COLOUR[c] !== PURPLE) continue;
        const gain = SCIENCE[c] === SCIENCE_WILD ? sciencePoints(compass, gear, tablet, wilds + 1) - science : perTotal(VP_PER, s, p, c);
        if (copied < 0 || gain > bestGain) {
          bestGain = gain;
          copied = c;
        }
      }
    }
    if (copied >= 0) {
      if (SCIENCE[copied] === SCIENCE_WILD) science += bestGain;
      else guilds += bestGain;
    }
  }
  const treasury = Math.floor(s.coins[p] / 3);
  parts[MILITARY] = military;
  parts[TREASURY] = treasury;
  parts[WONDER] = wonder;
  parts[CIVILIAN] = civilian;
  parts[COMMERCIAL] = commercial;
  parts[GUILDS] = guilds;
  parts[SCIENCE_VP] = science;
  parts[TOTAL] = military + treasury + wonder + civilian + commercial + guilds + science;
  return copied;
}

/** Seat p's score as the city stands now (the final score once the game is over). */
export function scoreSeat(s: GameState, p: number): ScoreBreakdown {
  scoreInto(s, p);
  return {
    military: parts[MILITARY],
    treasury: parts[TREASURY],
    wonder: parts[WONDER],
    civilian: parts[CIVILIAN],
    commercial: parts[COMMERCIAL],
    guilds: parts[GUILDS],
    science: parts[SCIENCE_VP],
    total: parts[TOTAL],
  };
}

/** scoreSeat(s, p).total without the breakdown: what a search reads at the end of every simulation. */
export function scoreTotal(s: GameState, p: number): number {
  scoreInto(s, p);
  return parts[TOTAL];
}

/** The guild Olympia B would copy at seat p (name), or undefined. */
export function copiedGuild(s: GameState, p: number): string | undefined {
  const c = scoreInto(s, p);
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
