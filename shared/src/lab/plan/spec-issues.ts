/**
 * The problems a refused sweep spec is reported by: each a field and a message a person can act
 * on. zod lists a mistyped key (`"deal"` for `"deals"`) after the required key it left missing,
 * and inside a union only as "Invalid input": the unknown key is the cause, so unknown keys come
 * first, named, with the keys allowed there and the close one when there is one.
 */
import type { z } from 'zod';

type Issue = z.core.$ZodIssue;
type Path = readonly PropertyKey[];

/** The parts of a zod schema's definition the walk reads (zod's own types are one per kind). */
interface Def {
  type: string;
  shape?: Record<string, z.core.$ZodType>;
  element?: z.core.$ZodType;
  items?: z.core.$ZodType[];
  options?: z.core.$ZodType[];
  innerType?: z.core.$ZodType;
  in?: z.core.$ZodType;
  getter?: () => z.core.$ZodType;
}

const defOf = (s: z.core.$ZodType) => s._zod.def as unknown as Def;

/** The keys an object at `path` of `schema` may have: of every option of a union on the way. */
export function keysAt(schema: z.core.$ZodType, path: Path): string[] {
  const keys = new Set<string>();
  const walk = (s: z.core.$ZodType, i: number): void => {
    const def = defOf(s);
    const inner = def.innerType ?? def.in ?? def.getter?.();
    if (inner) return walk(inner, i);
    if (def.options) return def.options.forEach((o) => walk(o, i));
    if (def.shape) {
      if (i === path.length) Object.keys(def.shape).forEach((k) => keys.add(k));
      else if (Object.hasOwn(def.shape, String(path[i]))) walk(def.shape[String(path[i])], i + 1);
      return;
    }
    if (i === path.length || typeof path[i] !== 'number') return;
    const next = def.element ?? def.items?.[path[i] as number];
    if (next) walk(next, i + 1);
  };
  walk(schema, 0);
  return [...keys];
}

/** Edits (insert, delete, replace, swap two neighbours) from a to b. */
function distance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

/** The known key a typo most likely meant: one edit away (two for longer keys), the only one that close, case aside. */
export function closeKey(key: string, known: readonly string[]): string | undefined {
  const lower = key.toLowerCase();
  const scored = known.map((k) => ({ k, d: distance(lower, k.toLowerCase()) })).filter((x) => x.d <= (key.length > 5 ? 2 : 1));
  const best = Math.min(...scored.map((x) => x.d));
  const at = scored.filter((x) => x.d === best);
  return at.length === 1 ? at[0].k : undefined;
}

/**
 * Issues flattened out of unions: of each union, the option the input came closest to (fewest
 * unknown keys, then one whose type the input has — a seat written as an object is told about its
 * object, not that it is no string — then fewest issues).
 */
function flatten(issues: readonly Issue[], prefix: Path = []): Issue[] {
  return issues.flatMap((issue): Issue[] => {
    const path = [...prefix, ...issue.path];
    if (issue.code !== 'invalid_union' || issue.errors.length === 0) return [{ ...issue, path } as Issue];
    const unknown = (branch: readonly Issue[]) => branch.filter((i) => i.code === 'unrecognized_keys').length;
    const otherType = (branch: readonly Issue[]) => (branch.some((i) => i.code === 'invalid_type' && i.path.length === 0) ? 1 : 0);
    const closest = [...issue.errors].sort((a, b) => unknown(a) - unknown(b) || otherType(a) - otherType(b) || a.length - b.length)[0];
    // A union none of whose options was near (a seat that is neither a string nor an object): the union's own words.
    return unknown(closest) === 0 && otherType(closest) === 1 ? [{ ...issue, path } as Issue] : flatten(closest, path);
  });
}

const fieldOf = (path: Path) => (path.length ? path.join('.') : '(spec)');

/** A refused spec's problem: the field (a path such as `seats.1.params.c`) and what is wrong there. */
export interface SpecProblem {
  field: string;
  message: string;
}

/** Every problem of a refused spec: its unknown keys first, then the rest in zod's order. */
export function specProblems(schema: z.core.$ZodType, issues: readonly Issue[]): SpecProblem[] {
  const flat = flatten(issues);
  const unknown = flat.filter((i): i is z.core.$ZodIssueUnrecognizedKeys => i.code === 'unrecognized_keys');
  const unknownKeys = unknown.flatMap((issue) =>
    issue.keys.map((key) => {
      const known = keysAt(schema, issue.path);
      const close = closeKey(key, known);
      const hint = [close ? `did you mean '${close}'?` : '', known.length ? `known: ${known.join(', ')}` : ''].filter(Boolean).join(' ');
      return { field: fieldOf([...issue.path, key]), message: `unknown key '${key}'${hint ? ` (${hint})` : ''}` };
    }),
  );
  const rest = flat.filter((i) => i.code !== 'unrecognized_keys').map((i) => ({ field: fieldOf(i.path), message: i.message }));
  return [...unknownKeys, ...rest];
}
