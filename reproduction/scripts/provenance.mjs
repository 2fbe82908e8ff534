// What every collector (lab.mjs, fit/fit.mjs, h2h.mjs, cells.mjs) records of where a lab sweep's
// games came from. It is taken from what the lab reported for the sweep (the detail's
// `provenance`), never from the checkout that collects: that one may be at another commit than
// the lab that played, which is how results once came to name code that never played them.

/**
 * The provenance options every collector takes: --allow-dirty (keep a sweep played from a tree
 * with uncommitted changes, marked `dirty: true`) and --commit C (for a sweep the lab recorded no
 * code version for, e.g. one created before it kept them: a commit the collector vouches for,
 * kept apart from the lab's as `commitGiven`).
 */
export function provenanceOptions(args, opt) {
  return { allowDirty: args.includes('--allow-dirty'), commit: opt('commit') };
}

/** A sweep the collector will not save as it is: played from uncommitted code, or a --commit that contradicts the lab. */
export class ProvenanceError extends Error {}

/**
 * The provenance record of a sweep from its detail (GET /api/sweeps/:id):
 *
 * - `code`: the code version of the coordinator that created the sweep, as the lab reported it
 *   (package, version, commit, dirty, node), or null when it recorded none;
 * - `workers`: the code versions of the worker processes that stored its games, with games each
 *   (the games are theirs: a worker restarted on other code shows up here);
 * - `dirty`: true if the coordinator's or any worker's tree had uncommitted changes, false if all
 *   are known clean, null when unknown (no git at hand, e.g. an image given only WONDERLAB_COMMIT);
 * - `seeds`: the first seed and deals. Deal d's cards come from deriveSeed(firstSeed, 'deal', d)
 *   for d in 0..deals-1 (and the 2014 board sets from firstSeed), so two sweeps share deals only
 *   when they share the first seed; reproduction/inputs/seeds.json keeps which were used;
 * - `games` (done) and `failed`; when it was created, started, had its first and last game and
 *   finished; `wallSeconds` from start to finish, `activeSeconds` of it not paused, and
 *   `cpuSeconds`: the lab's own sum of each game's thread CPU time (null for sweeps stored before
 *   the lab kept it).
 *
 * Throws ProvenanceError for a dirty sweep unless `allowDirty`, and for a `commit` given for a
 * sweep the lab already names a different commit for.
 * @param {import('@wonderlab/coordinator').SweepDetail} detail
 * @param {{ allowDirty?: boolean, commit?: string }} [options]
 */
export function sweepProvenance(detail, { allowDirty = false, commit } = {}) {
  const p = detail.provenance;
  if (!p) throw new ProvenanceError(`${detail.name}: the lab reported no provenance (a lab older than provenance records)`);
  const code = p.code ?? null;
  const versions = new Map();
  for (const w of p.workers ?? []) {
    const key = `${w.commit ?? ''}|${w.dirty ?? ''}|${w.version}`;
    const seen = versions.get(key) ?? { version: w.version, commit: w.commit ?? null, dirty: w.dirty ?? null, games: 0 };
    seen.games += w.games;
    versions.set(key, seen);
  }
  const workers = [...versions.values()];
  const flags = [code?.dirty ?? null, ...workers.map((w) => w.dirty)];
  const dirty = flags.includes(true) ? true : code?.commit && flags.every((f) => f === false) ? false : null;
  if (dirty && !allowDirty) {
    throw new ProvenanceError(`${detail.name}: played from code with uncommitted changes (${describe(code, workers)}); --allow-dirty keeps it, marked dirty`);
  }
  if (commit && code?.commit && !code.commit.startsWith(commit) && !commit.startsWith(code.commit)) {
    throw new ProvenanceError(`${detail.name}: the lab reports commit ${code.commit}, not ${commit}; --commit is only for sweeps it recorded no commit for`);
  }
  return {
    sweep: detail.id,
    name: detail.name,
    status: detail.status,
    code,
    ...(commit && !code?.commit ? { commitGiven: commit } : {}),
    workers,
    dirty,
    seeds: { firstSeed: detail.spec.deals.firstSeed, deals: detail.spec.deals.count },
    games: detail.counts.done,
    failed: detail.counts.failed,
    created: p.created,
    startedAt: p.startedAt,
    firstGameAt: detail.firstGameAt,
    lastGameAt: detail.lastGameAt,
    finishedAt: p.finishedAt,
    wallSeconds: p.wallSeconds,
    activeSeconds: p.activeSeconds,
    cpuSeconds: p.cpuSeconds,
  };
}

/**
 * A collector's refusals: `check` is sweepProvenance, or undefined (the reason on stderr) for a
 * sweep it refuses, so that the others are still collected; `done` then fails the run if any was.
 */
export function refusals(given) {
  let refused = 0;
  return {
    check(detail) {
      try {
        return sweepProvenance(detail, given);
      } catch (err) {
        if (!(err instanceof ProvenanceError)) throw err;
        console.error(`refused: ${err.message}`);
        refused++;
        return undefined;
      }
    },
    done() {
      if (refused > 0) throw new Error(`${refused} sweep(s) refused (see above)`);
    },
  };
}

/** The code versions behind a sweep, for a message: `abc1234+` for a dirty tree. */
function describe(code, workers) {
  const short = (v) => (v.commit ? `${v.commit.slice(0, 7)}${v.dirty ? '+' : ''}` : 'no commit');
  return [`coordinator ${code ? short(code) : 'not recorded'}`, ...workers.map((w) => `worker ${short(w)} (${w.games} games)`)].join(', ');
}

/** The commit a result names in a heading: the lab's (7 digits, `+dirty` when so), else the given one, labelled. */
export function shortCommit(provenance) {
  if (provenance.code?.commit) return `${provenance.code.commit.slice(0, 7)}${provenance.dirty ? '+dirty' : ''}`;
  return provenance.commitGiven ? `${provenance.commitGiven} (given, not reported by the lab)` : 'not recorded';
}
