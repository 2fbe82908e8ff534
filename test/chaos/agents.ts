/**
 * The chaos suite's phase for outside agents (issue 62): a sweep whose seat 0 is an outside Python
 * agent (docs/agent-protocol.md) that plays as the built-in `random` but, at its fifth decision of
 * some games (chosen by the seed the lab gives it), hangs, prints garbage, crashes or answers an
 * illegal move — while its processes are killed from outside and a worker is SIGKILLed. Checks:
 * every game stored once or failed once (never both, none lost), every stored game the one the
 * built-in `random` plays in its place, every failure naming the agent and what it did, and each
 * of the four faults seen.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Sweep, parseSweepSpec, playGame, type GameSummary } from '@wonderlab/shared';
import { SweepStore, closeRedis, connectRedis } from '@wonderlab/shared/store';
import { request, sleep, waitUntil, type LabProcess, type PrivateRedis } from '../support/processes.js';
import type { DoorsContext } from './doors.js';

const DEALS = 50;
const MARK = 'chaos_agent:ChaosAgent';
const AGENT = `"""An outside agent for the chaos suite: the built-in random player, except at the fifth decision
of a game whose seed says so: it hangs, prints garbage, crashes or answers an illegal move."""
import sys
import time

from wonderlab import Agent, LabRng


class ChaosAgent(Agent):
    name = "chaos-agent"
    version = "1"

    def new_game(self, info):
        self.rng = LabRng.from_state(info["rng"])
        self.fault = info["seed"] % 16
        self.turn = 0

    def act(self, observation, legal, info):
        self.turn += 1
        if self.turn == 5:
            if self.fault == 0:
                time.sleep(3600)
            if self.fault == 1:
                print("thinking...", flush=True)
                time.sleep(3600)
            if self.fault == 2:
                sys.exit(9)
            if self.fault == 3:
                return 9999
        return legal[self.rng.int(len(legal))]["action"]
`;

/** The faults' messages, as the lab words them (agents/external/), by the fault. */
const FAULTS: [string, RegExp][] = [
  ['hang', /outside agent 'chaos-agent' did not answer within \d+ ms \(while deciding move 5\): killed/],
  ['garbage', /outside agent 'chaos-agent' printed "thinking\.\.\." where a "move" message was due: killed/],
  ['crash', /outside agent 'chaos-agent' exited with code 9/],
  ['illegal', /outside agent 'chaos-agent' chose action 9999, not one of the \d+ legal/],
];

