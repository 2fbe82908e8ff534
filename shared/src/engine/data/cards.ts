/**
 * Every Age I–III card of the 2010 edition, written from the rulebook's card list.
 *
 * Columns: age, name, colour, copies (the player counts at which each copy enters the deck:
 * [3, 5] is one copy at 3–4 players and two from 5), cost (resource letters W S C O G P L, plus
 * coins paid to the bank as a number), the names it chains from, effects, and other spellings.
 * Guilds have no copies column: each game draws players + 2 of them.
 */
import type { ColourName } from '../resources.js';
import {
  cardsOf,
  choice,
  coins,
  coinsPer,
  defeatsOf,
  discount,
  produce,
  science,
  shields,
  stagesOf,
  vp,
  vpPer,
  type Effect,
} from '../effects.js';

export interface CardData {
  age: 1 | 2 | 3;
  name: string;
  colour: ColourName;
  /** Player counts at which each copy enters the deck; empty for guilds. */
  copies: readonly number[];
  cost: string;
  coinCost: number;
  chainFrom: readonly string[];
  effects: readonly Effect[];
  aliases: readonly string[];
}

function card(
  age: 1 | 2 | 3,
  name: string,
  colour: ColourName,
  copies: readonly number[],
  cost: string | number,
  effects: Effect[],
  opts: { chainFrom?: string[]; aliases?: string[] } = {},
): CardData {
  return {
    age,
    name,
    colour,
    copies,
    cost: typeof cost === 'string' ? cost : '',
    coinCost: typeof cost === 'number' ? cost : 0,
    chainFrom: opts.chainFrom ?? [],
    effects,
    aliases: opts.aliases ?? [],
  };
}

/** Guild names are also written with an apostrophe ("Workers' Guild"); name lookup ignores it. */
const guild = (name: string, cost: string, effect: Effect, aliases: string[] = []) =>
  card(3, name, 'purple', [], cost, [effect], { aliases });

