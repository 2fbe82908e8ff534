/**
 * The `wonderlab` command line. Each command is a small function; errors end as one line on
 * stderr and exit code 1 (2 for a usage error).
 */
import { serveEnv } from './env-server.js';
import { readFileSync, writeFileSync } from 'node:fs';
import {
  BOARDS,
  CARDS,
  GUILD_IDS,
  MAX_PLAYERS,
  MIN_PLAYERS,
  Rng,
  actingSeats,
  ageDeckWithoutGuilds,
  evaluatePosition,
  legalMoves,
  newGame,
  recordStep,
  replay,
  startRecord,
  type GameRecord,
} from '../engine/index.js';

import { agentsMarkdown, agentsText } from '../agents/index.js';
import { HELP_OPTION, UsageError, parseCommandLine } from './options.js';
import { PLAY_USAGE, interactivePlay, parsePlayArgs, runPlay } from './play.js';
import { cmdLearn } from './learn.js';
import { cmdRemote } from './remote.js';
import { cmdSweep } from './sweep.js';
import { cmdTune } from './tune.js';

const USAGE = `usage: wonderlab <command> [options]     (every command answers --help)

commands:
  serve [--private-redis]       the whole lab on this machine, what npm start runs: dashboard, API
                                and one game slot per core, on Redis ('wonderlab serve --help')
  play --ai="SPEC;SPEC;..." [options]
                                a tournament between agents on all cores ('wonderlab play --help')
  sweep run <preset | spec.json> [--deals N] [--cells LIST] [--by-order] [--out F] [--json]
                                a sweep spec (e.g. a paper's experiment from presets/) on this
                                machine, no Redis needed ('wonderlab sweep presets' lists them)
  tune <preset | spec.json> [--json]
                                a tune (racing, SPSA or NTBEA: the spec's "tune") and its
                                confirmation on this machine ('wonderlab tune --help')
  remote submit|status|wait|export|cancel|list ... [--url URL] [--token T]
                                a running lab: submit a sweep, follow it, wait with a progress bar,
                                export it, cancel it ('wonderlab remote --help')
  learn --name NAME [options] [--url URL]
                                generations of self-play, training and evaluation on a running lab:
                                networks that guide the search ('wonderlab learn --help')
  agents [--markdown]           every agent and MCTS option: range, each named agent's default, meaning
  eval <position.json>          score breakdown and cheapest payments for every card in hand
  cards --players N [--json]    each Age's deck at N players
  replay <record.json>          re-apply a recorded game and say whether it matches
  demo [--players N] [--seed S] [--record out.json]
                                play one game with random moves and print the result
  env                           the environment server of the Python package (python/): a binary
                                protocol on stdin/stdout (docs/python.md), not for a terminal`;

const AGENTS_USAGE = `usage: wonderlab agents [--markdown]
  Every agent and every MCTS and minimax option: its range, each named agent's default, its
  meaning (the parameter table, shared/src/agents/params.ts).
  --markdown        as the README's tables
  -h, --help        this text`;

const EVAL_USAGE = `usage: wonderlab eval <position.json>
  A position's scores and, for every card in each hand, whether it can be built or staged and
  its cheapest payments, as JSON. The file's format: docs/engine.md ("Checking a position by
  hand").
  -h, --help        this text`;

const CARDS_USAGE = `usage: wonderlab cards --players N [--json]
  Each Age's deck at N players (3 to 7), and the guilds drawn from.
  -p, --players N   the player count
  --json            as JSON
  -h, --help        this text`;

const REPLAY_USAGE = `usage: wonderlab replay <record.json>
  Re-applies a recorded game's moves (a record from demo --record, play --records or the API)
  and says whether every step and the result match; exit 0 if they do, 1 if not.
  -h, --help        this text`;

const DEMO_USAGE = `usage: wonderlab demo [--players N] [--seed S] [--record out.json]
  One game with random moves, and its score sheet.
  -p, --players N   3 to 7 (default 3)
  -s, --seed S      the deal's seed (default 1)
  --record FILE     write the game's record (check it with wonderlab replay FILE)
  -h, --help        this text`;

const ENV_USAGE = `usage: wonderlab env
  The environment server of the Python package (python/): length-prefixed binary frames on
  stdin/stdout (docs/python.md, "Protocol"), started by the package itself; not for a terminal.
  -h, --help        this text`;

