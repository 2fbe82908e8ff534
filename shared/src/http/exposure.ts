/**
 * Who can reach a lab process, and what that asks of it. One rule for every way the lab runs:
 *
 *   a process is reached at PUBLISHED_ADDRESS when something else publishes its port (Docker
 *   Compose publishes a container's port on BIND_ADDRESS while the process listens on 0.0.0.0
 *   inside it), else at HOST, the address it listens on. Reached at a loopback address, only this
 *   machine reaches it; reached at any other, other machines may — and then the API must have a
 *   token: a coordinator without API_TOKEN refuses to start.
 *
 * The same address decides ALLOWED_HOSTS' default (allowed-hosts.ts: the loopback names on
 * loopback). Kubernetes sets neither, so its coordinator (HOST 0.0.0.0 in the image) needs the
 * token its Secret gives.
 */
import { z } from 'zod';
import { isLoopback } from './allowed-hosts.js';

/** PUBLISHED_ADDRESS: an address without a port; empty is unset (compose passes empty values through). */
export const PublishedAddressSetting = z.preprocess(
  (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
  z
    .string()
    .trim()
    // IPv6 with or without brackets (two colons at least: one would be an IPv4 address and a port), IPv4 or a name.
    .regex(/^(\[[0-9a-fA-F:.]+\]|[0-9a-fA-F.]*:[0-9a-fA-F.]*:[0-9a-fA-F:.]*|[A-Za-z0-9.-]+)$/, 'an address (127.0.0.1, 0.0.0.0, ::1, a host name), without a port')
    .optional(),
);

/** The address clients reach a process at: PUBLISHED_ADDRESS when set, else HOST. */
export function reachedAt(settings: { HOST: string; PUBLISHED_ADDRESS?: string }): string {
  return settings.PUBLISHED_ADDRESS ?? settings.HOST;
}

/**
 * Why a coordinator must not start as set (reachable beyond this machine without an API token),
 * as the sentence its first log line says; undefined when it may.
 */
export function unguardedProblem(settings: { HOST: string; PUBLISHED_ADDRESS?: string; API_TOKEN?: string }): string | undefined {
  if (settings.API_TOKEN) return undefined;
  const at = reachedAt(settings);
  if (isLoopback(at)) return undefined;
  const where = settings.PUBLISHED_ADDRESS !== undefined ? `PUBLISHED_ADDRESS=${at} (compose: BIND_ADDRESS)` : `HOST=${at}`;
  return (
    `refusing to start: reachable beyond this machine (${where}) and API_TOKEN is not set, so anyone who reaches it ` +
    `could create and cancel sweeps. Open it deliberately: set API_TOKEN (e.g. \`openssl rand -hex 24\`; compose: .env; ` +
    `Kubernetes: k8s/base/api-token-secret.yaml). Or keep it on this machine: HOST=127.0.0.1 (npm start), BIND_ADDRESS=127.0.0.1 (compose).`
  );
}
