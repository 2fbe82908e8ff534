/**
 * The security headers of every response of the coordinator and the dashboard. The pages load only
 * their own files: module scripts and chart.js from this origin (/static, /vendor), one stylesheet,
 * a data: favicon, and data from /api (fetch, Server-Sent Events); no inline script or style
 * attribute, no eval. So the policy can allow nothing else, and no other site may frame a page
 * (a framed sweep page was one forced click away from cancelling the sweep).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** Header name → value, set on every response (API answers included: JSON never needs to be framed either). */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  // For browsers that predate frame-ancestors.
  'x-frame-options': 'DENY',
  // A JSON error that echoes a name must never be read as HTML or script.
  'x-content-type-options': 'nosniff',
  // Links out of the lab (a paper's page) do not tell other sites the lab's address or sweep ids.
  'referrer-policy': 'no-referrer',
};

/** Express-compatible middleware that sets SECURITY_HEADERS (a route may still replace one). */
export function securityHeaders() {
  return (_req: IncomingMessage, res: ServerResponse, next: () => void): void => {
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.setHeader(name, value);
    next();
  };
}
