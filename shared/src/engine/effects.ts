/**
 * The effects a card or a wonder stage can have, as plain data. The rules read these; nothing in
 * the data tables is code.
 */
import type { ColourName } from './resources.js';

/** Whose cities a counting effect looks at. */
export type Boards = 'self' | 'neighbours' | 'all';

export type Counter =
  | { of: 'cards'; colours: readonly ColourName[]; boards: Boards }
  | { of: 'stages'; boards: Boards }
  | { of: 'defeats'; boards: Boards };

export type ScienceSymbol = 'compass' | 'gear' | 'tablet' | 'any';

export type Effect =
  /** Fixed production, e.g. "CC" for two clay every turn. */
  | { kind: 'produce'; resources: string }
  /** One unit of any one of these resources each turn, e.g. "WSCO". */
  | { kind: 'choice'; options: string }
  | { kind: 'vp'; amount: number }
  | { kind: 'shields'; amount: number }
  | { kind: 'science'; symbol: ScienceSymbol }
  /** Coins from the bank, once, when built. */
  | { kind: 'coins'; amount: number }
  /** Buying these resources from the given neighbour(s) costs 1 coin a unit instead of 2. */
  | { kind: 'discount'; resources: string; sides: 'left' | 'right' | 'both' }
  /** Coins from the bank, once, when built: amount × count. */
  | { kind: 'coinsPer'; amount: number; per: Counter }
  /** Victory points at game end: amount × count. */
  | { kind: 'vpPer'; amount: number; per: Counter }
  /** Olympia A: once per Age, build a structure for free. */
  | { kind: 'freeBuildPerAge' }
  /** Babylon B: the seventh card of each Age may be played instead of discarded. */
  | { kind: 'playSeventh' }
  /** Olympia B: at game end, copy one guild of a neighbour. */
  | { kind: 'copyGuild' }
  /** Halicarnassus: at the end of this turn, build one discarded card for free. */
  | { kind: 'buildFromDiscard' };

export const produce = (resources: string): Effect => ({ kind: 'produce', resources });
export const choice = (options: string): Effect => ({ kind: 'choice', options });
export const vp = (amount: number): Effect => ({ kind: 'vp', amount });
export const shields = (amount: number): Effect => ({ kind: 'shields', amount });
export const science = (symbol: ScienceSymbol): Effect => ({ kind: 'science', symbol });
export const coins = (amount: number): Effect => ({ kind: 'coins', amount });
export const discount = (resources: string, sides: 'left' | 'right' | 'both'): Effect => ({
  kind: 'discount',
  resources,
  sides,
});
export const cardsOf = (boards: Boards, ...colours: ColourName[]): Counter => ({ of: 'cards', colours, boards });
export const stagesOf = (boards: Boards): Counter => ({ of: 'stages', boards });
export const defeatsOf = (boards: Boards): Counter => ({ of: 'defeats', boards });
export const coinsPer = (amount: number, per: Counter): Effect => ({ kind: 'coinsPer', amount, per });
export const vpPer = (amount: number, per: Counter): Effect => ({ kind: 'vpPer', amount, per });
