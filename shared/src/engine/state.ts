/**
 * The game state: plain data in typed arrays, so that `clone` is a handful of memory copies and the
 * rules can run without allocating. The rules are functions over it (see rules.ts); nothing here
 * knows the game beyond its sizes and the catalogue's one-of masks (by which `packed` counts a
 * city's one-of productions).
 *
 * Seats are numbered clockwise: seat p's LEFT neighbour is p + 1 and its RIGHT neighbour p − 1
 * (mod n). Hands pass left in Ages I and III, right in Age II.
 */
import { CHOICE_MASK_INDEX, NUM_CARD_TYPES, NUM_NAMES } from './catalog.js';
import { NUM_COLOURS, NUM_RESOURCES, SCIENCE_WILD } from './resources.js';
import { Rng } from './rng.js';

export const MIN_PLAYERS = 3;
export const MAX_PLAYERS = 7;
export const HAND_SIZE = 7;
export const TURNS_PER_AGE = 6;
/** Log slots per Age: the six turns plus the seventh card at the end of the Age. */
export const LOG_SLOTS = 7;
/** Room for the cards of one city: 18 turns, 3 seventh cards, 3 builds from the discard pile. */
export const MAX_CITY = 24;
/** Room for one-of productions in a city (choice cards, Forum, Caravansery, Alexandria). */
export const MAX_CHOICES = 16;
export const MAX_STAGE_SLOTS = 4;
/** Conflict tokens per seat: one per Age and neighbour. */
export const TOKENS_PER_SEAT = 6;
/** Science counters per seat: the three symbols, then the wild one. */
export const SCIENCE_COUNTERS = SCIENCE_WILD + 1;

// Where each seat's block lies in the per-seat arrays of GameState. Every stride is written here
// and nowhere else, so that the layout can change in one place; these return plain numbers, which
// V8 inlines, so hot loops stay allocation-free.
//
// They read module-private copies of the strides: V8 loads an exported or imported binding from
// its module cell at every use, const or not, which made an accessor in a tight loop ~60 % slower
// than a literal in a micro-benchmark (Node 20); a private const compiles to a constant.
const TOKENS = TOKENS_PER_SEAT;
const HAND = HAND_SIZE;
const NAMES = NUM_NAMES;
const CITY = MAX_CITY;
const COLOURS = NUM_COLOURS;
const SCIENCE = SCIENCE_COUNTERS;
const RESOURCES = NUM_RESOURCES;
const CHOICES = MAX_CHOICES;
const STAGE_SLOTS = MAX_STAGE_SLOTS;
const SLOTS = LOG_SLOTS;

/** Seat p's conflict tokens in `tokens`: from here up to tokenBase(p + 1). */
export function tokenBase(p: number): number {
  return p * TOKENS;
}
/** Seat p's token from the conflict of `age` with its left (side 0) or right (side 1) neighbour. */
export function tokenIndex(p: number, age: number, side: number): number {
  return tokenBase(p) + (age - 1) * 2 + side;
}
/** Seat p's hand in `hands`: handLen[p] cards from here (the run of HAND_SIZE its handSlot names). */
export function handBase(s: GameState, p: number): number {
  return s.handSlot[p] * HAND;
}
/** Seat p's flag for a building name in `ownsName`. */
export function ownsNameIndex(p: number, nameId: number): number {
  return p * NAMES + nameId;
}
/** Seat p's city in `city`: cityLen[p] cards from here. */
export function cityBase(p: number): number {
  return p * CITY;
}
/** Seat p's count of one colour in `colourCount`. */
export function colourIndex(p: number, colour: number): number {
  return p * COLOURS + colour;
}
/** Seat p's counter of one science symbol (or SCIENCE_WILD) in `science`. */
export function scienceIndex(p: number, symbol: number): number {
  return p * SCIENCE + symbol;
}
/** Seat p's units of one resource in `fixed` and `tradeFixed`. */
export function resourceIndex(p: number, r: number): number {
  return p * RESOURCES + r;
}
/** Seat p's one-of productions in `choices` (choiceLen[p]) and `tradeChoices` (tradeChoiceLen[p]). */
export function choiceBase(p: number): number {
  return p * CHOICES;
}
/** The card tucked under seat p's stage `stage` (0-based) in `tucked`. */
export function tuckedIndex(p: number, stage: number): number {
  return p * STAGE_SLOTS + stage;
}
/**
 * Seat p's production packed into words of `packed`, kept by the rules beside the arrays it is
 * read from (placeCard, buildStage, productionChanged), so that the payment search and the
 * playouts read a city's production in one word instead of a loop:
 *   PACKED_OWN_FIXED, PACKED_TRADE_FIXED: `fixed` and `tradeFixed`, a resource in each 4-bit lane
 *     as packed costs have them (packResources), capped at 7 (no cost needs more);
 *   PACKED_OWN_CHOICES, PACKED_TRADE_CHOICES: how many of `choices` and `tradeChoices` have each
 *     one-of mask, 4 bits per mask at its CHOICE_MASK_INDEX.
 */
