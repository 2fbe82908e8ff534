/**
 * One outside agent's process as a game thread sees it: lines written, and an answer waited for
 * synchronously with a deadline (agents decide synchronously; the pipes are served by a host
 * thread, host-thread.ts). A game thread keeps one process per outside agent and parameters
 * (processFor) and reuses it across its games; the process starts at the first use and stops
 * with the thread (its stdin closes: the protocol says an agent then exits). A process that
 * failed — crashed, hung past its deadline, spoke out of turn — is killed and forgotten, so the
 * next game starts a fresh one.
 */
import { MessageChannel, Worker, receiveMessageOnPort, type MessagePort } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';
import { delimiter } from 'node:path';
import type { HostMessage, HostRequest } from './host-thread.js';
import type { InstalledAgent } from './manifest.js';
import { modelsDirs } from '../model-files.js';

/** An outside agent did something a game cannot go on from; its message names the agent and what it did. */
export class AgentFault extends Error {}

/** The lab's Python package, on every outside agent's PYTHONPATH (`python3 -m wonderlab.serve_agent` needs no install). */
const PYTHON_DIR = fileURLToPath(new URL(import.meta.url.endsWith('.ts') ? '../../../../python' : '../../../../../python', import.meta.url));

/** The host thread's module: beside this one, compiled (from the sources, as tests run them, the build's copy). */
const HOST_THREAD = new URL(import.meta.url.endsWith('.ts') ? '../../../dist/src/agents/external/host-thread.js' : './host-thread.js', import.meta.url);

export class AgentProcess {
  private readonly host: Worker;
  private readonly port: MessagePort;
  private readonly signal = new Int32Array(new SharedArrayBuffer(4));
  private seen = 0;
  /** Why it is gone, once it is. */
  gone: string | undefined;

  constructor(
    readonly agent: InstalledAgent,
    readonly label: string,
  ) {
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    const env: Record<string, string> = { ...(process.env as Record<string, string>) };
    env.PYTHONPATH = [PYTHON_DIR, env.PYTHONPATH].filter(Boolean).join(delimiter);
    // The lab's model folders, absolute (the agent runs in its own folder): a network it is given by name is found as policy(model=…) finds it.
    env.WONDERLAB_MODELS_DIR = modelsDirs().join(delimiter);
    this.host = new Worker(HOST_THREAD, {
      workerData: { command: agent.manifest.command, cwd: agent.dir, env, port: port2, signal: this.signal },
      transferList: [port2],
      stdout: false,
      stderr: false,
    });
    // Neither the thread nor the process keeps the game thread alive.
    this.host.unref();
  }

  /** Whether the handshake chose the binary framing (docs/agent-protocol.md#binary-framing). */
  framed = false;

  /** From now on both ways are frames. */
  useFrames(): void {
    this.framed = true;
    this.post({ binary: true });
  }

  private post(request: HostRequest): void {
    this.port.postMessage(request);
  }

  /** Writes one message that takes no answer: a line, or a frame (its payload; the length is put before it). */
  send(message: string | Uint8Array): void {
    if (this.gone) throw new AgentFault(`${this.label} ${this.gone}`);
    this.post({ write: typeof message === 'string' ? message + '\n' : message });
  }

  /** Writes one message and waits up to `deadlineMs` for the next one it writes (a line, or a frame's payload). */
  ask(message: string | Uint8Array, deadlineMs: number, what: string): string | Uint8Array {
    this.send(message);
    const until = performance.now() + deadlineMs;
    for (;;) {
      const got = receiveMessageOnPort(this.port)?.message as HostMessage | undefined;
      if (got) {
        this.seen++;
        if ('exit' in got) {
          this.gone = got.exit;
          throw new AgentFault(`${this.label} ${got.exit} (while ${what})`);
        }
        return 'line' in got ? got.line : got.frame;
      }
      const left = until - performance.now();
      if (left <= 0) {
        this.kill(`did not answer within ${Math.round(deadlineMs)} ms (while ${what}): killed`);
        throw new AgentFault(`${this.label} ${this.gone}`);
      }
      // Wait for the host's next raise of the counter past the messages already taken.
      Atomics.wait(this.signal, 0, this.seen, left);
    }
  }

  kill(why: string): void {
    if (!this.gone) this.gone = why;
    this.post({ kill: true });
    // The host goes once the process has: its exit arrives first.
    setTimeout(() => void this.host.terminate(), 1000).unref();
  }
}
