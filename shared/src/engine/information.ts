/**
 * Hidden information: what one seat knows (observe) and a world resampled from that knowledge
 * (determinize).
 *
 * Public: every city (built cards, stages, coins, shields, tokens), hand sizes, the number of
 * cards in the discard pile, and which action each seat took (build / stage / discard) — the
 * card of a stage or a discard is face down. A seat knows its own hand and its own face-down
 * cards, and it knows the hands it has passed on: when it passes a hand it sees its contents, so
 * later it can place those cards in whichever hand they travelled to, minus the cards it saw
 * built from them, with as many unknown face-down removals as the holders since then made.
 *
 * Because the seat-to-hand relation is fixed by the passing direction, the state's per-Age log
 * (which card each seat took from the hand it held, and how) is enough to work this out; nothing
 * per viewer needs to be stored.
 *
 * determinize(state, viewer, rng) permutes the cards of the places the viewer cannot see within
 * groups that share the same knowledge: for each hand lineage the viewer has seen, the cards it
 * may still hold plus the cards removed face down from it since; everything else of the Age in a
 * free group. Each group's multiset is exactly what the viewer can infer, so a uniform
 * permutation within groups is a uniform draw of the worlds consistent with what it saw (opponent
 * play taken as uninformative). Age III guilds that the viewer has not seen are redrawn from the
 * guilds it has not seen. Later Ages' decks are not dealt yet: the copy gets a forked RNG, so
 * they come out differently. The original state is never touched.
 */
import { CARDS, GUILD_IDS } from './catalog.js';
import type { Rng } from './rng.js';
import {
  LOG_BUILT,
  LOG_DISCARD,
  LOG_SLOTS,
  LOG_STAGE,
  NO_CARD,
  PHASE_TURN,
  TURNS_PER_AGE,
  cityView,
  clone,
  handBase,
  handView,
  holderAt,
  lineageAt,
  logPosition,
  tokenBase,
  tuckedIndex,
  type GameState,
} from './state.js';

/** Turns of the current Age whose removals are done (the hands held now have lost that many). */
function turnsDone(s: GameState): number {
  return s.phase === PHASE_TURN ? s.turn - 1 : s.turn;
}

/** The last turn (1-based) at which `viewer` held lineage h, up to `upTo`, or 0. */
function lastHeld(s: GameState, age: number, h: number, viewer: number, upTo: number): number {
  for (let t = upTo; t >= 1; t--) if (lineageAt(s.n, age, t, viewer) === h) return t;
  return 0;
}

/** Whether the viewer knows the card that left a hand at this log slot. */
function knownRemoval(s: GameState, viewer: number, age: number, slot: number, seat: number): boolean {
  const kind = s.logKind[s.logIndex(age, slot, seat)];
  if (seat === viewer || kind === LOG_BUILT) return true;
  if (kind === LOG_DISCARD) return logPosition(age, slot) < s.discardSeenUpTo[viewer];
  // Stages stay hidden; a card taken back out of the discard pile is pinned where it is.
  return kind !== LOG_STAGE;
}

export interface SeatView {
  board: number;
  side: number;
  stages: number;
  coins: number;
  shields: number;
  /** Conflict tokens held, in the order won. */
  military: number[];
  /** Card type ids in the city, in the order built. */
  city: number[];
  handSize: number;
  /**
   * For another seat's hand that this seat has seen: the cards it may still hold (it holds
   * `handSize` of them; the others were played face down since). Null when never seen.
   */
  handCandidates: number[] | null;
}

export interface Observation {
  seat: number;
  players: number;
  age: number;
  turn: number;
  phase: number;
  hand: number[];
  seats: SeatView[];
  discardSize: number;
}

/** The cards a seat knows could be in the hand another seat holds now, or null if unseen. */
export function handCandidates(s: GameState, viewer: number, q: number): number[] | null {
  if (q === viewer) return Array.from(handView(s, q));
  const age = s.age;
  const done = Math.min(turnsDone(s), TURNS_PER_AGE);
  const current = s.phase === PHASE_TURN ? s.turn : Math.min(s.turn, TURNS_PER_AGE);
  const h = lineageAt(s.n, age, current, q);
  const seen = lastHeld(s, age, h, viewer, done);
  if (seen === 0) return null;
  const cards = Array.from(handView(s, q));
  for (let t = seen + 1; t <= done; t++) {
    const holder = holderAt(s.n, age, t, h);
    if (!knownRemoval(s, viewer, age, t - 1, holder)) cards.push(s.logCard[s.logIndex(age, t - 1, holder)]);
  }
  // The seventh card (log slot 6) left the same hand after turn 6.
  if (done === TURNS_PER_AGE) {
    const holder = holderAt(s.n, age, TURNS_PER_AGE, h);
    const slot = LOG_SLOTS - 1;
    if (s.logKind[s.logIndex(age, slot, holder)] !== 0 && !knownRemoval(s, viewer, age, slot, holder)) {
      cards.push(s.logCard[s.logIndex(age, slot, holder)]);
    }
  }
  return cards;
}

