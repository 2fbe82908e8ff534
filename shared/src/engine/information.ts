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
  cityBase,
  clone,
  copyState,
  handBase,
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
  if (q === viewer) return handCards(s, q);
  const age = s.age;
  const done = Math.min(turnsDone(s), TURNS_PER_AGE);
  const current = s.phase === PHASE_TURN ? s.turn : Math.min(s.turn, TURNS_PER_AGE);
  const h = lineageAt(s.n, age, current, q);
  const seen = lastHeld(s, age, h, viewer, done);
  if (seen === 0) return null;
  const cards = handCards(s, q);
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

/**
 * Copies of a seat's hand and city as plain arrays. Indexed loops rather than Array.from over a
 * view: rule-based players observe at every decision, and the views and their iterators were a
 * sixth of a rule-based game.
 */
function handCards(s: GameState, p: number): number[] {
  return copyRange(s.hands, handBase(s, p), s.handLen[p]);
}

function copyRange(from: Uint8Array, start: number, length: number): number[] {
  const out = new Array<number>(length);
  for (let i = 0; i < length; i++) out[i] = from[start + i];
  return out;
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
      city: copyRange(s.city, cityBase(q), s.cityLen[q]),
      handSize: s.handLen[q],
      handCandidates: q === seat ? null : handCandidates(s, seat, q),
    });
  }
  let discardSize = 0;
  for (let c = 0; c < s.discard.length; c++) discardSize += s.discard[c];
  return {
    seat,
    players: s.n,
    age: s.age,
    turn: s.turn,
    phase: s.phase,
    hand: handCards(s, seat),
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
 * it has seen. Uses (and advances) `rng`; the copy's own RNG is forked from it. To draw many worlds
 * of one state, build a Determinizer once.
 */
export function determinize(s: GameState, viewer: number, rng: Rng): GameState {
  return new Determinizer(s, viewer).sample(rng);
}

/**
 * Draws worlds of one state for one viewer (see determinize, which is one draw). Which places are
 * hidden, how they group and which cards each group holds depend only on the state and the
 * viewer, so they are worked out once here; a draw is then a copy, a shuffle per group and the
 * writes. The state must not change while the Determinizer is in use.
 */
export class Determinizer {
  /** Places to shuffle, group after group, each group's in the order the places were found. */
  private readonly at: Int32Array;
  /** Each group's cards, sorted: the world drawn depends on what the viewer knows only. */
  private readonly cards: Int32Array;
  /** Group g covers [groupStart[g], groupStart[g + 1]) of `at` and `cards`. */
  private readonly groupStart: Int32Array;
  /** Age III: groups before this one are shuffled before the unseen guilds are redrawn. */
  private readonly guildsBefore: number;
  /** The group holding the redrawn guilds, whose cards are read after the redraw (−1: none). */
  private readonly guildGroup: number;
  /** Places of the guilds the viewer has never seen, and the guilds they are redrawn from. */
  private readonly guildAt: Int32Array;
  private readonly guildPool: number[];
  private readonly pool: number[] = [];
  private readonly scratch: Int32Array;

  constructor(
    private readonly s: GameState,
    viewer: number,
  ) {
    const n = s.n;
    const at: number[] = [];
    const starts: number[] = [];
    let guildsBefore = -1;
    let guildGroup = -1;
    let guildAt: number[] = [];
    let guildPool: number[] = [];
    for (let age = 1; age <= s.age; age++) {
      const places = hiddenPlaces(s, viewer, age);
      if (age === 3) {
        guildsBefore = starts.length;
        const free = places.filter((pl) => pl.group === n && CARDS[readPlace(s, pl.at)].isGuild);
        guildAt = free.map((pl) => pl.at);
        guildPool = free.length > 0 ? unseenGuilds(s, free, n) : [];
      }
      for (let g = 0; g <= n; g++) {
        const members = places.filter((pl) => pl.group === g);
        if (members.length < 2) continue;
        if (age === 3 && g === n && guildAt.length > 0) guildGroup = starts.length;
        starts.push(at.length);
        for (const pl of members) at.push(pl.at);
      }
    }
    starts.push(at.length);
    this.at = Int32Array.from(at);
    this.groupStart = Int32Array.from(starts);
    this.cards = new Int32Array(at.length);
    this.scratch = new Int32Array(at.length);
    for (let g = 0; g + 1 < starts.length; g++) {
      for (let i = starts[g]; i < starts[g + 1]; i++) this.cards[i] = readPlace(s, at[i]);
      this.cards.subarray(starts[g], starts[g + 1]).sort();
    }
    this.guildsBefore = guildsBefore < 0 ? starts.length : guildsBefore;
    this.guildGroup = guildGroup;
    this.guildAt = Int32Array.from(guildAt);
    this.guildPool = guildPool;
  }

  /**
   * One world (see determinize); uses and advances rng exactly as determinize does. Written into
   * `into` when given (a state of as many players, which it returns), else into a new state.
   */
  sample(rng: Rng, into?: GameState): GameState {
    const d = into ? copyState(into, this.s) : clone(this.s);
    rng.forkInto(d.rng);
    const groups = this.groupStart.length - 1;
    for (let g = 0; g < groups; g++) {
      if (g === this.guildsBefore) this.redrawGuilds(d, rng);
      this.shuffleGroup(d, g, rng);
    }
    if (groups === this.guildsBefore) this.redrawGuilds(d, rng);
    return d;
  }

  private shuffleGroup(d: GameState, g: number, rng: Rng): void {
    const from = this.groupStart[g];
    const to = this.groupStart[g + 1];
    const cards = this.scratch;
    if (g === this.guildGroup) {
      // The redraw has changed some of this group's cards: read them back from the world.
      for (let i = from; i < to; i++) cards[i] = readPlace(d, this.at[i]);
      cards.subarray(from, to).sort();
    } else {
      // A loop, not set(subarray(…)): a group is a few cards, and the view was an allocation and
      // two builtin calls per group of every world drawn.
      for (let i = from; i < to; i++) cards[i] = this.cards[i];
    }
    rng.shuffle(cards, from, to);
    for (let i = from; i < to; i++) writePlace(d, this.at[i], cards[i]);
  }

  private redrawGuilds(d: GameState, rng: Rng): void {
    if (this.guildAt.length === 0) return;
    const pool = this.pool;
    pool.length = 0;
    for (const c of this.guildPool) pool.push(c);
    rng.shuffle(pool);
    for (let i = 0; i < this.guildAt.length; i++) writePlace(d, this.guildAt[i], pool[i]);
  }
}

/**
 * The places of an Age's cards that the viewer cannot see, each with its group: group h < n is
 * hand lineage h as the viewer last saw it, group n the free group.
 */
function hiddenPlaces(s: GameState, viewer: number, age: number): Place[] {
  const n = s.n;
  const current = age === s.age;
  const done = current ? Math.min(turnsDone(s), TURNS_PER_AGE) : TURNS_PER_AGE;
  const lastSeen = new Array<number>(n);
  for (let h = 0; h < n; h++) lastSeen[h] = lastHeld(s, age, h, viewer, done);
  const places: Place[] = [];
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
      for (let i = 0; i < s.handLen[q]; i++) places.push({ at: handBase(s, q) + i, group });
    }
  }
  return places;
}

/**
 * Age III: the guilds in the free group are ones the viewer has never seen; which guilds are in
 * the game at all is unknown to it, so their identities are redrawn from all the guilds it has
 * not seen (in catalogue order; a draw shuffles them).
 */
function unseenGuilds(s: GameState, free: readonly Place[], n: number): number[] {
  const inFree = new Set(free.map((pl) => readPlace(s, pl.at)));
  const inGame = new Set<number>();
  for (let q = 0; q < n; q++) {
    for (let i = 0; i < s.handLen[q]; i++) {
      const c = s.hands[handBase(s, q) + i];
      if (CARDS[c].isGuild) inGame.add(c);
    }
  }
  for (let i = 0; i < s.logCard.length; i++) {
    const c = s.logCard[i];
    if (c !== NO_CARD && CARDS[c].isGuild) inGame.add(c);
  }
  const seen = [...inGame].filter((c) => !inFree.has(c));
  return GUILD_IDS.filter((c) => !seen.includes(c));
}
