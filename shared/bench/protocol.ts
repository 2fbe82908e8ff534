/**
 * Agent protocol benchmark (part of `npm run bench`): what a decision costs when the agent is an
 * outside process (docs/agent-protocol.md) rather than in the game thread — the observation and the
 * legal moves written as JSON, the trip through the host thread and the pipes, the answer read and
 * checked. The agent is agents/py-random (Python, no NumPy: it draws one integer and answers),
 * served in each of the protocol's forms — the binary framing (what wonderlab.serve_agent asks for)
 * and JSON lines (`--jsonl`) — over positions of real 3-player games where seat 0 decides; beside
 * it the built-in `random` on the same positions. The overhead is the difference of the medians (µs
 * per decision). Needs python3.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ExternalAgent, RandomAgent, decisionContext, type Agent } from '../src/agents/index.js';
import { Rng, legalMoves } from '../src/engine/index.js';
import { measure } from './harness.js';
import { decisionPositions } from './positions.js';
import { processorLine } from '../src/lab/results/provenance.js';

const POSITIONS = 200;

/** py-random installed twice in a folder of its own: as it is (binary framing) and with --jsonl. */
function agentsDir(): string {
  const source = resolve(import.meta.dirname, '../../../agents/py-random');
  const dir = mkdtempSync(join(tmpdir(), 'wonderlab-bench-agents-'));
  const manifest = JSON.parse(readFileSync(join(source, 'agent.json'), 'utf8'));
  for (const [name, jsonl] of [['py-binary', false], ['py-jsonl', true]] as const) {
    cpSync(source, join(dir, name), { recursive: true });
    const command = jsonl ? [...manifest.command.slice(0, 3), '--jsonl', ...manifest.command.slice(3)] : manifest.command;
    writeFileSync(join(dir, name, 'agent.json'), JSON.stringify({ ...manifest, name, command }));
  }
  return dir;
}

/**
 * The machine's own floor: two Python processes passing one byte back and forth through a pipe
 * (µs a round trip). An outside agent's decision is a round trip, so it costs at least this; on a
 * busy or throttled virtual machine it is several times its quiet value, and so is the overhead.
 */
function pipeRoundTrip(): number {
  const script = [
    'import os, time',
    'r1, w1 = os.pipe(); r2, w2 = os.pipe()',
    'if os.fork() == 0:',
    '    os.close(w1); os.close(r2)',
    '    while True:',
    '        b = os.read(r1, 1)',
    '        if not b: os._exit(0)',
    '        os.write(w2, b)',
    'n = 20000; t = time.perf_counter()',
    'for _ in range(n): os.write(w1, b"x"); os.read(r2, 1)',
    'os.close(w1)',
    'print((time.perf_counter() - t) / n * 1e6)',
  ].join('\n');
  return Number(execFileSync('python3', ['-c', script], { encoding: 'utf8' }).trim());
}

function main(): void {
  console.log(processorLine());
  process.env.AGENTS_DIR = agentsDir();
  console.log(`protocol_pipe_round_trip: ${pipeRoundTrip().toFixed(0)} us (the machine's floor: a byte between two processes and back)`);
  const states = decisionPositions(POSITIONS, 12);
  const rng = new Rng(3);
  const decide = (agent: Agent) => () => {
    for (const s of states) agent.decide(decisionContext(s, 0, legalMoves(s, 0, agent.moveMode, []), rng, false));
  };
  const builtIn = measure('protocol_builtin_random_decisions', 'decisions/s', decide(new RandomAgent()), POSITIONS);
  for (const [name, form, target] of [['py-binary', 'binary', 50], ['py-jsonl', 'jsonl', 200]] as const) {
    const outside = new ExternalAgent(name, {});
    // The process starts at the first decision: started before the clock.
    outside.decide(decisionContext(states[0], 0, legalMoves(states[0], 0, 'cheapest', []), rng, false));
    const rate = measure(`protocol_${form}_py_random_decisions`, 'decisions/s', decide(outside), POSITIONS);
    outside.endGame();
    console.log(`protocol_${form}_overhead_per_decision: ${(1e6 / rate - 1e6 / builtIn).toFixed(0)} us (target <= ${target}; a Python agent that answers at once, 3 players)`);
  }
}

main();
