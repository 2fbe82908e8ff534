/**
 * The thread the play page's games run on: agents think here, off the coordinator's event loop.
 * It keeps the games it has played recently; a game it does not have (a restart, an eviction) is
 * rebuilt from the stored log the request carries, and a request whose log is behind the game's
 * (a second tab moved first) is refused rather than forking the game.
 */
import { serveRequests } from '../threads/thread-client.js';
import { PlayError, PlayTable } from './table.js';
import type { PlayReply, PlayRequest } from './messages.js';

/** Games kept in memory, least recently used dropped first (each is rebuilt from its log when asked for again). */
const KEEP = 200;
const tables = new Map<string, PlayTable>();

function table(request: Exclude<PlayRequest, { op: 'forget' }>): PlayTable {
  const { id, stored } = request;
  const have = tables.get(id);
  const storedMoves = stored.log?.moves.length ?? 0;
  if (have && have.log.moves.length > storedMoves) throw new PlayError('the game has moved on since this request was made: reload it', 'move');
  let t = have && have.log.moves.length === storedMoves ? have : undefined;
  if (!t) t = new PlayTable(stored.setup, stored.log);
  tables.delete(id);
  tables.set(id, t);
  while (tables.size > KEEP) {
    const oldest = tables.keys().next().value!;
    tables.get(oldest)?.release();
    tables.delete(oldest);
  }
  return t;
}

function handle(request: PlayRequest): PlayReply {
  if (request.op === 'forget') {
    tables.get(request.id)?.release();
    tables.delete(request.id);
    return {};
  }
  const t = table(request);
  switch (request.op) {
    case 'view':
      break;
    case 'move':
      t.play(request.move);
      break;
    case 'hint':
      return { hint: t.hint(request.agent) };
  }
  return { view: t.view(), log: t.log, over: t.over, ...(t.over ? { record: t.record() } : {}) };
}

serveRequests(handle);
