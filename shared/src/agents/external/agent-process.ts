/**
 * One outside agent's process as a game thread sees it: messages written to its stdin, and its
 * answer read from its stdout, synchronously, with a deadline (agents decide synchronously). The
 * pipes are named pipes the game thread opens itself, so that it can block on the read; a host
 * thread (host-thread.ts) starts the process on their other ends, kills it at a decision's
 * deadline and marks its end in the stdout pipe, which wakes the reader. A game thread keeps one
 * process per outside agent and parameters (agent.ts) and reuses it across its games; the process
 * starts at the first use and stops when its stdin closes (the protocol says an agent then
 * exits). A process that failed — crashed, hung past its deadline, spoke out of turn — is killed
 * and closed, so the next game starts a fresh one.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, constants, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { EXITED, STARTED, type EndMarker, type HostData, type HostRequest } from './host-data.js';
import type { InstalledAgent } from './manifest.js';
import { modelsDirs } from '../model-files.js';

/** An outside agent did something a game cannot go on from; its message names the agent and what it did. */
export class AgentFault extends Error {}

/** The lab's Python package, on every outside agent's PYTHONPATH (`python3 -m wonderlab.serve_agent` needs no install). */
const PYTHON_DIR = fileURLToPath(new URL(import.meta.url.endsWith('.ts') ? '../../../../python' : '../../../../../python', import.meta.url));

/** The host thread's module: beside this one, compiled (from the sources, as tests run them, the build's copy). */
const HOST_THREAD = new URL(import.meta.url.endsWith('.ts') ? '../../../dist/src/agents/external/host-thread.js' : './host-thread.js', import.meta.url);

/** The largest message an agent may send (a move with its statistics is far smaller): past it, its output is garbage. */
const MAX_MESSAGE = 1 << 20;
/** How long the host thread may take to start the process (or say it could not). */
const HOST_START_MS = 10_000;
/** The deadline of a write that takes no answer (a game's start or end): a full pipe nobody reads is given up then. */
const SEND_MS = 10_000;

/**
 * What an outside agent's process gets of the lab's environment: what a program needs to run
 * (its PATH, home, locale, temporary folder, a virtual environment) and the lab's Python package
 * and model folders — never the lab's own settings (REDIS_URL, API_TOKEN, …).
 */
const PASSED_ENV = ['PATH', 'HOME', 'USER', 'LANG', 'LC_ALL', 'LC_CTYPE', 'TZ', 'TMPDIR', 'VIRTUAL_ENV', 'PYTHONPATH', 'NODE_PATH', 'LD_LIBRARY_PATH'];

export class AgentProcess {
  private readonly host: Worker;
  private readonly deadline = new Float64Array(new SharedArrayBuffer(8));
  private readonly flags = new Int32Array(new SharedArrayBuffer(8));
  /** The end marker's first bytes, this process's own (host-thread.ts). */
  private readonly marker = randomBytes(8);
  private readonly toAgent: number;
  private readonly fromAgent: number;
  private buf = Buffer.alloc(1 << 16);
  private start = 0;
  private end = 0;
  /** Whether the handshake chose the binary framing (docs/agent-protocol.md#binary-framing). */
  framed = false;
  /** Why it is gone, once it is. */
  gone: string | undefined;

  constructor(
    readonly agent: InstalledAgent,
    readonly label: string,
  ) {
    const env: Record<string, string> = Object.fromEntries(PASSED_ENV.flatMap((k) => (process.env[k] !== undefined ? [[k, process.env[k]!]] : [])));
    env.PYTHONPATH = [PYTHON_DIR, env.PYTHONPATH].filter(Boolean).join(delimiter);
    // The lab's model folders, absolute (the agent runs in its own folder): a network it is given by name is found as policy(model=…) finds it.
    env.WONDERLAB_MODELS_DIR = modelsDirs().join(delimiter);
    const dir = mkdtempSync(join(tmpdir(), 'wonderlab-agent-'));
    const stdinPath = join(dir, 'stdin');
    const stdoutPath = join(dir, 'stdout');
    execFileSync('mkfifo', ['-m', '600', stdinPath, stdoutPath]);
    // Opened read-write, a named pipe's open does not wait for the other end (Linux). The agent's stdin
    // has this one writer, so closing it is the agent's end of input (also when this thread ends:
    // Node closes a thread's descriptors). Reads of stdout block until the agent or the host writes.
    this.toAgent = openSync(stdinPath, constants.O_RDWR);
    this.fromAgent = openSync(stdoutPath, constants.O_RDWR);
    const data: HostData = { command: agent.manifest.command, cwd: agent.dir, env, dir, stdinPath, stdoutPath, marker: this.marker, deadline: this.deadline, flags: this.flags };
    this.host = new Worker(HOST_THREAD, { workerData: data, stdout: false, stderr: false });
    // Neither the thread nor the process keeps the game thread alive; the host's own failure is told by its marker, or below.
    this.host.unref();
    this.host.on('error', () => {});
    if (Atomics.wait(this.flags, STARTED, 0, HOST_START_MS) === 'timed-out') {
      this.close(`could not be started: its host thread did not start within ${HOST_START_MS} ms`);
      rmSync(dir, { recursive: true, force: true });
    }
  }

  /** Whether its process has ended (the host has seen it go). */
  get exited(): boolean {
    return Atomics.load(this.flags, EXITED) === 1;
  }

  /** From now on both ways are frames. */
  useFrames(): void {
    this.framed = true;
  }