export const CARD_DATA: readonly CardData[] = [
  // ── Age I ────────────────────────────────────────────────────────────────
  card(1, 'Lumber Yard', 'brown', [3, 4], '', [produce('W')]),
  card(1, 'Stone Pit', 'brown', [3, 5], '', [produce('S')]),
  card(1, 'Clay Pool', 'brown', [3, 5], '', [produce('C')]),
  card(1, 'Ore Vein', 'brown', [3, 4], '', [produce('O')]),
  card(1, 'Tree Farm', 'brown', [6], 1, [choice('WC')]),
  card(1, 'Excavation', 'brown', [4], 1, [choice('SC')]),
  card(1, 'Clay Pit', 'brown', [3], 1, [choice('CO')]),
  card(1, 'Timber Yard', 'brown', [3], 1, [choice('WS')]),
  card(1, 'Forest Cave', 'brown', [5], 1, [choice('WO')]),
  card(1, 'Mine', 'brown', [6], 1, [choice('SO')]),
  card(1, 'Loom', 'grey', [3, 6], '', [produce('L')], { aliases: ['Textile', 'Cloth'] }),
  card(1, 'Glassworks', 'grey', [3, 6], '', [produce('G')]),
  card(1, 'Press', 'grey', [3, 6], '', [produce('P')]),
  card(1, 'Pawnshop', 'blue', [4, 7], '', [vp(3)]),
  card(1, 'Baths', 'blue', [3, 7], 'S', [vp(3)]),
  card(1, 'Altar', 'blue', [3, 5], '', [vp(2)]),
  card(1, 'Theater', 'blue', [3, 6], '', [vp(2)], { aliases: ['Theatre'] }),
  card(1, 'Tavern', 'yellow', [4, 5, 7], '', [coins(5)]),
  card(1, 'East Trading Post', 'yellow', [3, 7], '', [discount('WSCO', 'right')]),
  card(1, 'West Trading Post', 'yellow', [3, 7], '', [discount('WSCO', 'left')]),
  card(1, 'Marketplace', 'yellow', [3, 6], '', [discount('GPL', 'both')]),
  card(1, 'Stockade', 'red', [3, 7], 'W', [shields(1)]),
  card(1, 'Barracks', 'red', [3, 5], 'O', [shields(1)]),
  card(1, 'Guard Tower', 'red', [3, 4], 'C', [shields(1)]),
  card(1, 'Apothecary', 'green', [3, 5], 'L', [science('compass')]),
  card(1, 'Workshop', 'green', [3, 7], 'G', [science('gear')]),
  card(1, 'Scriptorium', 'green', [3, 4], 'P', [science('tablet')]),

  // ── Age II ───────────────────────────────────────────────────────────────
  card(2, 'Sawmill', 'brown', [3, 4], 1, [produce('WW')]),
  card(2, 'Quarry', 'brown', [3, 4], 1, [produce('SS')]),
  card(2, 'Brickyard', 'brown', [3, 4], 1, [produce('CC')]),
  card(2, 'Foundry', 'brown', [3, 4], 1, [produce('OO')]),
  card(2, 'Loom', 'grey', [3, 5], '', [produce('L')], { aliases: ['Textile', 'Cloth'] }),
  card(2, 'Glassworks', 'grey', [3, 5], '', [produce('G')]),
  card(2, 'Press', 'grey', [3, 5], '', [produce('P')]),
  card(2, 'Aqueduct', 'blue', [3, 7], 'SSS', [vp(5)], { chainFrom: ['Baths'] }),
  card(2, 'Temple', 'blue', [3, 6], 'WCG', [vp(3)], { chainFrom: ['Altar'] }),
  card(2, 'Statue', 'blue', [3, 7], 'WOO', [vp(4)], { chainFrom: ['Theater'] }),
  card(2, 'Courthouse', 'blue', [3, 5], 'CCL', [vp(4)], { chainFrom: ['Scriptorium'] }),
  card(2, 'Forum', 'yellow', [3, 6, 7], 'CC', [choice('GPL')], {
    chainFrom: ['East Trading Post', 'West Trading Post'],
  }),
  card(2, 'Caravansery', 'yellow', [3, 5, 6], 'WW', [choice('WSCO')], {
    chainFrom: ['Marketplace'],
    aliases: ['Caravanserai'],
  }),
  card(2, 'Vineyard', 'yellow', [3, 6], '', [coinsPer(1, cardsOf('all', 'brown'))]),
  card(2, 'Bazar', 'yellow', [4, 7], '', [coinsPer(2, cardsOf('all', 'grey'))], { aliases: ['Bazaar'] }),
  card(2, 'Walls', 'red', [3, 7], 'SSS', [shields(2)]),
  card(2, 'Training Ground', 'red', [4, 6, 7], 'WOO', [shields(2)]),
  card(2, 'Stables', 'red', [3, 5], 'WCO', [shields(2)], { chainFrom: ['Apothecary'] }),
  card(2, 'Archery Range', 'red', [3, 6], 'WWO', [shields(2)], { chainFrom: ['Workshop'] }),
  card(2, 'Dispensary', 'green', [3, 4], 'OOG', [science('compass')], { chainFrom: ['Apothecary'] }),
  card(2, 'Laboratory', 'green', [3, 5], 'CCP', [science('gear')], { chainFrom: ['Workshop'] }),
  card(2, 'Library', 'green', [3, 6], 'SSL', [science('tablet')], { chainFrom: ['Scriptorium'] }),
  card(2, 'School', 'green', [3, 7], 'WP', [science('tablet')]),

  // ── Age III ──────────────────────────────────────────────────────────────
  card(3, 'Pantheon', 'blue', [3, 6], 'CCOGPL', [vp(7)], { chainFrom: ['Temple'] }),
  card(3, 'Gardens', 'blue', [3, 4], 'WCC', [vp(5)], { chainFrom: ['Statue'] }),
  card(3, 'Town Hall', 'blue', [3, 5, 6], 'SSOG', [vp(6)]),
  card(3, 'Palace', 'blue', [3, 7], 'WSCOGPL', [vp(8)]),
  card(3, 'Senate', 'blue', [3, 5], 'WWSO', [vp(6)], { chainFrom: ['Library'] }),
  card(3, 'Haven', 'yellow', [3, 4], 'WOL', [coinsPer(1, cardsOf('self', 'brown')), vpPer(1, cardsOf('self', 'brown'))], {
    chainFrom: ['Forum'],
  }),
  card(3, 'Lighthouse', 'yellow', [3, 6], 'SG', [coinsPer(1, cardsOf('self', 'yellow')), vpPer(1, cardsOf('self', 'yellow'))], {
    chainFrom: ['Caravansery'],
  }),
  card(3, 'Chamber of Commerce', 'yellow', [4, 6], 'CCP', [coinsPer(2, cardsOf('self', 'grey')), vpPer(2, cardsOf('self', 'grey'))]),
  card(3, 'Arena', 'yellow', [3, 5, 7], 'SSO', [coinsPer(3, stagesOf('self')), vpPer(1, stagesOf('self'))], {
    chainFrom: ['Dispensary'],
  }),
  card(3, 'Fortifications', 'red', [3, 7], 'SOOO', [shields(3)], { chainFrom: ['Walls'], aliases: ['Fortification'] }),
  card(3, 'Circus', 'red', [4, 5, 6], 'SSSO', [shields(3)], { chainFrom: ['Training Ground'] }),
  card(3, 'Arsenal', 'red', [3, 4, 7], 'WWOL', [shields(3)]),
  card(3, 'Siege Workshop', 'red', [3, 5], 'WCCC', [shields(3)], { chainFrom: ['Laboratory'] }),
  card(3, 'Lodge', 'green', [3, 6], 'CCPL', [science('compass')], { chainFrom: ['Dispensary'] }),
  card(3, 'Observatory', 'green', [3, 7], 'OOGL', [science('gear')], { chainFrom: ['Laboratory'] }),
  card(3, 'University', 'green', [3, 4], 'WWGP', [science('tablet')], { chainFrom: ['Library'] }),
  card(3, 'Academy', 'green', [3, 7], 'SSSG', [science('compass')], { chainFrom: ['School'] }),
  card(3, 'Study', 'green', [3, 5], 'WPL', [science('gear')], { chainFrom: ['School'] }),

  // ── Guilds (Age III; players + 2 drawn each game) ────────────────────────
  guild('Workers Guild', 'WSCOO', vpPer(1, cardsOf('neighbours', 'brown'))),
  guild('Craftsmens Guild', 'SSOO', vpPer(2, cardsOf('neighbours', 'grey')), ['Craftsmen Guild']),
  guild('Traders Guild', 'GPL', vpPer(1, cardsOf('neighbours', 'yellow'))),
  guild('Philosophers Guild', 'CCCPL', vpPer(1, cardsOf('neighbours', 'green'))),
  guild('Spies Guild', 'CCCG', vpPer(1, cardsOf('neighbours', 'red'))),
  guild('Strategists Guild', 'SOOL', vpPer(1, defeatsOf('neighbours'))),
  guild('Shipowners Guild', 'WWWGP', vpPer(1, cardsOf('self', 'brown', 'grey', 'purple'))),
  guild('Scientists Guild', 'WWOOP', science('any')),
  guild('Magistrates Guild', 'WWWSL', vpPer(1, cardsOf('neighbours', 'blue'))),
  guild('Builders Guild', 'SSCCG', vpPer(1, stagesOf('all'))),
];
