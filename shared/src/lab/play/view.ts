/**
 * What a person playing one seat sees, as plain data for the play page: their hand with every
 * legal use of each card and its payments, every city as the rules show it, the neighbours' trade
 * prices, the Age and pick, and the public log. Built from the state by the engine's own functions
 * (legal moves, scores): the page never re-implements a rule. Nothing hidden from that seat is in
 * it: other hands only as their sizes, other seats' stage and discard cards face down.
 */
import {
  ACTION_BUILD,
  ACTION_BUILD_DISCARDED,
  ACTION_DISCARD,
  ACTION_FREE_BUILD,
  ACTION_NAMES,
  ACTION_STAGE,
  BOARDS,
  CARDS,
  COLOUR_NAMES,
  DISCOUNT_MANUFACTURED,
  DISCOUNT_RAW_LEFT,
  DISCOUNT_RAW_RIGHT,
  NUM_RESOURCES,
  PHASE_NAMES,
  RESOURCE_LETTERS,
  cityView,
  choiceBase,
  hasChain,
  legalMoves,
  moveAction,
  moveCard,
  movePayLeft,
  movePayRight,
  resourceIndex,
  scoreSeat,
  seatActs,
  tokenBase,
  type Effect,
  type GameState,
  type ScoreBreakdown,
} from '../../engine/index.js';

export interface CardInfo {
  name: string;
  age: number;
  colour: (typeof COLOUR_NAMES)[number];
  /** Resources as letters (W wood, S stone, C clay, O ore, G glass, P papyrus, L loom), then coins: `WW + 1 coin`, or `free`. */
  cost: string;
  /** What it does, in a few words. */
  text: string;
}

export interface MoveOption {
  /** The move's code, as POST /api/play/:id/move takes it. */
  move: number;
  action: (typeof ACTION_NAMES)[number];
  payLeft: number;
  payRight: number;
  /** Built free by a chain from a building of the seat's city. */
  chain: boolean;
  /** A few words for a button: `Build — 2 coins to the left`. */
  label: string;
}

export interface HandCard extends CardInfo {
  card: number;
  /** Every legal use of this card, each payment an option of its own. */
  moves: MoveOption[];
}

export interface CityView {
  seat: number;
  /** The agent spec, or `human`. */
  agent: string;
  you: boolean;
  city: string;
  wonder: string;
  side: 'A' | 'B';
  stages: number;
  stagesTotal: number;
  coins: number;
  shields: number;
  /** Conflict tokens, in the order won (+1/+3/+5, −1). */
  military: number[];
  built: { name: string; colour: string }[];
  /** Fixed production as letters, and each one-of production as `W/S`. */
  produces: string;
  handSize: number;
  /** The score as the city stands now. */
  score: ScoreBreakdown;
}

export interface TradeView {
  seat: number;
  /** Coins per unit of raw (W S C O) and manufactured (G P L) goods bought from this neighbour. */
  raw: number;
  manufactured: number;
  /** What it sells: its fixed production and one-of cards (as letters). */
  sells: string;
}

export interface PlayView {
  players: number;
  /** The person's seat. */
  seat: number;
  age: number;
  turn: number;
  phase: (typeof PHASE_NAMES)[number];
  over: boolean;
  /** Whether the game waits for this seat's move. */
  yourMove: boolean;
  /** The cards this seat chooses from now (its hand, or the discard pile when it builds from it), with their moves. */
  hand: HandCard[];
  cities: CityView[];
  trade: { left: TradeView; right: TradeView };
  discardSize: number;
}

const letters = (v: readonly number[]) => v.map((count, r) => RESOURCE_LETTERS[r].repeat(count)).join('');

function effectText(e: Effect): string {
  switch (e.kind) {
    case 'produce':
      return `produces ${e.resources}`;
    case 'choice':
      return `produces one of ${e.options.split('').join('/')}`;
    case 'vp':
      return `${e.amount} VP`;
    case 'shields':
      return `${e.amount} shield${e.amount === 1 ? '' : 's'}`;
    case 'science':
      return e.symbol === 'any' ? 'any science symbol' : e.symbol;
    case 'coins':
      return `${e.amount} coins`;
    case 'discount':
      return `buys ${e.resources} for 1 from ${e.sides === 'both' ? 'both neighbours' : `the ${e.sides}`}`;
    default:
      return describeCounting(e);
  }
}

/** The counting effects (coins or VP per card, stage or defeat), in words. */
function describeCounting(e: Effect): string {
  const o = e as { kind: string; amount?: number; per?: { of: string; colours?: readonly string[]; boards: string } };
  if (!o.per) return o.kind;
  const what = o.per.of === 'cards' ? `${o.per.colours!.join('/')} card` : o.per.of === 'stages' ? 'wonder stage' : 'defeat';
  const where = { self: 'yours', neighbours: "your neighbours'", all: 'all' }[o.per.boards] ?? o.per.boards;
  return `${o.amount} ${o.kind === 'coinsPer' ? 'coins' : 'VP'} per ${what} (${where})`;
}

