/**
 * The rules: setting up a game and advancing it by one joint step. Stateless functions over
 * GameState.
 *
 * A step resolves one decision point. In PHASE_TURN every seat has chosen a move (simultaneous:
 * no seat's choice depends on another's of the same turn) and all are revealed together:
 *   1. each card leaves its hand; payments leave the payer at once, while coins *received*
 *      (trade, discards, card and stage effects) are added only after every seat has acted, so
 *      they cannot be spent the same turn;
 *   2. buildings are placed, then "coins per card" effects count the cities as they stand after
 *      all of this turn's buildings (Vineyard and Bazar see a neighbour's card built the same
 *      turn);
 *   3. on turn 6, Babylon B (with its second stage) plays its seventh card in PHASE_SEVENTH; the
 *      other seventh cards are then discarded;
 *   4. a Halicarnassus stage built this turn lets it build one card from the whole discard pile
 *      (this turn's discards and the seventh cards included) in PHASE_DISCARD_BUILD;
 *   5. hands pass, or the Age ends: military conflicts with both neighbours, then the next deck.
 */
import { BOARDS, CARDS, GUILD_IDS, ageDeckWithoutGuilds, findBoard } from './catalog.js';
import { perEffects, perTotal } from './counting.js';
import {
  ACTION_BUILD,
  ACTION_BUILD_DISCARDED,
  ACTION_DISCARD,
  ACTION_FREE_BUILD,
  ACTION_STAGE,
  CARD_COIN_COST,
  hasChain,
  moveAction,
  moveCard,
  movePayLeft,
  movePayRight,
} from './moves.js';
import { Rng } from './rng.js';
import {
  GameState,
  HAND_SIZE,
  LOG_BUILT,
  LOG_DISCARD,
  LOG_DISCARD_TAKEN,
  LOG_SLOTS,
  LOG_STAGE,
  MAX_PLAYERS,
  MIN_PLAYERS,
  PACKED_OWN_CHOICES,
  PACKED_OWN_FIXED,
  PACKED_TRADE_CHOICES,
  PACKED_TRADE_FIXED,
  PHASE_DISCARD_BUILD,
  PHASE_OVER,
  PHASE_SEVENTH,
  PHASE_TURN,
  POWER_COPY_GUILD,
  POWER_FREE_BUILD,
  POWER_PLAY_SEVENTH,
  TURNS_PER_AGE,
  choiceBase,
  cityBase,
  colourIndex,
  handBase,
  logPosition,
  ownsNameIndex,
  packedIndex,
  passDirection,
  productionChanged,
  sourcesChanged,
  resourceIndex,
  scienceIndex,
  tokenIndex,
  tuckedIndex,
  withOneMoreMask,
  withUnits,
} from './state.js';
import { BROWN, GREY } from './resources.js';

export type SideChoice = 'A' | 'B';

export interface GameConfig {
  players: number;
  seed: number | string;
  /** Board per seat (city name, alias or id); random when omitted. */
  boards?: readonly (string | number)[];
  /** One side for all, one per seat, or 'random' (the default: each seat draws). */
  sides?: SideChoice | 'random' | readonly SideChoice[];
  /**
   * Allow the same board in several seats. The rules forbid it; Robilliard et al. (2014) give
   * two compared agents the same board so that neither gains from a better one.
   */
  duplicateBoards?: boolean;
}

export const STARTING_COINS = 3;
export const DISCARD_COINS = 3;
/** Victory points for winning a conflict in Age I, II, III; a loss costs 1 in every Age. */
export const VICTORY_POINTS = [1, 3, 5];

