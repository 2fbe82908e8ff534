/**
 * The play page's games, run on a thread of their own (thread.ts) so that agents thinking never
 * hold the coordinator's event loop. Each request carries the game as stored (its setup and move
 * log): the thread rebuilds a game it does not hold, so nothing depends on its memory.
 */
import { ThreadClient } from '../threads/thread-client.js';
import type { PlayReply, PlayRequest } from './messages.js';

export class PlayTables {
  private readonly thread = new ThreadClient<PlayRequest, PlayReply>(new URL('./thread.js', import.meta.url));

  call(request: PlayRequest): Promise<PlayReply> {
    return this.thread.call(request);
  }

  warm(): void {
    this.thread.warm();
  }

  close(): Promise<void> {
    return this.thread.close();
  }
}