export const PACKED_OWN_FIXED = 0;
export const PACKED_TRADE_FIXED = 1;
export const PACKED_OWN_CHOICES = 2;
export const PACKED_TRADE_CHOICES = 3;
const PACKED_WORDS = 4;
/** Seat p's word `word` (one of the PACKED_* above) in `packed`. */
export function packedIndex(p: number, word: number): number {
  return p * PACKED_WORDS + word;
}

/**
 * The lanes of a packed word (4 bits each, eight at most) that are not zero, as a mask with bit i
 * for lane i: the resources a packed-units word has any of, the one-of masks a counts word has.
 */
export function nonZeroLanes(packed: number): number {
  let x = (packed | (packed >>> 1) | (packed >>> 2) | (packed >>> 3)) & 0x11111111;
  // Gather the lanes' low bits in three doubling steps: pairs, quads, the whole byte.
  x = (x | (x >>> 3)) & 0x03030303;
  x = (x | (x >>> 6)) & 0x000f000f;
  return (x | (x >>> 12)) & 0xff;
}

/** A log slot's place in the order of the whole game, the unit of `discardSeenUpTo`. */
export function logPosition(age: number, slot: number): number {
  return (age - 1) * SLOTS + slot;
}

/** All players choose at once. */
export const PHASE_TURN = 0;
/** Babylon B plays the seventh card of the Age. */
export const PHASE_SEVENTH = 1;
/** Halicarnassus builds a card from the discard pile. */
export const PHASE_DISCARD_BUILD = 2;
export const PHASE_OVER = 3;

/** Powers a city has gained from its wonder (bits of `powers`). */
export const POWER_FREE_BUILD = 1;
export const POWER_PLAY_SEVENTH = 2;
export const POWER_COPY_GUILD = 4;

/** What happened to a card taken from a hand (the `logKind` of a log slot). */
export const LOG_NONE = 0;
/** Built face up: everybody sees it. */
export const LOG_BUILT = 1;
/** Tucked under a wonder stage, face down. */
export const LOG_STAGE = 2;
/** Discarded face down (by choice, or as the last card of an Age). */
export const LOG_DISCARD = 3;
/** Discarded face down, later built from the discard pile by Halicarnassus (so now public). */
export const LOG_DISCARD_TAKEN = 4;

export const NO_CARD = 255;

let lastSourceStamp = 0;

/**
 * Marks that what seat p pays with has changed: its own one-of productions or discounts, or a
 * neighbour's tradable production (GameState.sourceStamps). placeCard and buildStage call it;
 * code that writes those arrays itself must too, or the payment search may read what it kept
 * from before.
 */
export function sourcesChanged(s: GameState, p: number): void {
  s.sourceStamps[p] = ++lastSourceStamp;
}

/**
 * After writing production directly (positions, tests): packs every seat's production again from
 * the arrays (GameState.packed) and marks every seat's sources changed.
 */
export function productionChanged(s: GameState): void {
  for (let p = 0; p < s.n; p++) {
    s.packed[packedIndex(p, PACKED_OWN_FIXED)] = packedUnits(s.fixed, p);
    s.packed[packedIndex(p, PACKED_TRADE_FIXED)] = packedUnits(s.tradeFixed, p);
    s.packed[packedIndex(p, PACKED_OWN_CHOICES)] = maskCounts(s.choices, s.choiceLen[p], p);
    s.packed[packedIndex(p, PACKED_TRADE_CHOICES)] = maskCounts(s.tradeChoices, s.tradeChoiceLen[p], p);
    sourcesChanged(s, p);
  }
}