/** Starts a game: boards and sides, 3 coins each, the Age I deck shuffled and dealt. */
export function newGame(config: GameConfig): GameState {
  const n = config.players;
  if (!Number.isInteger(n) || n < MIN_PLAYERS || n > MAX_PLAYERS) {
    throw new Error(`players must be an integer from ${MIN_PLAYERS} to ${MAX_PLAYERS}, got ${n}`);
  }
  const rng = new Rng(config.seed);
  const s = new GameState(n, rng);
  let boards: ArrayLike<number>;
  if (config.boards) {
    if (config.boards.length !== n) throw new Error(`boards: expected ${n} boards, got ${config.boards.length}`);
    const named = config.boards.map((b) => {
      const id = typeof b === 'number' ? b : findBoard(b);
      if (id === undefined || !BOARDS[id]) throw new Error(`boards: unknown wonder board '${b}'`);
      return id;
    });
    boards = named;
    if (!config.duplicateBoards && new Set(named).size !== n) throw new Error('boards: each board may be used only once (duplicateBoards allows it)');
  } else {
    // Shuffled in a scratch array: the same draws as shuffling a fresh list of every board.
    for (let b = 0; b < BOARDS.length; b++) boardScratch[b] = BOARDS[b].id;
    rng.shuffle(boardScratch);
    boards = boardScratch;
  }
  const sides = config.sides ?? 'random';
  for (let p = 0; p < n; p++) {
    let side: SideChoice;
    if (sides === 'random') side = rng.int(2) === 0 ? 'A' : 'B';
    else if (typeof sides === 'string') side = sides;
    else side = sides[p];
    if (side !== 'A' && side !== 'B') throw new Error(`sides: expected 'A' or 'B' for seat ${p}, got '${side}'`);
    s.board[p] = boards[p];
    s.side[p] = side === 'A' ? 0 : 1;
    s.coins[p] = STARTING_COINS;
    const res = BOARDS[boards[p]].resource;
    s.fixed[resourceIndex(p, res)]++;
    s.tradeFixed[resourceIndex(p, res)]++;
  }
  productionChanged(s);
  dealAge(s, 1);
  return s;
}

const deckCache = new Map<number, number[]>();
/** newGame's and dealAge's scratch (the shuffles draw as they would over fresh arrays; nothing allocated per game). */
const boardScratch = new Int32Array(BOARDS.length);
const guildScratch = new Int32Array(GUILD_IDS.length);

function dealAge(s: GameState, age: number): void {
  const n = s.n;
  const key = age * 10 + n;
  let base = deckCache.get(key);
  if (!base) {
    base = ageDeckWithoutGuilds(age, n);
    deckCache.set(key, base);
  }
  // Shuffled where it is dealt: the hands lie in runs of HAND_SIZE, so the deck's first run is
  // seat 0's hand, the next seat 1's, and so on (each seat's handSlot set back to its own run).
  const deck = s.hands;
  let size = base.length;
  for (let i = 0; i < size; i++) deck[i] = base[i];
  if (age === 3) {
    for (let i = 0; i < GUILD_IDS.length; i++) guildScratch[i] = GUILD_IDS[i];
    s.rng.shuffle(guildScratch);
    for (let i = 0; i < n + 2; i++) deck[size++] = guildScratch[i];
  }
  if (size !== n * HAND_SIZE) throw new Error(`Age ${age} deck for ${n} players has ${size} cards`);
  s.rng.shuffle(deck, 0, size);
  for (let p = 0; p < n; p++) {
    s.handSlot[p] = p;
    s.handLen[p] = HAND_SIZE;
  }
  s.age = age;
  s.turn = 1;
  s.phase = PHASE_TURN;
}

// Per card type, whether placing it adds fixed production and whether building it pays coins
// per card counted: most cards do neither, and every simulated game places some fifty cards.
const PRODUCES_ANY = Uint8Array.from(CARDS, (card) => (card.produces.some((k) => k > 0) ? 1 : 0));
const PAYS_PER_COUNT = Uint8Array.from(CARDS, (card) => (card.effects.some((e) => e.kind === 'coinsPer') ? 1 : 0));
const COINS_PER = perEffects('coinsPer');