  /** Writes one message that takes no answer: a line, or a whole frame (length first); a full pipe is given up after SEND_MS. */
  send(message: string | Uint8Array, what = 'starting or ending a game'): void {
    const own = this.deadline[0] === 0;
    if (own) this.deadline[0] = Date.now() + SEND_MS;
    try {
      this.write(message, what);
    } finally {
      if (own) this.deadline[0] = 0;
    }
  }

  /**
   * The bytes written to its stdin. A process that has ended is told by its marker; one that does
   * not read is killed at the deadline, and the host then drains the pipe, so the write returns.
   */
  private write(message: string | Uint8Array, what: string): void {
    if (this.gone) throw new AgentFault(`${this.label} ${this.gone}`);
    if (this.exited) this.fail(what, this.readEnd());
    const bytes = typeof message === 'string' ? Buffer.from(message + '\n', 'utf8') : message;
    for (let at = 0; at < bytes.length; ) at += writeSync(this.toAgent, bytes, at, bytes.length - at);
  }

  /** Reads on until the host's end marker (the process has ended). */
  private readEnd(): EndMarker {
    for (;;) {
      const ended = this.takeEnd();
      if (ended) return ended;
      this.fill();
    }
  }

  private fail(what: string, ended: EndMarker, deadlineMs?: number): never {
    this.close(ended.cause === 'deadline' ? `did not answer within ${Math.round(deadlineMs ?? 0)} ms (while ${what}): killed` : `${ended.message} (while ${what})`);
    throw new AgentFault(`${this.label} ${this.gone}`);
  }

  /** Writes one message and waits up to `deadlineMs` for the next one it writes (a line, or a frame's payload). */
  ask(message: string | Uint8Array, deadlineMs: number, what: string): string | Uint8Array {
    // The deadline covers the write too: an agent that stops reading is killed at it.
    this.deadline[0] = Date.now() + deadlineMs;
    try {
      this.write(message, what);
      for (;;) {
        const got = this.framed ? this.takeFrame() : this.takeLine();
        if (got !== undefined) return got;
        const ended = this.takeEnd();
        if (ended) this.fail(what, ended, deadlineMs);
        if (this.end - this.start > MAX_MESSAGE) {
          this.kill(`printed more than ${MAX_MESSAGE} bytes without ending a message (while ${what}): killed`);
          throw new AgentFault(`${this.label} ${this.gone}`);
        }
        this.fill();
      }
    } finally {
      this.deadline[0] = 0;
    }
  }

  /** Kills the process (it did something the game cannot go on from) and closes its pipes. */
  kill(why: string): void {
    this.close(why);
  }

  /** Reads what the pipe has (blocking until something), after what is not yet taken. */
  private fill(): void {
    if (this.start > 0 && this.start === this.end) this.start = this.end = 0;
    if (this.end === this.buf.length) {
      const bigger = Buffer.alloc(this.end - this.start > this.buf.length / 2 ? this.buf.length * 2 : this.buf.length);
      this.buf.copy(bigger, 0, this.start, this.end);
      this.end -= this.start;
      this.start = 0;
      this.buf = bigger;
    }
    this.end += readSync(this.fromAgent, this.buf, this.end, this.buf.length - this.end, null);
  }

  private takeLine(): string | undefined {
    if (this.atMarker()) return undefined;
    const nl = this.buf.indexOf(10, this.start);
    if (nl < 0 || nl >= this.end) return undefined;
    const line = this.buf.toString('utf8', this.start, nl).replace(/\r$/, '');
    this.start = nl + 1;
    return line;
  }

  /** A frame's payload; or, where no frame can start (its length past any message's), the text there, which the caller reads as the garbage it is. */
  private takeFrame(): Uint8Array | string | undefined {
    if (this.end - this.start < 4) return undefined;
    if (this.atMarker()) return undefined;
    const n = this.buf.readUInt32LE(this.start);
    if (n > MAX_MESSAGE) {
      const text = this.buf.toString('latin1', this.start, Math.min(this.end, this.start + 120)).split('\n')[0];
      this.start = this.end;
      return text;
    }
    if (this.end - this.start < 4 + n) return undefined;
    const payload = new Uint8Array(this.buf.subarray(this.start + 4, this.start + 4 + n));
    this.start += 4 + n;
    return payload;
  }

  /** Whether what is not yet taken starts with the host's end marker (or could, when fewer bytes are there). */
  private atMarker(): boolean {
    const n = Math.min(this.end - this.start, this.marker.length);
    return n > 0 && this.buf.compare(this.marker, 0, n, this.start, this.start + n) === 0;
  }

  /** The host's end marker, once whole in what was read (whatever came before it is left unanswered). */
  private takeEnd(): EndMarker | undefined {
    const at = this.buf.indexOf(this.marker, this.start);
    if (at < 0 || at + 12 > this.end) return undefined;
    const n = this.buf.readUInt32LE(at + 8);
    if (at + 12 + n > this.end) return undefined;
    try {
      return JSON.parse(this.buf.toString('utf8', at + 12, at + 12 + n)) as EndMarker;
    } catch {
      return { cause: 'exit', message: 'ended' };
    }
  }

  /** Done with it: the process killed if alive, the pipes closed, the host thread gone. */
  private close(why: string): void {
    if (this.gone) return;
    this.gone = why;
    this.post({ close: true });
    closeSync(this.toAgent);
    closeSync(this.fromAgent);
  }

  private post(request: HostRequest): void {
    this.host.postMessage(request);
  }
}