/**
 * Seat p's units of each resource in `units` (resourceIndex), a 4-bit lane each, capped at 7: what
 * catalog.ts packResources does for a cost. Not that function given an offset: it reads the
 * catalogue's plain arrays, and sharing it with the state's typed arrays cost random games
 * 0.4–1.2 % (new games pack every seat; paired slices, twice).
 */
function packedUnits(units: Uint8Array, p: number): number {
  let packed = 0;
  for (let r = 0; r < RESOURCES; r++) packed |= Math.min(7, units[resourceIndex(p, r)]) << (4 * r);
  return packed;
}

/** Counts of seat p's one-of masks in `masks` (choiceBase, len of them), 4 bits per mask index. */
function maskCounts(masks: Uint8Array, len: number, p: number): number {
  let counts = 0;
  for (let i = 0; i < len; i++) counts = withOneMoreMask(counts, masks[choiceBase(p) + i]);
  return counts;
}

/** `counts` (4 bits per mask index) with one more of `mask`. */
export function withOneMoreMask(counts: number, mask: number): number {
  const shift = 4 * CHOICE_MASK_INDEX[mask];
  if (shift < 0) throw new Error(`one-of mask ${mask} is not in the catalogue`);
  if (((counts >>> shift) & 15) === 15) throw new Error(`more than 15 one-of productions of mask ${mask} in one city`);
  return (counts + (1 << shift)) | 0;
}

/** A packed-units word (PACKED_OWN_FIXED, PACKED_TRADE_FIXED) with resource r's lane set to `units`, capped at 7. */
export function withUnits(packed: number, r: number, units: number): number {
  return (packed & ~(15 << (4 * r))) | (Math.min(7, units) << (4 * r));
}

export class GameState {
  /** Number of players. */
  readonly n: number;
  /** 1, 2 or 3; stays 3 when the game is over. */
  age = 1;
  /** 1..6 within the Age. */
  turn = 1;
  phase = PHASE_TURN;
  /** The seat that plays its seventh card in PHASE_SEVENTH (Babylon B), else −1. */
  pendingSeventh = -1;
  rng: Rng;
  /**
   * Per seat, a name for what it can pay with from outside its own fixed production: its one-of
   * productions, its discounts and its neighbours' tradable production. A new number, drawn from
   * one counter for all states, at each change (sourcesChanged), and copied with the state, so
   * two states with the same stamp for a seat offer it the same sources, and the payment search
   * keeps what it read of them until the stamp changes (payment.ts). Most turns change few
   * seats' sources: a brown card renews its neighbours' stamps, not its owner's.
   */
  readonly sourceStamps: Float64Array;

  readonly board: Uint8Array;
  /** 0 = side A, 1 = side B. */
  readonly side: Uint8Array;
  readonly stages: Uint8Array;
  readonly coins: Int32Array;
  readonly shields: Int32Array;
  /** Each seat's production packed (packedIndex): a copy of what the arrays below say. */
  readonly packed: Int32Array;
  /** Conflict tokens (tokenIndex), 0 for a tie. */
  readonly tokens: Int8Array;
  /**
   * The hands, a run of HAND_SIZE each; seat p holds the one at handBase(s, p). The hands stay
   * where they were dealt, and passing them moves only the seats' handSlot (a run's index): a
   * turn's pass was every hand's bytes copied along, a few per cent of a random game.
   */
  readonly hands: Uint8Array;
  readonly handSlot: Uint8Array;
  readonly handLen: Uint8Array;
  /** 1 where seat p has a building of that name (ownsNameIndex). */
  readonly ownsName: Uint8Array;
  /** Card types in each city, in the order built (cityBase). */
  readonly city: Uint8Array;
  readonly cityLen: Uint8Array;
  /** Cards per colour in each city (colourIndex). */
  readonly colourCount: Uint8Array;
  /** Science symbols: compass, gear, tablet, wild (scienceIndex). */
  readonly science: Uint8Array;
  /** Own fixed production, and the part of it neighbours may buy (resourceIndex). */
  readonly fixed: Uint8Array;
  readonly tradeFixed: Uint8Array;
  /** One-of productions as resource masks, own and tradable (choiceBase). */
  readonly choices: Uint8Array;
  readonly choiceLen: Uint8Array;
  readonly tradeChoices: Uint8Array;
  readonly tradeChoiceLen: Uint8Array;
  /** DISCOUNT_* flags. */
  readonly discount: Uint8Array;
  /** Olympia A: the Age in which the free build was last used (0 = never). */
  readonly freeBuildAge: Uint8Array;
  readonly powers: Uint8Array;
  /** Halicarnassus builds from the discard pile owed at the end of this turn. */
  readonly pendingDiscardBuilds: Uint8Array;
  /** Cards tucked under each built stage (tuckedIndex). */
  readonly tucked: Uint8Array;
  /** The discard pile, as a count per card type. */
  readonly discard: Uint8Array;
  /**
   * What each seat took from the hand it held, per Age and log slot (six turns and the seventh
   * card), at logIndex(age, slot, seat). The seat-to-hand relation is fixed by the passing
   * direction, so this log is all that is needed to say which cards a player has seen where.
   */
  readonly logCard: Uint8Array;
  readonly logKind: Uint8Array;
  /**
   * How much of the discard pile each seat has looked through (Halicarnassus): every face-down
   * discard logged at a logPosition below this mark is known to it; 0 = none.
   */
  readonly discardSeenUpTo: Uint8Array;

