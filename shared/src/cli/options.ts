/**
 * What the commands' options have in common: the error for bad input, parseArgs entries for the
 * options several commands take (so that --out, --json, --threads and --quiet mean the same in
 * play, sweep and remote), and the checks of their values.
 */
import { availableParallelism } from 'node:os';
import { parseArgs, type ParseArgsConfig } from 'node:util';

/** Bad input on the command line: the CLI prints it with a pointer to the usage and exits 2. */
export class UsageError extends Error {}

/** A token that is a negative number, not an option: -3, -0.5, -.5. */
const NEGATIVE_NUMBER = /^-(\d|\.\d)/;

/**
 * node:util's parseArgs, except that a negative number after an option that takes a value is that
 * value (`--games -3` is read as `--games=-3`): parseArgs alone takes it for an option and answers
 * that --games needs a value, where the option's own check says what is wrong with -3.
 */
export function parseCommandLine<T extends ParseArgsConfig>(config: T): ReturnType<typeof parseArgs<T>> {
  const options = config.options ?? {};
  const given = config.args ?? [];
  const args: string[] = [];
  for (let i = 0; i < given.length; i++) {
    const arg = given[i];
    if (arg === '--') {
      args.push(...given.slice(i));
      break;
    }
    const name = arg.startsWith('--') ? arg.slice(2) : /^-[^-]$/.test(arg) ? Object.keys(options).find((key) => options[key].short === arg[1]) : undefined;
    if (name !== undefined && options[name]?.type === 'string' && NEGATIVE_NUMBER.test(given[i + 1] ?? '')) {
      args.push(`--${name}=${given[i + 1]}`);
      i++;
    } else {
      args.push(arg);
    }
  }
  return parseArgs({ ...config, args }) as ReturnType<typeof parseArgs<T>>;
}

/** parseArgs entries for options that take a value (as text: each command checks its own). */
export function valueOptions<K extends string>(...names: K[]): Record<K, { type: 'string' }> {
  return Object.fromEntries(names.map((name) => [name, { type: 'string' }])) as Record<K, { type: 'string' }>;
}

/** parseArgs entries for flags. */
export function flagOptions<K extends string>(...names: K[]): Record<K, { type: 'boolean' }> {
  return Object.fromEntries(names.map((name) => [name, { type: 'boolean' }])) as Record<K, { type: 'boolean' }>;
}

/** Where a command's results go: a file (-o) and JSON instead of text. */
export const OUTPUT_OPTIONS = { out: { type: 'string', short: 'o' }, json: { type: 'boolean' } } as const;

/** How games run on this machine (play, sweep run): worker threads and no progress line. */
export const LOCAL_RUN_OPTIONS = { threads: { type: 'string' }, quiet: { type: 'boolean' } } as const;

export const HELP_OPTION = { help: { type: 'boolean', short: 'h' } } as const;

/** An integer option from min to max, or undefined when not given. */
export function intOption(name: string, value: string | undefined, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) throw new UsageError(`--${name} must be an integer from ${min} to ${max}, got '${value}'`);
  return n;
}

/** --threads: one game per core unless told otherwise. */
export function threadsOption(value: string | undefined): number {
  return intOption('threads', value, 1, 1024) ?? availableParallelism();
}
