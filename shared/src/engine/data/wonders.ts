/**
 * The seven wonder boards of the 2010 edition, side A and side B, written from the rulebook.
 * Each board produces its starting resource every turn (neighbours may buy it); stages are built
 * in order, each costing resources only.
 */
import {
  choice,
  coins,
  discount,
  science,
  shields,
  vp,
  type Effect,
} from '../effects.js';

export interface StageData {
  cost: string;
  effects: readonly Effect[];
}

export interface BoardData {
  city: string;
  wonder: string;
  aliases: readonly string[];
  /** Resource letter the board produces. */
  resource: string;
  sides: { A: readonly StageData[]; B: readonly StageData[] };
}

const stage = (cost: string, ...effects: Effect[]): StageData => ({ cost, effects });
const FREE_BUILD: Effect = { kind: 'freeBuildPerAge' };
const PLAY_SEVENTH: Effect = { kind: 'playSeventh' };
const COPY_GUILD: Effect = { kind: 'copyGuild' };
const BUILD_FROM_DISCARD: Effect = { kind: 'buildFromDiscard' };

export const BOARD_DATA: readonly BoardData[] = [
  {
    city: 'Alexandria',
    wonder: 'The Lighthouse of Alexandria',
    aliases: [],
    resource: 'G',
    sides: {
      A: [stage('SS', vp(3)), stage('OO', choice('WSCO')), stage('GG', vp(7))],
      B: [stage('CC', choice('WSCO')), stage('WW', choice('GPL')), stage('SSS', vp(7))],
    },
  },
  {
    city: 'Babylon',
    wonder: 'The Hanging Gardens of Babylon',
    aliases: [],
    resource: 'C',
    sides: {
      A: [stage('CC', vp(3)), stage('WWW', science('any')), stage('CCCC', vp(7))],
      B: [stage('CL', vp(3)), stage('WWG', PLAY_SEVENTH), stage('CCCP', science('any'))],
    },
  },
  {
    city: 'Ephesos',
    wonder: 'The Temple of Artemis in Ephesos',
    aliases: ['Ephesus'],
    resource: 'P',
    sides: {
      A: [stage('SS', vp(3)), stage('WW', coins(9)), stage('PP', vp(7))],
      B: [stage('SS', coins(4), vp(2)), stage('WW', coins(4), vp(3)), stage('GPL', coins(4), vp(5))],
    },
  },
  {
    city: 'Gizah',
    wonder: 'The Pyramids of Gizah',
    aliases: ['Giza'],
    resource: 'S',
    sides: {
      A: [stage('SS', vp(3)), stage('WWW', vp(5)), stage('SSSS', vp(7))],
      B: [stage('WW', vp(3)), stage('SSS', vp(5)), stage('CCC', vp(5)), stage('SSSSP', vp(7))],
    },
  },
  {
    city: 'Halikarnassos',
    wonder: 'The Mausoleum of Halikarnassos',
    aliases: ['Halicarnassus', 'Halikarnassus'],
    resource: 'L',
    sides: {
      A: [stage('CC', vp(3)), stage('OOO', BUILD_FROM_DISCARD), stage('LL', vp(7))],
      B: [
        stage('OO', BUILD_FROM_DISCARD, vp(2)),
        stage('CCC', BUILD_FROM_DISCARD, vp(1)),
        stage('GPL', BUILD_FROM_DISCARD),
      ],
    },
  },
  {
    city: 'Olympia',
    wonder: 'The Statue of Zeus in Olympia',
    aliases: [],
    resource: 'W',
    sides: {
      A: [stage('WW', vp(3)), stage('SS', FREE_BUILD), stage('OO', vp(7))],
      B: [stage('WW', discount('WSCO', 'both')), stage('SS', vp(5)), stage('OOL', COPY_GUILD)],
    },
  },
  {
    city: 'Rhodos',
    wonder: 'The Colossus of Rhodos',
    aliases: ['Rhodes'],
    resource: 'O',
    sides: {
      A: [stage('WW', vp(3)), stage('CCC', shields(2)), stage('OOOO', vp(7))],
      B: [stage('SSS', shields(1), vp(3), coins(3)), stage('OOOO', shields(1), vp(4), coins(4))],
    },
  },
];
