/**
 * `wonderlab play`: a tournament on this machine, on all cores, no Redis needed.
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import { createInterface } from 'node:readline/promises';
import { AGENT_KINDS, SpecError, parseAgentList } from '../agents/index.js';
import {
  DEFAULT_PAIR,
  SEATINGS,
  SETUPS,
  Standings,
  Tournament,
  formatStandings,
  planTournament,
  runGames,
  type Seating,
  type Setup,
  type TournamentOptions,
} from '../lab/index.js';
import { MAX_PLAYERS, MIN_PLAYERS } from '../engine/index.js';
import { LOCAL_RUN_OPTIONS, OUTPUT_OPTIONS, UsageError, flagOptions, intOption, parseCommandLine, threadsOption, valueOptions } from './options.js';

export const PLAY_USAGE = `usage: wonderlab play --ai="<spec>;<spec>;..." [options]
  --ai SPECS         one agent spec per seat, separated by ';' (3 to 7), e.g.
                     "mcts:500,10,100;rulebased;rulebased" or "mcts(it=250,c=0.3);random;random"
  --setup S          random | thesis (21 wonder sets × 50 deals) | robilliard (20 board sets × 50 deals)
                     | duplicated (5 sets in which seats ${DEFAULT_PAIR.join(' and ')} share a board × 100 deals)
  --games N          deals for --setup random (default 1000)
  --deals N          deals per board set for thesis / robilliard (default 50)
  --seating S        fixed | rotate (every rotation of each deal) | permute (every permutation)
                     | swap (as given and with the agents of seats ${DEFAULT_PAIR.join(' and ')} exchanged)
Seats are numbered from 0, as in sweep specs and on the dashboard.
  --sides S          A | B | random (default random)
  --seed S           tournament seed (default 1)
  --open             every hand visible to every agent
  --threads N        worker threads (default: the number of cores)
  --out FILE         one game summary per line (JSON Lines)
  --records          include each game's full move record in --out
  --json             print the standings as JSON instead of a table
  --quiet            no progress line
With no options on a terminal, asks for the agents and settings interactively.`;

function oneOf<T extends string>(name: string, value: string | undefined, allowed: readonly T[], fallback: T): T {
  if (value === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(value)) throw new UsageError(`--${name} must be one of ${allowed.join(' | ')}, got '${value}'`);
  return value as T;
}

interface PlayCommand {
  tournament: TournamentOptions;
  threads: number;
  out?: string;
  records: boolean;
  json: boolean;
  quiet: boolean;
}

export function parsePlayArgs(args: string[]): PlayCommand {
  const { values, positionals } = parseCommandLine({
    args,
    allowPositionals: true,
    options: {
      ...valueOptions('ai', 'setup', 'deals', 'seating', 'sides', 'seed'),
      games: { type: 'string', short: 'n' },
      ...flagOptions('open', 'records'),
      ...LOCAL_RUN_OPTIONS,
      ...OUTPUT_OPTIONS,
    },
  });
  if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0]}'`);
  if (values.ai === undefined) throw new UsageError('--ai is required (e.g. --ai="mcts:100,10,100;rulebased;rulebased")');
  let specs;
  try {
    specs = parseAgentList(values.ai);
  } catch (err) {
    if (err instanceof SpecError) throw new UsageError(`--ai: ${err.message}`);
    throw err;
  }
  if (specs.length < MIN_PLAYERS || specs.length > MAX_PLAYERS) {
    throw new UsageError(`--ai: a game needs ${MIN_PLAYERS} to ${MAX_PLAYERS} agents, got ${specs.length}`);
  }
  // 'fixed' board sets come from sweep specs; the command line has no way to list them.
  const setup = oneOf<Setup>('setup', values.setup, SETUPS.filter((x) => x !== 'fixed'), 'random');
  if (setup === 'thesis' && specs.length !== 3) throw new UsageError(`--setup thesis is for 3 players, got ${specs.length} agents`);
  const games = intOption('games', values.games, 1, 100_000_000);
  const deals = intOption('deals', values.deals, 1, 10_000_000);
  if (games !== undefined && setup !== 'random') throw new UsageError(`--games applies to --setup random; with --setup ${setup} use --deals (per board set)`);
  if (games !== undefined && deals !== undefined) throw new UsageError('give --games or --deals, not both');
  const seedText = values.seed ?? '1';
  const seed = /^\d+$/.test(seedText) && Number(seedText) < 2 ** 32 ? Number(seedText) : hashSeed(seedText);
  const sides = oneOf('sides', values.sides, ['A', 'B', 'random'] as const, 'random');
  return {
    tournament: {
      agents: specs.map((s) => s.text),
      setup,
      deals: games ?? deals,
      seed,
      seating: oneOf<Seating>('seating', values.seating, SEATINGS, 'fixed'),
      sides,
      open: values.open ?? false,
    },
    threads: threadsOption(values.threads),
    out: values.out,
    records: values.records ?? false,
    json: values.json ?? false,
    quiet: values.quiet ?? false,
  };
}

function hashSeed(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

function duration(seconds: number): string {
  if (!Number.isFinite(seconds)) return '?';
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

/** A progress line on stderr: redrawn in place on a terminal, every 10 % otherwise. */
export function progress(total: number, quiet: boolean) {
  const started = performance.now();
  const tty = process.stderr.isTTY === true;
  let lastDecile = -1;
  return (done: number) => {
    if (quiet) return;
    const elapsed = (performance.now() - started) / 1000;
    const rate = done / elapsed;
    const eta = (total - done) / rate;
    const frac = done / total;
    const text = `${done}/${total} games  ${(100 * frac).toFixed(1)}%  ${rate.toFixed(rate < 10 ? 2 : 0)} games/s  ETA ${duration(eta)}`;
    if (tty) {
      const width = 24;
      const filled = Math.round(frac * width);
      process.stderr.write(`\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${text}\x1b[K${done === total ? '\n' : ''}`);
    } else {
      const decile = Math.floor(frac * 10);
      if (decile !== lastDecile || done === total) {
        lastDecile = decile;
        process.stderr.write(`${text}\n`);
      }
    }
  };
}

