// What the reproduction scripts share: their --options, the running lab's API, and the commit
// that plays what they submit.
import { execFileSync } from 'node:child_process';

/** `--name value` options of argv; each script names its own. */
export function options(args) {
  return (name, fallback) => {
    const i = args.indexOf(`--${name}`);
    return i >= 0 ? args[i + 1] : fallback;
  };
}

/** GET (no body) or POST (a JSON body) on the lab at `url`; JSON back, or text for exports. */
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
 * The commit whose agents played the games being collected: `--commit` if given (a lab started
 * from another checkout), else this checkout's HEAD.
 */
export function playedAt(given) {
  if (given) return given;
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: new URL('..', import.meta.url), encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
}
