/**
 * What a game thread (agent-process.ts) and the host thread of its agent process (host-thread.ts)
 * share: the host's start data, the flags both read, the game thread's one request, and the end
 * marker's content. Apart from the host thread's module, which runs as it is loaded.
 */
export interface HostData {
  command: string[];
  cwd: string;
  env: Record<string, string>;
  /** The named pipes (in a folder of their own, removed once open): the agent's stdin and stdout. */
  dir: string;
  stdinPath: string;
  stdoutPath: string;
  /** The end marker's first 8 bytes: random, this process's own (no agent's output can forge them). */
  marker: Uint8Array;
  /** The running decision's deadline (Date.now() ms), 0 when none. */
  deadline: Float64Array;
  /** [STARTED], [EXITED]: 1 once the process was started (or failed to be), once it has ended. */
  flags: Int32Array;
}

export const STARTED = 0;
export const EXITED = 1;

/** What the game thread posts: close everything (the thread is done with the process). */
export type HostRequest = { close: true };

/** What ended the process, as the end marker says it. */
export interface EndMarker {
  /** 'deadline': killed here at the decision's deadline; 'exit': it exited, or was killed otherwise, or never started. */
  cause: 'deadline' | 'exit';
  message: string;
}