  /**
   * Every array above is a view into these bytes, so a copy is a single copy. They are the state's
   * own region of a slab shared with other states (carve): never the whole of `bytes.buffer`.
   */
  readonly bytes: Uint8Array;

  constructor(n: number, rng: Rng, copyFrom?: GameState) {
    this.n = n;
    this.rng = rng;
    const src = copyFrom;
    const size = layoutSize(n);
    // A region of a shared slab, for a new game as for a copy: a buffer of its own was a fifth of
    // a new game's cost (an external allocation), and what a long-lived game keeps alive of the
    // brief copies beside it is its slab's SLAB_BYTES at most.
    const start = carve(size);
    const buf = slab;
    this.bytes = new Uint8Array(buf, start, size);
    if (src) this.bytes.set(src.bytes);
    // 32-bit arrays first, so that their offsets stay aligned (a region starts at a multiple of 8).
    let at = start;
    const i32 = (len: number) => {
      const v = new Int32Array(buf, at, len);
      at += len * 4;
      return v;
    };
    const u8 = (len: number) => {
      const v = new Uint8Array(buf, at, len);
      at += len;
      return v;
    };
    this.coins = i32(n);
    this.shields = i32(n);
    this.packed = i32(n * PACKED_WORDS);
    this.tokens = new Int8Array(buf, at, n * TOKENS_PER_SEAT);
    at += n * TOKENS_PER_SEAT;
    this.board = u8(n);
    this.side = u8(n);
    this.stages = u8(n);
    this.hands = u8(n * HAND_SIZE);
    this.handSlot = u8(n);
    this.handLen = u8(n);
    this.ownsName = u8(n * NUM_NAMES);
    this.city = u8(n * MAX_CITY);
    this.cityLen = u8(n);
    this.colourCount = u8(n * NUM_COLOURS);
    this.science = u8(n * SCIENCE_COUNTERS);
    this.fixed = u8(n * NUM_RESOURCES);
    this.tradeFixed = u8(n * NUM_RESOURCES);
    this.choices = u8(n * MAX_CHOICES);
    this.choiceLen = u8(n);
    this.tradeChoices = u8(n * MAX_CHOICES);
    this.tradeChoiceLen = u8(n);
    this.discount = u8(n);
    this.freeBuildAge = u8(n);
    this.powers = u8(n);
    this.pendingDiscardBuilds = u8(n);
    this.tucked = u8(n * MAX_STAGE_SLOTS);
    this.discard = u8(NUM_CARD_TYPES);
    this.logCard = u8(3 * LOG_SLOTS * n);
    this.logKind = u8(3 * LOG_SLOTS * n);
    this.discardSeenUpTo = u8(n);
    if (at !== start + size) throw new Error(`state layout is ${at - start} bytes, its region ${size}`);
    if (src) {
      this.age = src.age;
      this.turn = src.turn;
      this.phase = src.phase;
      this.pendingSeventh = src.pendingSeventh;
      this.sourceStamps = new Float64Array(src.sourceStamps);
    } else {
      this.logCard.fill(NO_CARD);
      for (let p = 0; p < n; p++) this.handSlot[p] = p;
      this.sourceStamps = new Float64Array(n);
      productionChanged(this);
    }
  }

