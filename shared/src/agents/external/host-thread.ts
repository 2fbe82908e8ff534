/**
 * The thread that starts and watches one outside agent's process for a game thread
 * (agent-process.ts). The game thread talks to the process itself, through two named pipes it
 * made: it writes requests to the agent's stdin and blocks reading its stdout, so a decision costs
 * two wake-ups and nothing in between. This thread starts the process on the pipes' other ends,
 * keeps the end of its stderr, and does what a blocked reader cannot: at the decision's deadline
 * (the game thread writes it to `deadline`) it kills the process, and when the process ends it
 * writes an end marker into the stdout pipe — four 0xFF bytes, a 4-byte length and the JSON of
 * what happened — which wakes the reader with the reason.
 */
import { spawn } from 'node:child_process';
import { closeSync, constants, openSync, rmSync, writeSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';

export interface HostData {
  command: string[];
  cwd: string;
  env: Record<string, string>;
  /** The named pipes (in a folder of their own, removed once open): the agent's stdin and stdout. */
  dir: string;
  stdinPath: string;
  stdoutPath: string;
  /** [0]: the running decision's deadline (Date.now() ms), 0 when none. */
  deadline: Float64Array;
}

/** What the game thread posts: kill the process (it spoke out of turn), or close everything (the thread is done with it). */
export type HostRequest = { kill: string } | { close: true };

/** What ended the process, as the end marker says it. */
export interface EndMarker {
  /** 'deadline': killed here at the decision's deadline; 'exit': it exited or was killed otherwise. */
  cause: 'deadline' | 'exit';
  message: string;
}

/** How often the deadline is looked at (ms): a hung agent is killed within this of its deadline. */
const WATCH_MS = 5;
/** The last stderr bytes kept to name a crash. */
const STDERR_TAIL = 2000;

const { command, cwd, env, dir, stdinPath, stdoutPath, deadline } = workerData as HostData;

let stderr = '';
let cause: EndMarker['cause'] = 'exit';
let closed = false;
// The process's ends: its stdin to read (the game thread holds a writer), its stdout to write (the
// game thread holds the reader), and this thread's own writer of stdout, for the end marker. Each
// thread closes only what it opened (Node closes a thread's descriptors when it ends).
const stdinEnd = openSync(stdinPath, constants.O_RDONLY);
const stdoutEnd = openSync(stdoutPath, constants.O_WRONLY);
const markerFd = openSync(stdoutPath, constants.O_WRONLY);
const child = spawn(command[0], command.slice(1), { cwd, env, stdio: [stdinEnd, stdoutEnd, 'pipe'] });
closeSync(stdinEnd);
closeSync(stdoutEnd);
rmSync(dir, { recursive: true, force: true });
child.stderr!.setEncoding('utf8');
child.stderr!.on('data', (d: string) => (stderr = (stderr + d).slice(-STDERR_TAIL)));

function mark(end: EndMarker): void {
  if (closed) return;
  const body = Buffer.from(JSON.stringify(end), 'utf8');
  const head = Buffer.alloc(8, 0xff);
  head.writeUInt32LE(body.length, 4);
  writeSync(markerFd, Buffer.concat([head, body]));
}

child.on('error', (err) => mark({ cause: 'exit', message: `could not be started: ${err.message}` }));
child.on('exit', (code, sig) => {
  clearInterval(watch);
  const tail = stderr.trim().split('\n').slice(-3).join(' | ');
  mark({ cause, message: `${sig ? `was killed (${sig})` : `exited with code ${code}`}${tail ? `; its stderr ended: ${tail}` : ''}` });
});

const watch = setInterval(() => {
  const d = deadline[0];
  if (d !== 0 && Date.now() > d && child.exitCode === null && child.signalCode === null) {
    cause = 'deadline';
    child.kill('SIGKILL');
  }
}, WATCH_MS);

parentPort!.on('message', (m: HostRequest) => {
  if ('kill' in m) {
    child.kill('SIGKILL');
    return;
  }
  // The game thread has closed its ends: the process, if alive, sees its stdin end; then this thread goes.
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  clearInterval(watch);
  closed = true;
  closeSync(markerFd);
  parentPort!.close();
});
