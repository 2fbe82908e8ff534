/**
 * How results and records are stored: deflated JSON. A 3-player summary shrinks from about 1.6 KB
 * to about 0.75 KB, which is what a million-game sweep's Redis has to hold. Its own module so that
 * the bench measures a record's stored size with the store's own code.
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib';

export function pack(value: unknown): Buffer {
  return deflateRawSync(JSON.stringify(value));
}

export function unpack(blob: Buffer): unknown {
  return JSON.parse(inflateRawSync(blob).toString('utf8'));
}
