/** The API token check: `Authorization: Bearer <token>`, the scheme in any case (RFC 7235). */
import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * Whether an Authorization header carries `token` with the Bearer scheme. The scheme is
 * case-insensitive ("bearer", "BEARER"); the token is not. Compared in constant time over
 * digests, so neither the token nor its length leaks through timing.
 */
export function tokenMatches(header: string | undefined, token: string): boolean {
  const m = /^\s*bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return m !== null && timingSafeEqual(digest(m[1]), digest(token));
}
