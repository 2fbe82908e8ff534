/** What the coordinator and the play thread (thread.ts) send each other. */
import type { GameRecord, MoveLog } from '../../engine/index.js';
import type { GameSummary } from '../game/game.js';
import type { HintResult, PlaySetup, PublicStep } from './table.js';
import type { PlayView } from './view.js';

export interface StoredGame {
  setup: PlaySetup;
  /** The moves so far (absent before the first step). */
  log?: MoveLog;
}

/** A request about game `id`; `forget` drops the thread's copy (its store could not be written), the others carry the stored game. */
export type PlayRequest = { id: string; op: 'forget' } | ({ id: string; stored: StoredGame } & ({ op: 'view' } | { op: 'move'; move: unknown } | { op: 'hint'; agent: string }));

export type FullView = PlayView & { log: PublicStep[]; result?: GameSummary; version: number };

export interface PlayReply {
  view?: FullView;
  /** The game's log after the request, to store. */
  log?: MoveLog;
  over?: boolean;
  /** The finished game's record. */
  record?: GameRecord;
  hint?: HintResult;
}