/** Puts card c into seat p's city and applies its lasting effects (not its coins). */
export function placeCard(s: GameState, p: number, c: number): void {
  const card = CARDS[c];
  s.ownsName[ownsNameIndex(p, card.nameId)] = 1;
  s.city[cityBase(p) + s.cityLen[p]++] = c;
  s.colourCount[colourIndex(p, card.colour)]++;
  const tradable = card.colour === BROWN || card.colour === GREY;
  // Own fixed production is no source (a cost is first reduced by it); the neighbours buy from
  // the tradable part.
  let forNeighbours = false;
  if (PRODUCES_ANY[c]) {
    for (let r = 0; r < 7; r++) {
      const k = card.produces[r];
      if (k) {
        const own = packedIndex(p, PACKED_OWN_FIXED);
        s.packed[own] = withUnits(s.packed[own], r, (s.fixed[resourceIndex(p, r)] += k));
        if (tradable) {
          const trade = packedIndex(p, PACKED_TRADE_FIXED);
          s.packed[trade] = withUnits(s.packed[trade], r, (s.tradeFixed[resourceIndex(p, r)] += k));
          forNeighbours = true;
        }
      }
    }
  }
  if (card.choiceMask) {
    addChoice(s, p, card.choiceMask);
    if (tradable) {
      s.tradeChoices[choiceBase(p) + s.tradeChoiceLen[p]++] = card.choiceMask;
      const trade = packedIndex(p, PACKED_TRADE_CHOICES);
      s.packed[trade] = withOneMoreMask(s.packed[trade], card.choiceMask);
      forNeighbours = true;
    }
  }
  s.shields[p] += card.shields;
  if (card.science >= 0) s.science[scienceIndex(p, card.science)]++;
  if (card.discount) {
    s.discount[p] |= card.discount;
    sourcesChanged(s, p);
  }
  if (forNeighbours) {
    sourcesChanged(s, s.left(p));
    sourcesChanged(s, s.right(p));
  }
}

/** Gives seat p a one-of production of `mask` for its own use (a card's or a wonder stage's). */
function addChoice(s: GameState, p: number, mask: number): void {
  s.choices[choiceBase(p) + s.choiceLen[p]++] = mask;
  const own = packedIndex(p, PACKED_OWN_CHOICES);
  s.packed[own] = withOneMoreMask(s.packed[own], mask);
  sourcesChanged(s, p);
}

/** Coins card c pays seat p when built, counted from the cities as they stand now. */
export function coinsWhenBuilt(s: GameState, p: number, c: number): number {
  // No call for the cards that pay nothing per count: calling it for every build cost random
  // games 1–3 %.
  return PAYS_PER_COUNT[c] ? CARDS[c].coins + perTotal(COINS_PER, s, p, c) : CARDS[c].coins;
}

/**
 * Builds seat p's next stage with card c tucked under it (NO_CARD when unknown, as in a position
 * written by hand) and applies its lasting effects; returns the stage's one-off coins.
 */
export function buildStage(s: GameState, p: number, c: number): number {
  const stage = BOARDS[s.board[p]].sides[s.side[p]][s.stages[p]];
  s.tucked[tuckedIndex(p, s.stages[p])] = c;
  s.stages[p]++;
  if (stage.choiceMask) addChoice(s, p, stage.choiceMask);
  s.shields[p] += stage.shields;
  if (stage.science >= 0) s.science[scienceIndex(p, stage.science)]++;
  s.discount[p] |= stage.discount;
  if (stage.discount) sourcesChanged(s, p);
  if (stage.freeBuildPerAge) s.powers[p] |= POWER_FREE_BUILD;
  if (stage.playSeventh) s.powers[p] |= POWER_PLAY_SEVENTH;
  if (stage.copyGuild) s.powers[p] |= POWER_COPY_GUILD;
  if (stage.buildFromDiscard) s.pendingDiscardBuilds[p]++;
  return stage.coins;
}

function removeFromHand(s: GameState, p: number, c: number): void {
  const base = handBase(s, p);
  const len = s.handLen[p];
  for (let i = 0; i < len; i++) {
    if (s.hands[base + i] === c) {
      s.hands[base + i] = s.hands[base + len - 1];
      s.handLen[p] = len - 1;
      return;
    }
  }
  throw new Error(`seat ${p} does not hold ${CARDS[c].name}`);
}