export async function runPlay(cmd: PlayCommand, out: (s: string) => void): Promise<void> {
  const tournament = new Tournament(cmd.tournament);
  const plans = planTournament(cmd.tournament);
  const t = cmd.tournament;
  const perDeal = tournament.orders.length;
  const shape = t.setup === 'random' ? `${tournament.deals} deals` : `${tournament.sets.length} board sets × ${tournament.deals} deals`;
  const header = `${plans.length} games (${shape}${perDeal > 1 ? ` × ${perDeal} seat orders` : ''}); setup ${t.setup}, seating ${t.seating}, sides ${t.sides}, seed ${t.seed}${t.open ? ', open hands' : ''}; ${cmd.threads} thread${cmd.threads > 1 ? 's' : ''}`;
  if (!cmd.json) out(header);
  const fd = cmd.out ? openSync(cmd.out, 'w') : undefined;
  const standings = new Standings();
  const tick = progress(plans.length, cmd.quiet);
  let done = 0;
  try {
    await runGames(plans, {
      threads: cmd.threads,
      record: cmd.records ? 'full' : undefined,
      onResult: (summary) => {
        standings.add(summary);
        if (fd !== undefined) writeSync(fd, JSON.stringify(summary) + '\n');
        tick(++done);
      },
    });
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  const rows = standings.rows();
  if (cmd.json) out(JSON.stringify({ games: plans.length, options: t, standings: rows }, null, 2));
  else out(formatStandings(rows));
  if (cmd.out && !cmd.json) out(`game summaries written to ${cmd.out}`);
}

/** The thesis CLI's interactive setup: agents one by one, then the run's settings. */
export async function interactivePlay(): Promise<string[]> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  const ask = async (q: string, fallback: string) => ((await rl.question(`${q} [${fallback}]: `)).trim() || fallback);
  try {
    const specs: string[] = [];
    process.stderr.write('=== Wonderlab tournament setup ===\n');
    for (;;) {
      process.stderr.write(`Seat ${specs.length}: ${AGENT_KINDS.map((k, i) => `${i + 1}) ${k}`).join('  ')}${specs.length >= MIN_PLAYERS ? '  0) finish' : ''}\n`);
      const answer = await ask('choice', specs.length >= MIN_PLAYERS ? '0' : '2');
      if (answer === '0' && specs.length >= MIN_PLAYERS) break;
      const kind = AGENT_KINDS[Number(answer) - 1];
      if (!kind) {
        process.stderr.write(`'${answer}' is not on the list\n`);
        continue;
      }
      if (kind === 'mcts' || kind === 'mcts-robilliard') {
        const it = await ask('  iterations per decision (Age I)', kind === 'mcts' ? '100' : '1000');
        const time = await ask('  time limit per move, seconds (0: none)', kind === 'mcts' ? '10' : '0');
        const depth = await ask('  simulation depth in turns (100: to the end)', '100');
        specs.push(`${kind}:${it},${time},${depth}`);
      } else if (kind === 'policy') {
        const model = await ask('  model file under MODELS_DIR', 'policy.onnx');
        specs.push(`policy(model=${model})`);
      } else {
        specs.push(kind);
      }
      if (specs.length === MAX_PLAYERS) break;
    }
    const games = await ask('Number of games', '1000');
    const setup = await ask('Setup (random | thesis | robilliard)', 'random');
    const seating = await ask('Seating (fixed | rotate | permute)', 'fixed');
    const args = [`--ai=${specs.join(';')}`, `--setup=${setup}`, `--seating=${seating}`];
    if (setup === 'random') args.push(`--games=${games}`);
    process.stderr.write(`\nwonderlab play ${args.map((a) => `'${a}'`).join(' ')}\n\n`);
    return args;
  } finally {
    rl.close();
  }
}
