/**
 * The thread that holds one outside agent's process for a game thread (agent-process.ts): the game
 * thread waits synchronously for an answer (Atomics.wait on `signal`), so the pipes to the process
 * are read and written here, on an event loop that is free to. Each message the process writes — a
 * line, or once the handshake chose the binary framing a frame (docs/agent-protocol.md) — is posted
 * to the game thread's port, then `signal` is raised and notified; the process exiting is posted
 * the same way, with its code and the end of what it wrote on stderr.
 */
import { spawn } from 'node:child_process';
import { workerData, type MessagePort } from 'node:worker_threads';

export interface HostData {
  command: string[];
  cwd: string;
  env: Record<string, string>;
  port: MessagePort;
  signal: Int32Array;
}

/** What the host posts: a line the process printed, a frame's payload, or its end. */
export type HostMessage = { line: string } | { frame: Uint8Array } | { exit: string };

/** What the game thread posts: bytes to write, a switch to the binary framing (after the handshake), or a kill. */
export type HostRequest = { write: string | Uint8Array } | { binary: true } | { kill: true };

/** The largest frame an agent may send (a move with its statistics is far smaller): past it, its output is garbage. */
const MAX_FRAME = 1 << 20;

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
// Lines until the handshake chose frames; a frame is a 4-byte little-endian length, then that many bytes.
let binary = false;
let pending: Buffer = Buffer.alloc(0);
child.stdout.on('data', (chunk: Buffer) => {
  pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
  for (;;) {
    if (!binary) {
      const end = pending.indexOf(10);
      if (end < 0) return;
      raise({ line: pending.toString('utf8', 0, end).replace(/\r$/, '') });
      pending = pending.subarray(end + 1);
    } else {
      if (pending.length < 4) return;
      const n = pending.readUInt32LE(0);
      if (n > MAX_FRAME) {
        // Not a frame: the game thread reads it as the garbage it is.
        raise({ line: pending.toString('latin1', 0, Math.min(pending.length, 120)) });
        pending = Buffer.alloc(0);
        return;
      }
      if (pending.length < 4 + n) return;
      raise({ frame: new Uint8Array(pending.subarray(4, 4 + n)) });
      pending = pending.subarray(4 + n);
    }
  }
});
child.on('error', (err) => raise({ exit: `could not be started: ${err.message}` }));
child.on('exit', (code, sig) => {
  const tail = stderr.trim().split('\n').slice(-3).join(' | ');
  raise({ exit: `${sig ? `was killed (${sig})` : `exited with code ${code}`}${tail ? `; its stderr ended: ${tail}` : ''}` });
});
// A write to a process that has gone is reported by its exit, not here.
child.stdin.on('error', () => {});
port.on('message', (m: HostRequest) => {
  if ('kill' in m) child.kill('SIGKILL');
  else if ('binary' in m) binary = true;
  else child.stdin.write(m.write);
});