// Scratch for one step.
const income = new Int32Array(MAX_PLAYERS);
const builtCard = new Int32Array(MAX_PLAYERS);

/**
 * Applies one seat's move to the city and the coins, deferring coins received into `income`.
 * Returns the card built (for coin effects counted after all placements) or −1.
 */
function applyMove(s: GameState, p: number, m: number, slot: number): number {
  const c = moveCard(m);
  const action = moveAction(m);
  const payLeft = movePayLeft(m);
  const payRight = movePayRight(m);
  removeFromHand(s, p, c);
  const log = s.logIndex(s.age, slot, p);
  s.logCard[log] = c;
  let built = -1;
  switch (action) {
    case ACTION_BUILD: {
      if (!hasChain(s, p, c)) s.coins[p] -= CARD_COIN_COST[c] + payLeft + payRight;
      income[s.left(p)] += payLeft;
      income[s.right(p)] += payRight;
      placeCard(s, p, c);
      s.logKind[log] = LOG_BUILT;
      built = c;
      break;
    }
    case ACTION_FREE_BUILD:
      s.freeBuildAge[p] = s.age;
      placeCard(s, p, c);
      s.logKind[log] = LOG_BUILT;
      built = c;
      break;
    case ACTION_STAGE:
      s.coins[p] -= payLeft + payRight;
      income[s.left(p)] += payLeft;
      income[s.right(p)] += payRight;
      income[p] += buildStage(s, p, c);
      s.logKind[log] = LOG_STAGE;
      break;
    case ACTION_DISCARD:
      s.discard[c]++;
      income[p] += DISCARD_COINS;
      s.logKind[log] = LOG_DISCARD;
      break;
    default:
      throw new Error(`action ${action} is not playable from a hand`);
  }
  return built;
}

/**
 * Advances the game by one decision point. `moves[p]` is seat p's move for every seat that acts
 * now (see actingSeats); other entries are ignored. Moves are trusted: use isLegalMove (or take
 * them from legalMoves) for moves from outside.
 */
export function step(s: GameState, moves: ArrayLike<number>): void {
  const n = s.n;
  if (s.phase === PHASE_TURN) {
    // A loop, not income.fill(0): the builtin's call cost a quarter of step's own time.
    for (let p = 0; p < n; p++) income[p] = 0;
    for (let p = 0; p < n; p++) builtCard[p] = applyMove(s, p, moves[p], s.turn - 1);
    for (let p = 0; p < n; p++) if (builtCard[p] >= 0) income[p] += coinsWhenBuilt(s, p, builtCard[p]);
    for (let p = 0; p < n; p++) s.coins[p] += income[p];
    if (s.turn === TURNS_PER_AGE) {
      for (let p = 0; p < n; p++) {
        if (s.powers[p] & POWER_PLAY_SEVENTH && s.handLen[p] === 1) {
          s.pendingSeventh = p;
          s.phase = PHASE_SEVENTH;
          return;
        }
      }
      discardSeventhCards(s);
    }
    afterTurn(s);
  } else if (s.phase === PHASE_SEVENTH) {
    const p = s.pendingSeventh;
    for (let q = 0; q < n; q++) income[q] = 0;
    const built = applyMove(s, p, moves[p], LOG_SLOTS - 1);
    if (built >= 0) income[p] += coinsWhenBuilt(s, p, built);
    for (let q = 0; q < n; q++) s.coins[q] += income[q];
    s.pendingSeventh = -1;
    discardSeventhCards(s);
    afterTurn(s);
  } else if (s.phase === PHASE_DISCARD_BUILD) {
    for (let p = 0; p < n; p++) {
      if (s.pendingDiscardBuilds[p] === 0) continue;
      const m = moves[p];
      const c = moveCard(m);
      if (moveAction(m) !== ACTION_BUILD_DISCARDED || s.discard[c] === 0) {
        throw new Error(`seat ${p} must build a card from the discard pile`);
      }
      s.discard[c]--;
      markTakenFromDiscard(s, c);
      placeCard(s, p, c);
      s.coins[p] += coinsWhenBuilt(s, p, c);
      s.pendingDiscardBuilds[p] = 0;
    }
    advance(s);
  } else {
    throw new Error('the game is over');
  }
}