export function observe(s: GameState, seat: number): Observation {
  const seats: SeatView[] = [];
  for (let q = 0; q < s.n; q++) {
    const military: number[] = [];
    for (let i = tokenBase(q), end = tokenBase(q + 1); i < end; i++) if (s.tokens[i] !== 0) military.push(s.tokens[i]);
    seats.push({
      board: s.board[q],
      side: s.side[q],
      stages: s.stages[q],
      coins: s.coins[q],
      shields: s.shields[q],
      military,
      city: Array.from(cityView(s, q)),
      handSize: s.handLen[q],
      handCandidates: q === seat ? null : handCandidates(s, seat, q),
    });
  }
  let discardSize = 0;
  for (const k of s.discard) discardSize += k;
  return {
    seat,
    players: s.n,
    age: s.age,
    turn: s.turn,
    phase: s.phase,
    hand: Array.from(handView(s, seat)),
    seats,
    discardSize,
  };
}

/** A place holding one card the viewer cannot see: a hand position or a face-down log slot. */
interface Place {
  /** Index into hands, or −1 − (index into the log). */
  at: number;
  group: number;
}

function readPlace(s: GameState, at: number): number {
  return at >= 0 ? s.hands[at] : s.logCard[-1 - at];
}

/** Moves the card at a place to `card`, keeping the discard pile and tucked cards consistent. */
function writePlace(s: GameState, at: number, card: number): void {
  if (at >= 0) {
    s.hands[at] = card;
    return;
  }
  const log = -1 - at;
  const old = s.logCard[log];
  if (old === card) return;
  s.logCard[log] = card;
  const seat = s.seatOfLog(log);
  if (s.logKind[log] === LOG_DISCARD) {
    s.discard[old]--;
    s.discard[card]++;
  } else {
    for (let i = 0; i < s.stages[seat]; i++) {
      if (s.tucked[tuckedIndex(seat, i)] === old) {
        s.tucked[tuckedIndex(seat, i)] = card;
        break;
      }
    }
  }
}

/**
 * A copy of the state in which everything `viewer` cannot know is resampled consistently with what
 * it has seen. Uses (and advances) `rng`; the copy's own RNG is forked from it.
 */
export function determinize(s: GameState, viewer: number, rng: Rng): GameState {
  const d = clone(s);
  d.rng = rng.fork();
  const n = s.n;
  for (let age = 1; age <= s.age; age++) {
    const current = age === s.age;
    const done = current ? Math.min(turnsDone(s), TURNS_PER_AGE) : TURNS_PER_AGE;
    const lastSeen = new Array<number>(n);
    for (let h = 0; h < n; h++) lastSeen[h] = lastHeld(s, age, h, viewer, done);
    const places: Place[] = [];
    // Group n is the free group; group h < n is lineage h as the viewer last saw it.
    const groupOf = (h: number, turn: number) => (lastSeen[h] > 0 && turn > lastSeen[h] ? h : n);
    // Slots not played yet are LOG_NONE and skipped.
    for (let slot = 0; slot < LOG_SLOTS; slot++) {
      const turn = Math.min(slot + 1, TURNS_PER_AGE);
      for (let seat = 0; seat < n; seat++) {
        const log = s.logIndex(age, slot, seat);
        if (s.logKind[log] === 0 || knownRemoval(s, viewer, age, slot, seat)) continue;
        // The seventh card counts as removed after turn 6.
        places.push({ at: -1 - log, group: groupOf(lineageAt(n, age, turn, seat), slot + 1) });
      }
    }
    if (current) {
      const turn = Math.min(s.turn, TURNS_PER_AGE);
      for (let q = 0; q < n; q++) {
        if (q === viewer) continue;
        const group = groupOf(lineageAt(n, age, turn, q), TURNS_PER_AGE + 1);
        for (let i = 0; i < s.handLen[q]; i++) places.push({ at: handBase(q) + i, group });
      }
    }
    if (age === 3) redrawUnseenGuilds(s, d, places, n, rng);
    for (let g = 0; g <= n; g++) {
      const members = places.filter((pl) => pl.group === g);
      if (members.length < 2) continue;
      // Sorted first, so the world drawn depends on what the viewer knows, not on where the
      // hidden cards really are: two states with one information set give the same worlds.
      const cards = members.map((pl) => readPlace(d, pl.at)).sort((a, b) => a - b);
      rng.shuffle(cards);
      members.forEach((pl, i) => writePlace(d, pl.at, cards[i]));
    }
  }
  return d;
}

/**
 * Age III: the guilds in the free group are ones the viewer has never seen; which guilds are in
 * the game at all is unknown to it, so their identities are redrawn from all unseen guilds.
 */
function redrawUnseenGuilds(s: GameState, d: GameState, places: Place[], n: number, rng: Rng): void {
  const free = places.filter((pl) => pl.group === n && CARDS[readPlace(s, pl.at)].isGuild);
  if (free.length === 0) return;
  const inFree = new Set(free.map((pl) => readPlace(s, pl.at)));
  const inGame = new Set<number>();
  for (let q = 0; q < n; q++) {
    for (let i = 0; i < s.handLen[q]; i++) {
      const c = s.hands[handBase(q) + i];
      if (CARDS[c].isGuild) inGame.add(c);
    }
  }
  for (let i = 0; i < s.logCard.length; i++) {
    const c = s.logCard[i];
    if (c !== NO_CARD && CARDS[c].isGuild) inGame.add(c);
  }
  const seen = [...inGame].filter((c) => !inFree.has(c));
  const pool = rng.shuffle(GUILD_IDS.filter((c) => !seen.includes(c)));
  free.forEach((pl, i) => writePlace(d, pl.at, pool[i]));
}