function readJson(path: string | undefined, what: string): unknown {
  if (!path) throw new UsageError(`missing <${what}> file`);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new Error(`cannot read ${path}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new Error(`${path} is not valid JSON: ${(err as Error).message}`);
  }
}

function playersOption(value: string | undefined, fallback?: number): number {
  if (value === undefined && fallback !== undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < MIN_PLAYERS || n > MAX_PLAYERS) {
    throw new UsageError(`--players must be an integer from ${MIN_PLAYERS} to ${MAX_PLAYERS}, got ${value ?? 'nothing'}`);
  }
  return n;
}

function cmdEval(args: string[], out: (s: string) => void): void {
  const { values, positionals } = parseCommandLine({ args, allowPositionals: true, options: HELP_OPTION });
  if (values.help) return out(EVAL_USAGE);
  const position = readJson(positionals[0], 'position.json');
  try {
    out(JSON.stringify(evaluatePosition(position), null, 2));
  } catch (err) {
    throw new Error(`${positionals[0]}: ${(err as Error).message}`);
  }
}

function cmdCards(args: string[], out: (s: string) => void): void {
  const { values } = parseCommandLine({ args, options: { players: { type: 'string', short: 'p' }, json: { type: 'boolean' }, ...HELP_OPTION } });
  if (values.help) return out(CARDS_USAGE);
  const n = playersOption(values.players);
  const ages = [1, 2, 3].map((age) => ({ age, cards: ageDeckWithoutGuilds(age, n).map((c) => CARDS[c].name) }));
  const guilds = GUILD_IDS.map((c) => CARDS[c].name);
  if (values.json) {
    out(JSON.stringify(ages.map((a) => (a.age === 3 ? { ...a, guilds: { drawn: n + 2, from: guilds } } : a))));
    return;
  }
  for (const { age, cards } of ages) {
    const counts = new Map<string, number>();
    for (const c of cards) counts.set(c, (counts.get(c) ?? 0) + 1);
    const extra = age === 3 ? ` + ${n + 2} guilds` : '';
    out(`Age ${'I'.repeat(age)} — ${cards.length}${extra} cards:`);
    out('  ' + [...counts].map(([name, k]) => (k > 1 ? `${name} ×${k}` : name)).join(', '));
  }
  out(`Guilds (${n + 2} of 10 drawn each game): ${guilds.join(', ')}`);
}

function cmdReplay(args: string[], out: (s: string) => void): boolean {
  const { values, positionals } = parseCommandLine({ args, allowPositionals: true, options: HELP_OPTION });
  if (values.help) {
    out(REPLAY_USAGE);
    return true;
  }
  const record = readJson(positionals[0], 'record.json') as GameRecord;
  if (typeof record !== 'object' || record === null || !Array.isArray(record.steps) || !record.config) {
    throw new Error(`${positionals[0]}: not a game record (needs "config" and "steps")`);
  }
  let outcome;
  try {
    outcome = replay(record);
  } catch (err) {
    throw new Error(`${positionals[0]}: ${(err as Error).message}`);
  }
  out(JSON.stringify({ matches: outcome.matches, differences: outcome.differences }, null, 2));
  return outcome.matches;
}

function cmdDemo(args: string[], out: (s: string) => void): void {
  const { values } = parseCommandLine({
    args,
    options: { players: { type: 'string', short: 'p' }, seed: { type: 'string', short: 's' }, record: { type: 'string' }, ...HELP_OPTION },
  });
  if (values.help) return out(DEMO_USAGE);
  const players = playersOption(values.players, 3);
  const seed = values.seed === undefined ? 1 : Number.isNaN(Number(values.seed)) ? values.seed : Number(values.seed);
  const config = { players, seed };
  const s = newGame(config);
  const record = startRecord(config, s);
  const rng = new Rng(`demo-moves-${seed}`);
  const moves = new Int32Array(players);
  while (!s.isOver()) {
    for (const p of actingSeats(s)) {
      const legal = legalMoves(s, p, 'cheapest');
      moves[p] = legal[rng.int(legal.length)];
    }
    recordStep(record, s, moves);
  }
  if (values.record) writeFileSync(values.record, JSON.stringify(record, null, 2));
  const result = record.result!;
  out(`A ${players}-player game with random moves (seed ${seed}):`);
  out('seat  wonder         military treasury wonder civilian commercial guilds science  total coins');
  result.scores.forEach((sc, p) => {
    const b = BOARDS[s.board[p]].city + ' ' + (s.side[p] ? 'B' : 'A');
    const cols = [sc.military, sc.treasury, sc.wonder, sc.civilian, sc.commercial, sc.guilds, sc.science, sc.total, result.coins[p]];
    out(`${String(p).padEnd(5)} ${b.padEnd(15)}${cols.map((v) => String(v).padStart(8)).join(' ')}`);
  });
  out(`winner: seat ${result.winners.join(', ')} (decided by ${result.decidedBy})`);
  if (values.record) out(`record written to ${values.record}; check it with: wonderlab replay ${values.record}`);
}

async function cmdPlay(args: string[], out: (s: string) => void): Promise<void> {
  if (args.includes('--help') || args.includes('-h')) {
    out(`${PLAY_USAGE}\n\n${agentsText()}`);
    return;
  }
  if (args.length === 0 && process.stdin.isTTY && process.stderr.isTTY) args = await interactivePlay();
  await runPlay(parsePlayArgs(args), out);
}

/** Runs the CLI; resolves to the exit code. */
export async function main(argv: string[], out = (s: string) => console.log(s), err = (s: string) => console.error(s)): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case 'play':
        await cmdPlay(rest, out);
        return 0;
      case 'sweep':
        await cmdSweep(rest, out);
        return 0;
      case 'tune':
        return await cmdTune(rest, out, err);
      case 'remote':
        return await cmdRemote(rest, out, err);
      case 'learn':
        return await cmdLearn(rest, out, err);
      case 'agents': {
        const { values } = parseCommandLine({ args: rest, options: { markdown: { type: 'boolean' }, ...HELP_OPTION } });
        out(values.help ? AGENTS_USAGE : values.markdown ? agentsMarkdown() : agentsText());
        return 0;
      }
      case 'eval':
        cmdEval(rest, out);
        return 0;
      case 'cards':
        cmdCards(rest, out);
        return 0;
      case 'replay':
        return cmdReplay(rest, out) ? 0 : 1;
      case 'demo':
        cmdDemo(rest, out);
        return 0;
      case 'env': {
        // Nothing on the command line but --help: the protocol is all on stdin.
        const { values } = parseCommandLine({ args: rest, options: HELP_OPTION });
        if (values.help) out(ENV_USAGE);
        else await serveEnv();
        return 0;
      }
      case undefined:
      case 'help':
      case '--help':
      case '-h':
        out(USAGE);
        return command === undefined ? 2 : 0;
      default:
        throw new UsageError(`unknown command '${command}'`);
    }
  } catch (e) {
    const usage = argumentProblem(e);
    const message = usage ?? (e as Error).message.split('\n')[0];
    err(`wonderlab ${command ?? ''}: ${message}`.replace(/ +:/, ':'));
    if (usage !== undefined || e instanceof UsageError) {
      err(HAS_HELP.has(command ?? '') ? `run "wonderlab ${command} --help" for its options` : 'run "wonderlab help" for usage');
      return 2;
    }
    return 1;
  }
}

/** The commands with a usage text of their own (serve's is bin/wonderlab.mjs's). */
const HAS_HELP = new Set(['play', 'sweep', 'tune', 'remote', 'learn', 'agents', 'eval', 'cards', 'replay', 'demo', 'env']);

/**
 * node:util's parseArgs errors in the words of the other usage errors: its own messages are about
 * how to pass a positional argument that starts with '-', not about the option mistyped.
 */
export function argumentProblem(e: unknown): string | undefined {
  if (!(e instanceof TypeError)) return undefined;
  const code = (e as NodeJS.ErrnoException).code;
  if (!code?.startsWith('ERR_PARSE_ARGS')) return undefined;
  const quoted = /'([^']*)'/.exec(e.message)?.[1] ?? '';
  // '-n, --games <value>' for an option with a short name: the long one is the option's name.
  const option = /--[A-Za-z0-9-]+/.exec(quoted)?.[0] ?? quoted.split(' ')[0];
  switch (code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return `unknown option '${option}'`;
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      return /does not take an argument/.test(e.message) ? `${option} takes no value` : `${option} needs a value`;
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return `unexpected argument '${quoted}'`;
    default:
      return e.message.split('. ')[0];
  }
}
