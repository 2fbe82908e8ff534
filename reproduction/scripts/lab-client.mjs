// What the reproduction scripts share: their --options and the running lab's API.
/** `--name value` options of argv; each script names its own. */
export function options(args) {
  return (name, fallback) => {
    const i = args.indexOf(`--${name}`);
    return i >= 0 ? args[i + 1] : fallback;
  };
}

/**
 * GET (no body) or POST (a JSON body) on the lab at `url`; JSON back, or text for exports. Each
 * endpoint answers a shape of its own: a caller names the one it reads, by a JSDoc type from the
 * coordinator's package (SweepDetail for /api/sweeps/:id).
 * @param {string} url
 * @param {string} [token]
 * @returns {(path: string, body?: unknown) => Promise<any>}
 */
export function labApi(url, token) {
  return async (path, body) => {
    const res = await fetch(`${url}${path}`, {
      method: body ? 'POST' : 'GET',
      headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return path.includes('/export') ? res.text() : res.json();
  };
}

/**
 * The first argument that is neither an option nor an option's value; `flags` are the options
 * that take no value (so that the argument after one is not taken for its value).
 */
export function positional(args, flags = []) {
  return args.find((a, i) => !a.startsWith('--') && !(i > 0 && args[i - 1].startsWith('--') && !flags.includes(args[i - 1])));
}
