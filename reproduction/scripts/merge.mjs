// A preset played in parts: the parts' saved results merged into one (lab.mjs collect --merge).

/** A matchup spec's pairs as the sweep plays them: its `pairs`, or every ordered pair (first agent, then second). */
export function matchupPairs(spec) {
  if (!spec.matchup) return undefined;
  if (spec.matchup.pairs) return spec.matchup.pairs;
  const n = spec.matchup.specs.length;
  const pairs = [];
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) if (i !== j) pairs.push([i, j]);
  return pairs;
}

/**
 * A preset played in parts (e.g. some values of a swept parameter now, the rest later): the saved
 * result's cells whose swept values the new sweep does not play are kept beside the new ones, in
 * order of their values, and so are its parameter points; the lab block adds up games and wall time
 * and names both commits, and the provenance keeps both sweeps' records as `parts`. Pooled agents
 * are dropped: they cannot be summed from two sweeps' results.
 */
export function mergeResults(old, fresh) {
  const key = (cell) => JSON.stringify(cell.swept);
  const seen = new Set(fresh.cells.map(key));
  const byValue = (a, b) => (typeof a === 'number' && typeof b === 'number' ? a - b : String(a).localeCompare(String(b)));
  const first = (cell) => Object.values(cell.swept)[0];
  // A matchup's cells in the sweep's order of pairs: by the first agent's index, then the second's.
  const matchup = fresh.spec.matchup;
  const pairOf = (cell) => matchup.seats.map((seat) => matchup.specs.indexOf(cell.swept[`matchup.${seat}`]));
  const order = matchup ? (a, b) => pairOf(a)[0] - pairOf(b)[0] || pairOf(a)[1] - pairOf(b)[1] : (a, b) => byValue(first(a), first(b));
  // Each cell with the result it came from, for its seat orders' standings (which name their cell by index).
  const tagged = [...old.cells.filter((c) => !seen.has(key(c))).map((c) => [c, old]), ...fresh.cells.map((c) => [c, fresh])].sort(([a], [b]) => order(a, b));
  const cells = tagged.map(([c], index) => ({ ...c, index }));
  const orders = fresh.orders && old.orders ? tagged.map(([c, from], index) => ({ ...from.orders.find((o) => o.cell === c.index), cell: index })) : undefined;
  const parameters = fresh.parameters.map((series) => {
    const before = old.parameters?.find((p) => p.key === series.key);
    const values = new Set(series.points.map((p) => p.value));
    const points = [...(before?.points ?? []).filter((p) => !values.has(p.value)), ...series.points].sort((a, b) => byValue(a.value, b.value));
    const { lines: _, ...rest } = series;
    return { ...rest, points };
  });
  const games = old.lab.games + fresh.lab.games;
  const wallSeconds = old.lab.wallSeconds + fresh.lab.wallSeconds;
  const { pooled: _, ...kept } = fresh;
  return {
    ...kept,
    spec: { ...fresh.spec, seats: fresh.spec.seats.map((seat, i) => mergeSweptSeat(old.spec.seats[i], seat)), ...(matchup ? { matchup: mergeMatchup(old.spec.matchup, matchup) } : {}) },
    cells,
    ...(orders ? { orders } : {}),
    parameters,
    provenance: { parts: [...(old.provenance?.parts ?? [old.provenance ?? null]), fresh.provenance] },
    // The parts' span: the earlier part's first game, the later part's last.
    lab: { ...fresh.lab, sweep: `${old.lab.sweep} + ${fresh.lab.sweep}`, games, wallSeconds, gamesPerSecond: games / wallSeconds, commit: `${old.lab.commit} + ${fresh.lab.commit}`, firstGameAt: [old.lab.firstGameAt, fresh.lab.firstGameAt].sort()[0], lastGameAt: [old.lab.lastGameAt, fresh.lab.lastGameAt].sort()[1] },
  };
}

/**
 * A matchup played in parts: the pairs of both, in the sweep's order; all of them, written as the
 * preset writes them (no `pairs` when it plays every ordered pair).
 */
function mergeMatchup(old, fresh) {
  const n = fresh.specs.length;
  const pairs = [...new Map([...matchupPairs({ matchup: old }), ...matchupPairs({ matchup: fresh })].map((p) => [p.join(), p])).values()].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const { pairs: _, ...rest } = fresh;
  return pairs.length === n * (n - 1) ? rest : { ...rest, pairs };
}

/** A seat whose swept values were played in two parts: the values of both. */
function mergeSweptSeat(old, fresh) {
  if (typeof fresh === 'string' || typeof old === 'string') return fresh;
  const params = { ...fresh.params };
  for (const [k, v] of Object.entries(fresh.params ?? {})) {
    const before = old.params?.[k];
    if (Array.isArray(v) && Array.isArray(before)) params[k] = [...new Set([...before, ...v])].sort((a, b) => a - b);
  }
  return { ...fresh, params };
}

/** The sweeps a saved result was collected from: one, or each part of a merged one. */
export function mergedSweeps(result) {
  return String(result.lab?.sweep ?? '').split(' + ').filter(Boolean);
}
