/** The sweep a route's :id names, or a 400 (malformed id) / 404 (no such sweep). */
import type { Request } from 'express';
import type { SweepMeta, SweepStore } from '@wonderlab/shared/store';
import { SweepIdParams } from '../api-schemas.js';
import { HttpError, parse } from '../http.js';

export async function findSweep(store: SweepStore, req: Request): Promise<SweepMeta> {
  const { id } = parse(SweepIdParams, req.params, 'params');
  const meta = await store.reads.meta(id);
  if (!meta) throw new HttpError(404, `no sweep '${id}'`);
  return meta;
}
