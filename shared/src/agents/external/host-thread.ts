/**
 * The thread that holds one outside agent's process for a game thread (agent-process.ts): the game
 * thread waits synchronously for an answer (Atomics.wait on `signal`), so the pipes to the process
 * are read and written here, on an event loop that is free to. Each line the process prints is
 * posted to the game thread's port, then `signal` is raised and notified; the process exiting is
 * posted the same way, with its code and the end of what it wrote on stderr.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { workerData, type MessagePort } from 'node:worker_threads';

export interface HostData {
  command: string[];
  cwd: string;
  env: Record<string, string>;
  port: MessagePort;
  signal: Int32Array;
}

/** What the host posts: a line the process printed, or its end. */
export type HostMessage = { line: string } | { exit: string };

/** The last stderr bytes kept to name a crash. */
const STDERR_TAIL = 2000;

const { command, cwd, env, port, signal } = workerData as HostData;

const raise = (message: HostMessage) => {
  port.postMessage(message);
  Atomics.add(signal, 0, 1);
  Atomics.notify(signal, 0);
};

let stderr = '';
const child = spawn(command[0], command.slice(1), { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
child.stderr.setEncoding('utf8');
child.stderr.on('data', (d: string) => (stderr = (stderr + d).slice(-STDERR_TAIL)));
createInterface({ input: child.stdout, crlfDelay: Infinity }).on('line', (line) => raise({ line }));
child.on('error', (err) => raise({ exit: `could not be started: ${err.message}` }));
child.on('exit', (code, sig) => {
  const tail = stderr.trim().split('\n').slice(-3).join(' | ');
  raise({ exit: `${sig ? `was killed (${sig})` : `exited with code ${code}`}${tail ? `; its stderr ended: ${tail}` : ''}` });
});
// A write to a process that has gone is reported by its exit, not here.
child.stdin.on('error', () => {});
port.on('message', (m: { write?: string; kill?: boolean }) => {
  if (m.kill) child.kill('SIGKILL');
  else if (m.write !== undefined) child.stdin.write(m.write);
});