export function cardInfo(c: number): CardInfo {
  const card = CARDS[c];
  const cost = [letters(card.cost), card.coinCost ? `${card.coinCost} coin${card.coinCost === 1 ? '' : 's'}` : ''].filter(Boolean).join(' + ');
  const chains = CARDS.filter((other) => other.chainFrom.includes(card.nameId)).map((other) => other.name);
  const text = [...card.effects.map(effectText), ...(chains.length ? [`chains to ${[...new Set(chains)].join(', ')}`] : [])].join('; ');
  return { name: card.name, age: card.age, colour: COLOUR_NAMES[card.colour], cost: cost || 'free', text };
}

function payText(left: number, right: number): string {
  const parts = [left ? `${left} to the left` : '', right ? `${right} to the right` : ''].filter(Boolean);
  return parts.length ? ` — ${parts.join(', ')}` : '';
}

function option(s: GameState, seat: number, m: number): MoveOption {
  const a = moveAction(m);
  const c = moveCard(m);
  const left = movePayLeft(m);
  const right = movePayRight(m);
  const chain = a === ACTION_BUILD && CARDS[c].costUnits + CARDS[c].coinCost > 0 && left + right === 0 && hasChain(s, seat, c);
  const label =
    a === ACTION_DISCARD
      ? 'Discard for 3 coins'
      : a === ACTION_STAGE
        ? `Build wonder stage ${s.stages[seat] + 1}${payText(left, right)}`
        : a === ACTION_FREE_BUILD
          ? 'Build free (wonder power)'
          : a === ACTION_BUILD_DISCARDED
            ? 'Build from the discard pile, free'
            : `Build${chain ? ' free (chain)' : ''}${payText(left, right)}`;
  return { move: m, action: ACTION_NAMES[a], payLeft: left, payRight: right, chain, label };
}

/** Seat q's production: fixed as letters, then each one-of as `W/S`. */
function production(s: GameState, q: number, tradable: boolean): string {
  const fixed = tradable ? s.tradeFixed : s.fixed;
  const own: number[] = [];
  for (let r = 0; r < NUM_RESOURCES; r++) own.push(fixed[resourceIndex(q, r)]);
  const choices = tradable ? s.tradeChoices : s.choices;
  const count = tradable ? s.tradeChoiceLen[q] : s.choiceLen[q];
  const oneOf: string[] = [];
  for (let i = 0; i < count; i++) {
    const mask = choices[choiceBase(q) + i];
    oneOf.push([...RESOURCE_LETTERS].filter((_, r) => mask & (1 << r)).join('/'));
  }
  return [letters(own), ...oneOf].filter(Boolean).join(' ');
}

function trade(s: GameState, seat: number, other: number, side: 'left' | 'right'): TradeView {
  const d = s.discount[seat];
  const rawFlag = side === 'left' ? DISCOUNT_RAW_LEFT : DISCOUNT_RAW_RIGHT;
  return { seat: other, raw: d & rawFlag ? 1 : 2, manufactured: d & DISCOUNT_MANUFACTURED ? 1 : 2, sells: production(s, other, true) };
}

export function playView(s: GameState, seat: number, agents: readonly string[]): PlayView {
  const yourMove = !s.isOver() && seatActs(s, seat);
  const hand: HandCard[] = [];
  if (yourMove) {
    const byCard = new Map<number, HandCard>();
    for (const m of legalMoves(s, seat, 'all', [])) {
      const c = moveCard(m);
      let entry = byCard.get(c);
      if (!entry) byCard.set(c, (entry = { card: c, ...cardInfo(c), moves: [] }));
      entry.moves.push(option(s, seat, m));
    }
    hand.push(...byCard.values());
  }
  const cities: CityView[] = [];
  for (let q = 0; q < s.n; q++) {
    const board = BOARDS[s.board[q]];
    const military: number[] = [];
    for (let i = tokenBase(q), end = tokenBase(q + 1); i < end; i++) if (s.tokens[i] !== 0) military.push(s.tokens[i]);
    cities.push({
      seat: q,
      agent: agents[q],
      you: q === seat,
      city: board.city,
      wonder: board.wonder,
      side: s.side[q] === 0 ? 'A' : 'B',
      stages: s.stages[q],
      stagesTotal: board.sides[s.side[q]].length,
      coins: s.coins[q],
      shields: s.shields[q],
      military,
      built: Array.from(cityView(s, q), (c) => ({ name: CARDS[c].name, colour: COLOUR_NAMES[CARDS[c].colour] })),
      produces: production(s, q, false),
      handSize: s.handLen[q],
      score: scoreSeat(s, q),
    });
  }
  return {
    players: s.n,
    seat,
    age: s.age,
    turn: s.turn,
    phase: PHASE_NAMES[s.phase],
    over: s.isOver(),
    yourMove,
    hand,
    cities,
    trade: { left: trade(s, seat, s.left(seat), 'left'), right: trade(s, seat, s.right(seat), 'right') },
    discardSize: s.discard.reduce((a, b) => a + b, 0),
  };
}
