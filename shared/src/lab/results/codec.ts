/**
 * How results and records are stored, in forms a million-game sweep's Redis can hold and a game
 * thread can write without zlib:
 * - a summary as positional JSON with cards and boards as catalogue ids (packSummary): about 0.5 KB
 *   at 3 players, smaller than the same summary as deflated JSON (0.75 KB) at a tenth of the cost;
 * - a record as its game's move log (packLog): about a fifth of the deflated JSON record, and a
 *   hundredth of its cost to write; reading it replays the game.
 * Both start with STORED_MAGIC and a form byte; what was stored before them (deflated JSON) still
 * reads. Its own module so that the bench measures the stored sizes with the store's own code.
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { BOARDS, CARDS, recordFromLog, type GameRecord, type LoggedSearch, type MoveLog, type ScoreBreakdown } from '../../engine/index.js';
import { gameIncrements, pairedShare, type GamePlacement, type PairedShare } from './increments.js';
import type { GameSummary, PlayerSummary } from '../game/game.js';

/**
 * A game made ready for the store on its thread: the summary (without its record) and the record
 * packed as the store keeps them (this module), and the aggregate increments and paired-group
 * share it adds.
 */
export interface PackedGame {
  summary: Uint8Array;
  record?: Uint8Array;
  increments: Map<string, number>;
  share?: PairedShare;
}

export function pack(value: unknown): Buffer {
  return deflateRawSync(JSON.stringify(value));
}

export function unpack(blob: Buffer): unknown {
  return JSON.parse(inflateRawSync(blob).toString('utf8'));
}

/**
 * First byte of a packed log or summary. Read as the start of a raw deflate stream it would
 * announce block type 3, which does not exist, so neither is ever mistaken for the deflated JSON
 * stored before them.
 */
const STORED_MAGIC = 0x57;
/**
 * The second byte: which form, in which version. Card and board ids are the catalogue's: a change
 * of its order needs new form numbers (the stored fixtures in the tests fail until then).
 */
const FORM_LOG = 1;
const FORM_SUMMARY = 2;

function formOf(blob: Uint8Array): number | undefined {
  return blob.length >= 2 && blob[0] === STORED_MAGIC ? blob[1] : undefined;
}

/**
 * A move log as bytes: magic, format, the config's JSON, the move codes as unsigned varints, and
 * the searches (when any) as deflated JSON to the end. Logs of cheap games are a few hundred bytes
 * and skip zlib altogether.
 */
