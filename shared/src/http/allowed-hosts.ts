/**
 * ALLOWED_HOSTS: the host names a process answers to. A request whose Host header names another is
 * refused with a 421 (Misdirected Request: not a bad request body, but a request sent to a name this
 * server does not serve), which stops DNS-rebinding pages from talking to a lab on a private
 * address. Unset on a process bound to a loopback address: the loopback names (a page of another
 * site, its name rebound to 127.0.0.1, would otherwise reach the lab's routes from the browser of
 * the person running it); unset elsewhere: any host. Probes are always answered, since Kubernetes
 * sends them to the pod's IP address.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';

/** A host name, an IPv4 address, or an IPv6 address in brackets; no port. */
const HOST_NAME = /^(\[[0-9a-f:.]+\]|[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*)$/;

/** One spelling per name: lower case, without the trailing dot of a fully qualified name. */
const normalized = (name: string) => name.trim().toLowerCase().replace(/\.$/, '');

/** The setting: comma-separated names, e.g. `lab.example.org,localhost`; each checked at start. */
export const AllowedHostsSetting = z
  .string()
  .default('')
  .transform((text, ctx) => {
    const names = text.split(',').map(normalized).filter((n) => n !== '');
    for (const name of names) {
      if (!HOST_NAME.test(name)) ctx.addIssue({ code: 'custom', message: `'${name}' is not a host name (letters, digits, dots and hyphens, or [IPv6]; no port, no scheme)` });
    }
    return names;
  });

/** What a browser on the same machine calls a lab bound to loopback. */
export const LOOPBACK_NAMES: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];

/** Whether the address a process listens on is a loopback one (reachable from this machine only). */
export function isLoopback(bindHost: string): boolean {
  const h = normalized(bindHost).replace(/^\[|\]$/g, '');
  return h === 'localhost' || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/** The names a process answers to: ALLOWED_HOSTS as set, else the loopback names when it listens on loopback, else any (empty). */
export function hostsToAllow(setting: readonly string[], bindHost: string): readonly string[] {
  if (setting.length > 0) return setting;
  return isLoopback(bindHost) ? LOOPBACK_NAMES : [];
}

/** The name part of a Host header (`Lab.Example.org:8080` → `lab.example.org`, `[::1]:80` → `[::1]`). */
export function hostName(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const text = header.trim();
  const name = text.startsWith('[') ? text.slice(0, text.indexOf(']') + 1) : text.replace(/:\d*$/, '');
  return name === '' ? undefined : normalized(name);
}

/** The paths answered whatever the Host: liveness, readiness and metrics. */
export const PROBE_PATHS = /^\/(dashboard\/healthz|healthz|readyz|metrics)(\?|$)/;

/**
 * Express-compatible middleware: with `allowed` empty, nothing; else a 421 `{ error, field }` for
 * a request to another name (or none), except on PROBE_PATHS.
 */
export function allowedHosts(allowed: readonly string[]) {
  const names = new Set(allowed);
  return (req: IncomingMessage, res: ServerResponse, next: () => void): void => {
    if (names.size === 0 || PROBE_PATHS.test(req.url ?? '')) return next();
    const name = hostName(req.headers.host);
    if (name !== undefined && names.has(name)) return next();
    res.statusCode = 421;
    res.setHeader('content-type', 'application/json; charset=utf-8');
    res.end(JSON.stringify({ error: `this lab does not answer to the host ${name === undefined ? '(none given)' : `'${name}'`}: the Host header must name one of ALLOWED_HOSTS`, field: 'headers.host' }));
  };
}