  left(p: number): number {
    return p + 1 === this.n ? 0 : p + 1;
  }

  right(p: number): number {
    return p === 0 ? this.n - 1 : p - 1;
  }

  /** Index into logCard / logKind. */
  logIndex(age: number, slot: number, seat: number): number {
    return logPosition(age, slot) * this.n + seat;
  }

  /** The seat of an index into logCard / logKind. */
  seatOfLog(log: number): number {
    return log % this.n;
  }

  isOver(): boolean {
    return this.phase === PHASE_OVER;
  }
}

/**
 * States are carved out of shared slabs: a buffer of its own per state is an external allocation
 * the collector tracks, which cost a copy more than copying it. A slab is freed once no state in
 * it is left; a region is never handed out twice. SLAB_BYTES bounds what one state kept alive can
 * hold of others (a 3-player state is about 0.9 KB, a 7-player one about 2 KB).
 */
const SLAB_BYTES = 4096;
let slab = new ArrayBuffer(SLAB_BYTES);
let slabUsed = 0;

/** The start in `slab` of a fresh (zeroed) region of `size` bytes, at a multiple of 8. */
function carve(size: number): number {
  const rounded = (size + 7) & ~7;
  if (slabUsed + rounded > slab.byteLength) {
    slab = new ArrayBuffer(Math.max(SLAB_BYTES, rounded));
    slabUsed = 0;
  }
  const start = slabUsed;
  slabUsed += rounded;
  return start;
}

/** Bytes of the region behind a state for n players (see the constructor's layout). */
function layoutSize(n: number): number {
  const u8Len =
    n * TOKENS_PER_SEAT +
    n * (3 + HAND_SIZE + 2 + NUM_NAMES + MAX_CITY + 1 + NUM_COLOURS + SCIENCE_COUNTERS) +
    n * (2 * NUM_RESOURCES + MAX_CHOICES + 1 + MAX_CHOICES + 1) +
    n * (4 + MAX_STAGE_SLOTS + 1) + // discount … pendingDiscardBuilds, tucked, discardSeenUpTo
    NUM_CARD_TYPES +
    2 * 3 * LOG_SLOTS * n;
  return (2 + PACKED_WORDS) * n * 4 + u8Len;
}

/** Seat p's hand as a view into the state; the view is an allocation, so not for hot loops. */
export function handView(s: GameState, p: number): Uint8Array {
  return s.hands.subarray(handBase(s, p), handBase(s, p) + s.handLen[p]);
}

/** Seat p's city as a view into the state; the view is an allocation, so not for hot loops. */
export function cityView(s: GameState, p: number): Uint8Array {
  return s.city.subarray(cityBase(p), cityBase(p) + s.cityLen[p]);
}

/** A deep copy that shares nothing with the original (the RNG included). */
export function clone(state: GameState): GameState {
  return new GameState(state.n, state.rng.clone(), state);
}

/**
 * Makes `into` (a state of as many players) a copy of `from`, the RNG's state included, as
 * clone would, without allocating a state: a search reuses one world for all its iterations.
 */
export function copyState(into: GameState, from: GameState): GameState {
  if (into.n !== from.n) throw new Error(`copyState: ${from.n} players into a state of ${into.n}`);
  into.bytes.set(from.bytes);
  into.age = from.age;
  into.turn = from.turn;
  into.phase = from.phase;
  into.pendingSeventh = from.pendingSeventh;
  into.sourceStamps.set(from.sourceStamps);
  into.rng.s.set(from.rng.s);
  return into;
}

/** +1 when hands pass to the left neighbour (Ages I and III), −1 in Age II. */
export function passDirection(age: number): 1 | -1 {
  return age === 2 ? -1 : 1;
}

/**
 * The hand lineage held by `seat` at `turn` of an Age: lineages are named by the seat that held
 * them on the Age's first turn.
 */
export function lineageAt(n: number, age: number, turn: number, seat: number): number {
  return (((seat - (turn - 1) * passDirection(age)) % n) + n) % n;
}

/** The seat holding lineage `h` at `turn` of an Age. */
export function holderAt(n: number, age: number, turn: number, h: number): number {
  return (((h + (turn - 1) * passDirection(age)) % n) + n) % n;
}
