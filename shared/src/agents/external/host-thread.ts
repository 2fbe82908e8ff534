/**
 * The thread that starts and watches one outside agent's process for a game thread
 * (agent-process.ts). The game thread talks to the process itself, through two named pipes it
 * made: it writes requests to the agent's stdin and blocks reading its stdout, so a decision costs
 * two wake-ups and nothing in between. This thread starts the process on the pipes' other ends,
 * keeps the end of its stderr, and does what a blocked reader or writer cannot:
 * - at the deadline the game thread writes to `deadline` it kills the process;
 * - when the process ends (or cannot start) it writes an end marker into the stdout pipe — the
 *   process's own random 8 bytes, a 4-byte length and the JSON of what happened — which wakes the
 *   reader with the reason, and raises the EXITED flag, which a writer looks at first;
 * - once the process has ended it drains the stdin pipe, so that a write the game thread was
 *   blocked in (the pipe full, nobody reading) returns.
 */
import { spawn } from 'node:child_process';
import { close, closeSync, constants, openSync, read, rmSync, writeSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { EXITED, STARTED, type EndMarker, type HostData } from './host-data.js';

/** How often the deadline is looked at (ms): a hung agent is killed within this of its deadline. */
const WATCH_MS = 5;
/** The last stderr bytes kept to name a crash. */
const STDERR_TAIL = 2000;

const { command, cwd, env, dir, stdinPath, stdoutPath, marker, deadline, flags } = workerData as HostData;

let stderr = '';
let cause: EndMarker['cause'] = 'exit';
let closed = false;
let markerFd = -1;
let drainFd = -1;

/** Writes the end marker (once the reader is gone, nothing: the game thread has closed its end). */
function mark(end: EndMarker): void {
  Atomics.store(flags, EXITED, 1);
  if (closed || markerFd < 0) return;
  const body = Buffer.from(JSON.stringify(end), 'utf8');
  const head = Buffer.alloc(12);
  head.set(marker, 0);
  head.writeUInt32LE(body.length, 8);
  try {
    writeSync(markerFd, Buffer.concat([head, body]));
  } catch {
    // The reader has closed (EPIPE): no one is waiting for the marker.
  }
}

/** Reads the stdin pipe until its last writer (the game thread) closes it: a write blocked on a full pipe returns. */
function drain(): void {
  if (drainFd < 0) return;
  const buf = Buffer.allocUnsafe(1 << 16);
  const again = (): void =>
    read(drainFd, buf, 0, buf.length, null, (err, n) => {
      if (err || n === 0 || closed) return close(drainFd, () => (drainFd = -1));
      again();
    });
  again();
}

let child: ReturnType<typeof spawn> | undefined;
try {
  // The process's ends: its stdin to read (the game thread holds a writer), its stdout to write
  // (the game thread holds the reader); this thread's own writer of stdout for the marker and
  // reader of stdin for the drain. Each thread closes only what it opened (Node closes a thread's
  // descriptors when it ends).
  const stdinEnd = openSync(stdinPath, constants.O_RDONLY);
  const stdoutEnd = openSync(stdoutPath, constants.O_WRONLY);
  markerFd = openSync(stdoutPath, constants.O_WRONLY);
  drainFd = openSync(stdinPath, constants.O_RDONLY);
  try {
    child = spawn(command[0], command.slice(1), { cwd, env, stdio: [stdinEnd, stdoutEnd, 'pipe'] });
  } finally {
    closeSync(stdinEnd);
    closeSync(stdoutEnd);
  }
} catch (err) {
  mark({ cause: 'exit', message: `could not be started: ${(err as Error).message}` });
} finally {
  rmSync(dir, { recursive: true, force: true });
  Atomics.store(flags, STARTED, 1);
  Atomics.notify(flags, STARTED);
}

const watch = setInterval(() => {
  const d = deadline[0];
  if (child && d !== 0 && Date.now() > d && child.exitCode === null && child.signalCode === null) {
    cause = 'deadline';
    child.kill('SIGKILL');
  }
}, WATCH_MS);

if (child) {
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (d: string) => (stderr = (stderr + d).slice(-STDERR_TAIL)));
  child.on('error', (err) => {
    clearInterval(watch);
    mark({ cause: 'exit', message: `could not be started: ${err.message}` });
    drain();
  });
  child.on('exit', (code, sig) => {
    clearInterval(watch);
    const tail = stderr.trim().split('\n').slice(-3).join(' | ');
    mark({ cause, message: `${sig ? `was killed (${sig})` : `exited with code ${code}`}${tail ? `; its stderr ended: ${tail}` : ''}` });
    drain();
  });
} else {
  clearInterval(watch);
  drain();
}

parentPort!.on('message', () => {
  // The game thread has closed its ends: the process, if alive, goes; then so does this thread.
  if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  clearInterval(watch);
  closed = true;
  if (markerFd >= 0) closeSync(markerFd);
  markerFd = -1;
  parentPort!.close();
});