export async function outsideAgentsUnderFaults(doors: DoorsContext, redis: PrivateRedis, prefix: string): Promise<void> {
  const { log, check, kill, token } = doors;
  const dir = mkdtempSync(join(tmpdir(), 'wl-chaos-agents-'));
  mkdirSync(join(dir, 'chaos-agent'));
  writeFileSync(join(dir, 'chaos-agent', 'chaos_agent.py'), AGENT);
  writeFileSync(join(dir, 'chaos-agent', 'agent.json'), JSON.stringify({ protocol: 1, name: 'chaos-agent', version: '1', summary: 'random, with faults', command: ['python3', '-m', 'wonderlab.serve_agent', MARK], players: [3] }));
  cpSync(resolve(import.meta.dirname, '../../agents/py-random'), join(dir, 'py-random'), { recursive: true });
  const saved = { AGENTS_DIR: process.env.AGENTS_DIR, AGENT_SUSPEND_AFTER: process.env.AGENT_SUSPEND_AFTER };
  // The processes started from here inherit these: the agents, and no suspension (the faults are the point).
  process.env.AGENTS_DIR = dir;
  process.env.AGENT_SUSPEND_AFTER = '1000';
  const store = new SweepStore(connectRedis(redis.url).on('error', () => {}), prefix);
  const { p: coord, url } = await doors.coordinator();
  const workers: LabProcess[] = [doors.worker(), doors.worker()];
  try {
    const spec = { name: 'chaos outside agents', players: 3, seats: ['ext(name=chaos-agent,time=0.25)', 'rulebased', 'random'], deals: { firstSeed: 8800, count: DEALS }, seating: 'rotate' };
    const created = await request(`${url}/api/sweeps`, { method: 'POST', json: spec, headers: { authorization: `Bearer ${token}` } });
    if (created.status !== 201) throw new Error(`the sweep was not created: ${created.status} ${JSON.stringify(created.body)}`);
    const id = created.body.id as string;
    const sweep = new Sweep(parseSweepSpec(spec));
    log(`outside agents: sweep ${id}, ${sweep.size} games with a faulty Python agent in one seat, 2 workers`);
    const finished = async () => {
      const m = await store.reads.meta(id).catch(() => undefined);
      return m ? m.done + m.failed : 0;
    };
    const events: { at: number; name: string; run: () => Promise<void> }[] = [
      { at: 0.2, name: "kill the agent's processes (SIGKILL, from outside)", run: async () => void pkill(MARK) },
      { at: 0.4, name: 'SIGKILL a worker', run: async () => (await kill(workers.shift()!), void workers.push(doors.worker())) },
      { at: 0.6, name: "kill the agent's processes again", run: async () => void pkill(MARK) },
    ];
    for (const e of events) {
      await waitUntil(async () => ((await finished()) >= Math.floor(e.at * sweep.size) ? true : undefined), `${e.at * 100} % of the games finished`, 300_000, 100);
      const at = await finished();
      await e.run();
      log(`${e.name} at ${at} games finished`);
    }
    await waitUntil(async () => ((await finished()) >= sweep.size ? true : undefined), 'every game finished', 300_000, 200);
    await sleep(500);

    const meta = (await store.reads.meta(id))!;
    const plans = Array.from({ length: sweep.size }, (_, k) => sweep.game(k));
    const stored = await store.reads.results(id, plans.map((p) => p.id));
    const failures = await store.reads.failures(id);
    const failed = new Set(failures.map((f) => f.index));
    const both = plans.filter((p, i) => stored[i] && failed.has(p.index)).length;
    const neither = plans.filter((p, i) => !stored[i] && !failed.has(p.index)).length;
    const twice = meta.done - (await store.redis.hlen(store.keys.sweep(id).results));
    check(both === 0 && neither === 0 && twice === 0 && meta.done + meta.failed === sweep.size, `outside agents: every game stored once or failed once (${meta.done} stored, ${meta.failed} failed of ${sweep.size}; both ${both}, neither ${neither}, counted twice ${twice})`);
    // A stored game is the one the built-in random plays in the agent's place.
    const strip = (g: GameSummary) => JSON.stringify(g.players.map((p) => ({ ...p, agent: '', canonical: '', decisionMs: 0 })).concat(g.winners as never));
    let differ = 0;
    plans.forEach((p, i) => {
      const g = stored[i];
      if (g && strip(g) !== strip(playGame({ ...p, agents: p.agents.map((a) => (a.startsWith('ext(') ? 'random' : a)) }))) differ++;
    });
    check(differ === 0, `outside agents: every stored game is the built-in random's (${differ} differ)`);
    const unnamed = failures.filter((f) => !/outside agent 'chaos-agent'/.test(f.error));
    check(unnamed.length === 0, `outside agents: every failure names the agent and what it did (${unnamed.length} do not${unnamed.length ? `, e.g. ${unnamed[0].error.slice(0, 160)}` : ''})`);
    for (const [fault, pattern] of FAULTS) {
      const n = failures.filter((f) => pattern.test(f.error)).length;
      check(n > 0, `outside agents: the ${fault} fails its games, named (${n} games)`);
    }
    const killed = failures.filter((f) => /was killed/.test(f.error)).length;
    log(`outside agents: ${killed} games failed on all their attempts by the kills from outside (a killed process's game is tried again)`);
  } finally {
    await closeRedis(store.redis);
    for (const w of workers) await kill(w);
    await kill(coord);
    process.env.AGENTS_DIR = saved.AGENTS_DIR;
    process.env.AGENT_SUSPEND_AFTER = saved.AGENT_SUSPEND_AFTER;
    if (saved.AGENTS_DIR === undefined) delete process.env.AGENTS_DIR;
    if (saved.AGENT_SUSPEND_AFTER === undefined) delete process.env.AGENT_SUSPEND_AFTER;
    pkill(MARK);
  }
}

/** SIGKILLs every process whose command line has `pattern`; how many there were. */
function pkill(pattern: string): number {
  try {
    const pids = execFileSync('pgrep', ['-f', pattern], { encoding: 'utf8' }).trim().split('\n').filter(Boolean);
    execFileSync('pkill', ['-KILL', '-f', pattern]);
    return pids.length;
  } catch {
    return 0;
  }
}