export function packLog(log: MoveLog): Buffer {
  const config = Buffer.from(JSON.stringify(log.config));
  const searches = log.searches.length > 0 ? pack(log.searches) : undefined;
  const out = Buffer.allocUnsafe(2 + 5 + config.length + 5 + 4 * log.moves.length + (searches?.length ?? 0));
  let at = 0;
  const varint = (value: number) => {
    let v = value >>> 0;
    while (v >= 0x80) {
      out[at++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    out[at++] = v;
  };
  out[at++] = STORED_MAGIC;
  out[at++] = FORM_LOG;
  varint(config.length);
  at += config.copy(out, at);
  varint(log.moves.length);
  for (const m of log.moves) varint(m);
  if (searches) at += searches.copy(out, at);
  return out.subarray(0, at);
}

/** Whether blob is one of this module's packed forms (a log or a summary), not deflated JSON. */
export function isPackedForm(blob: Uint8Array): boolean {
  return formOf(blob) !== undefined;
}

export function unpackLog(blob: Buffer): MoveLog {
  const form = formOf(blob);
  if (form === undefined) throw new Error('not a packed move log');
  if (form !== FORM_LOG) throw new Error(`move log format ${form} is not known (this build reads ${FORM_LOG})`);
  let at = 2;
  const varint = () => {
    let v = 0;
    for (let shift = 0; ; shift += 7) {
      if (at >= blob.length || shift > 28) throw new Error('move log: truncated or malformed number');
      const b = blob[at++];
      v += (b & 0x7f) * 2 ** shift;
      if (b < 0x80) return v;
    }
  };
  const configLength = varint();
  const config = JSON.parse(blob.toString('utf8', at, at + configLength)) as MoveLog['config'];
  at += configLength;
  const count = varint();
  const moves = new Array<number>(count);
  for (let i = 0; i < count; i++) moves[i] = varint();
  const searches = at < blob.length ? (unpack(blob.subarray(at)) as LoggedSearch[]) : [];
  return { config, moves, searches };
}

/** A stored record: a packed log replayed, or (stored before logs were) deflated JSON. */
export function unpackRecord(blob: Buffer): GameRecord {
  return isPackedForm(blob) ? recordFromLog(unpackLog(blob)) : (unpack(blob) as GameRecord);
}

const DECIDED_BY: readonly GameSummary['decidedBy'][] = ['vp', 'coins', 'shared'];
const CARD_ID = new Map<string, number>();
for (const [id, card] of CARDS.entries()) if (!CARD_ID.has(card.name)) CARD_ID.set(card.name, id);
const BOARD_ID = new Map(BOARDS.map((b, id) => [b.wonder, id]));

function idOf(ids: Map<string, number>, name: string, what: string): number {
  const id = ids.get(name);
  if (id === undefined) throw new Error(`summary: no ${what} named '${name}' in the catalogue`);
  return id;
}

const scoreRow = (x: ScoreBreakdown) => [x.military, x.treasury, x.wonder, x.civilian, x.commercial, x.guilds, x.science, x.total];
const playerRow = (p: PlayerSummary) => [
  p.seat,
  p.agent,
  p.canonical === p.agent ? 0 : p.canonical,
  idOf(BOARD_ID, p.wonder, 'wonder'),
  p.side,
  scoreRow(p.score),
  p.coins,
  p.stages,
  p.built.map((name) => idOf(CARD_ID, name, 'card')),
  p.winner ? 1 : 0,
  p.rank,
  p.decisions,
  p.decisionMs,
  p.iterations,
  p.cutShort,
];

/** A summary (without its log) as stored: positional JSON, cards and boards by catalogue id. */
export function packSummary(g: Omit<GameSummary, 'log'>): Buffer {
  // A game where an outside agent forfeited carries its forfeits as an eleventh field (the others have ten).
  const row = [g.id, g.index, g.seed, g.set, g.deal, g.seating, g.open ? 1 : 0, DECIDED_BY.indexOf(g.decidedBy), g.winners, g.players.map(playerRow), ...(g.forfeits ? [g.forfeits] : [])];
  const json = JSON.stringify(row);
  const out = Buffer.allocUnsafe(2 + Buffer.byteLength(json));
  out[0] = STORED_MAGIC;
  out[1] = FORM_SUMMARY;
  out.write(json, 2);
  return out;
}

type StoredPlayer = [number, string, string | 0, number, PlayerSummary['side'], number[], number, number, number[], number, number, number, number, number, number];

function playerFrom(row: StoredPlayer): PlayerSummary {
  const [seat, agent, canonical, board, side, score, coins, stages, built, winner, rank, decisions, decisionMs, iterations, cutShort] = row;
  const [military, treasury, wonder, civilian, commercial, guilds, science, total] = score;
  return {
    seat,
    agent,
    canonical: canonical === 0 ? agent : canonical,
    wonder: BOARDS[board].wonder,
    city: BOARDS[board].city,
    side,
    score: { military, treasury, wonder, civilian, commercial, guilds, science, total },
    coins,
    stages,
    built: built.map((id) => CARDS[id].name),
    winner: winner === 1,
    rank,
    decisions,
    decisionMs,
    iterations,
    cutShort,
  };
}

/** A stored summary: packSummary's form, or (stored before it) deflated JSON. */
export function unpackSummary(blob: Buffer): GameSummary {
  const form = formOf(blob);
  if (form === undefined) return unpack(blob) as GameSummary;
  if (form !== FORM_SUMMARY) throw new Error(`summary format ${form} is not known (this build reads ${FORM_SUMMARY})`);
  const row = JSON.parse(blob.toString('utf8', 2));
  if (!Array.isArray(row) || (row.length !== 10 && row.length !== 11) || !Array.isArray(row[9])) throw new Error('summary: malformed stored row');
  const [id, index, seed, set, deal, seating, open, decidedBy, winners, players, forfeits] = row;
  return { id, index, seed, set, deal, seating, players: (players as StoredPlayer[]).map(playerFrom), winners, decidedBy: DECIDED_BY[decidedBy], open: open === 1, ...(forfeits ? { forfeits } : {}) };
}

/** A game made ready for the store: its summary and log packed, its aggregate increments and paired share counted. */
export function packGame(summary: GameSummary, placement: GamePlacement): PackedGame {
  const { log, ...rest } = summary;
  const share = pairedShare(summary, placement);
  return { summary: packSummary(rest), ...(log ? { record: packLog(log) } : {}), increments: gameIncrements(summary, placement), ...(share ? { share } : {}) };
}