/** The last card of each hand goes face down onto the discard pile (no coins). */
function discardSeventhCards(s: GameState): void {
  for (let p = 0; p < s.n; p++) {
    if (s.handLen[p] === 0) continue;
    const c = s.hands[handBase(s, p)];
    s.handLen[p] = 0;
    s.discard[c]++;
    const log = s.logIndex(s.age, LOG_SLOTS - 1, p);
    s.logCard[log] = c;
    s.logKind[log] = LOG_DISCARD;
  }
}

/** Marks one face-down discard of card c in the log as taken back out (now public). */
function markTakenFromDiscard(s: GameState, c: number): void {
  for (let i = 0; i < s.logCard.length; i++) {
    if (s.logCard[i] === c && s.logKind[i] === LOG_DISCARD) {
      s.logKind[i] = LOG_DISCARD_TAKEN;
      return;
    }
  }
}

/** After the seats' moves of a turn: Halicarnassus, then passing or the end of the Age. */
function afterTurn(s: GameState): void {
  let pending = false;
  for (let p = 0; p < s.n; p++) {
    if (s.pendingDiscardBuilds[p] === 0) continue;
    if (hasDiscardBuild(s, p)) pending = true;
    else s.pendingDiscardBuilds[p] = 0;
  }
  if (pending) {
    s.phase = PHASE_DISCARD_BUILD;
    // Whoever builds from the discard pile looks through all of it.
    // After turn 6 the seventh cards (slot 6) are already on the pile too.
    const slotsDone = s.turn === TURNS_PER_AGE ? LOG_SLOTS : s.turn;
    const seenUpTo = logPosition(s.age, slotsDone);
    for (let p = 0; p < s.n; p++) if (s.pendingDiscardBuilds[p]) s.discardSeenUpTo[p] = seenUpTo;
    return;
  }
  advance(s);
}

function hasDiscardBuild(s: GameState, p: number): boolean {
  for (let c = 0; c < s.discard.length; c++) {
    if (s.discard[c] > 0 && !s.ownsName[ownsNameIndex(p, CARDS[c].nameId)]) return true;
  }
  return false;
}

function advance(s: GameState): void {
  const n = s.n;
  if (s.turn < TURNS_PER_AGE) {
    // Each seat takes the hand slot of the seat it receives from (p − 1 when hands pass left, to
    // p + 1; p + 1 in Age II): the cards stay where they lie.
    const slots = s.handSlot;
    if (passDirection(s.age) === 1) {
      const last = slots[n - 1];
      for (let p = n - 1; p > 0; p--) slots[p] = slots[p - 1];
      slots[0] = last;
    } else {
      const first = slots[0];
      for (let p = 0; p < n - 1; p++) slots[p] = slots[p + 1];
      slots[n - 1] = first;
    }
    s.turn++;
    s.phase = PHASE_TURN;
    return;
  }
  resolveConflicts(s);
  if (s.age === 3) {
    s.phase = PHASE_OVER;
    return;
  }
  dealAge(s, s.age + 1);
}

/** Each seat compares shields with both neighbours: win +1/+3/+5 by Age, loss −1, tie nothing. */
export function resolveConflicts(s: GameState): void {
  const win = VICTORY_POINTS[s.age - 1];
  for (let p = 0; p < s.n; p++) {
    const neighbours = [s.left(p), s.right(p)];
    for (let k = 0; k < 2; k++) {
      const mine = s.shields[p];
      const theirs = s.shields[neighbours[k]];
      s.tokens[tokenIndex(p, s.age, k)] = mine > theirs ? win : mine < theirs ? -1 : 0;
    }
  }
}
