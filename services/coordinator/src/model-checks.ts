/**
 * The coordinator's model checks: the networks a sweep or a play-page game names, read and checked
 * off the event loop and kept. Loading a network means reading, hashing and parsing its whole file
 * (a 1.5 GB file held the event loop 17 s, so /healthz waited as long), and anyone may ask for it
 * (POST /api/sweeps/validate needs no token). So:
 * - a file is first found and checked from its real path and stat alone, on libuv's pool
 *   (model-files.ts): outside MODELS_DIR, missing, a directory, or over MAX_MODEL_BYTES is refused
 *   without reading a byte;
 * - the rest is read and loaded on a thread of its own (model-thread.ts), one file at a time;
 * - each answer, a failure as much as a network's hash and shape, is kept by the file's identity
 *   (real path, size, mtime, ctime, inode): asking again about an unchanged file costs a stat.
 * The checks themselves are the lab's (checkAgentModel, checkSweepSpec): this only finds the
 * networks they look up.
 */
import { ModelError, ThreadClient, agentModel, checkAgentModel, modelFileAsync, modelsDirs, type AgentSpec, type ModelFile, type ModelLookup, type NetworkShape } from '@wonderlab/shared';

/** What the thread is asked: a model name under `dirs` (MODELS_DIR's folders), and the size over which it is refused. */
export interface ModelRequest {
  name: string;
  maxBytes: number;
  dirs: string[];
}

/** The thread's answer: the network's hash and shape, or what is wrong with the file. */
export type ModelReply = { network: NetworkShape } | { error: string };

/** Answers kept: a lab's models are a few dozen files; each answer is a few hundred bytes. */
const KEPT = 1000;

export class ModelChecks {
  private readonly thread = new ThreadClient<ModelRequest, ModelReply>(new URL('./model-thread.js', import.meta.url));
  /** Answers by model name and file identity, oldest first. */
  private readonly answers = new Map<string, Promise<ModelReply>>();
  /** Files read on the thread so far: a check of a file unchanged since costs a stat, never another read. */
  loads = 0;

  /** `maxBytes`: MAX_MODEL_BYTES, the largest model file the lab reads. */
  constructor(private readonly maxBytes: number) {}

  /**
   * The networks of `names`, each found and checked (its reply kept): a lookup for checkSweepSpec,
   * checkAgentModel and sweepModels that answers at once, with the network's hash and shape or
   * the ModelError of the file.
   */
  async lookup(names: Iterable<string>): Promise<ModelLookup> {
    const dirs = modelsDirs();
    const replies = new Map<string, ModelReply>();
    await Promise.all(
      [...new Set(names)].map(async (name) => {
        try {
          replies.set(name, await this.reply(await modelFileAsync(name, this.maxBytes, dirs), dirs));
        } catch (err) {
          if (!(err instanceof ModelError)) throw err;
          replies.set(name, { error: err.message });
        }
      }),
    );
    return (name) => {
      const reply = replies.get(name);
      // A name the caller did not ask about is a bug of the caller, not a fault of a file.
      if (!reply) throw new Error(`model '${name}' was not looked up before its check`);
      if ('error' in reply) throw new ModelError(reply.error);
      return reply.network;
    };
  }

  /** What is wrong with the network `spec` reads for a game of `players` (checkAgentModel), or undefined. */
  async agentProblem(spec: AgentSpec, players: number): Promise<string | undefined> {
    const name = agentModel(spec);
    const models = await this.lookup(name === undefined ? [] : [name]);
    try {
      checkAgentModel(spec, players, models);
      return undefined;
    } catch (err) {
      if (err instanceof ModelError) return err.message;
      throw err;
    }
  }

  /** The thread's reply about a file, kept by its identity; a request that failed (the thread died) is not kept. */
  private reply(file: ModelFile, dirs: string[]): Promise<ModelReply> {
    const key = `${file.name}\n${file.identity}`;
    const kept = this.answers.get(key);
    if (kept) return kept;
    this.loads++;
    const reply = this.thread.call({ name: file.name, maxBytes: this.maxBytes, dirs });
    reply.catch(() => this.answers.get(key) === reply && this.answers.delete(key));
    this.answers.set(key, reply);
    if (this.answers.size > KEPT) this.answers.delete(this.answers.keys().next().value!);
    return reply;
  }

  close(): Promise<void> {
    return this.thread.close();
  }
}
