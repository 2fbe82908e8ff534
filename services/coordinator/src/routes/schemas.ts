/** The API's descriptions: OpenAPI, the sweep spec's JSON Schema, the agents' parameter table. */
import { Router } from 'express';
import { agentCatalog, listAgents } from '@wonderlab/shared';
import { openApiDocument, sweepSpecJsonSchema } from '../openapi.js';

export function schemaRoutes(): Router {
  const router = Router();
  router.get('/api/openapi.json', (_req, res) => {
    res.json(openApiDocument());
  });
  router.get('/api/schema/sweep-spec.json', (_req, res) => {
    res.json(sweepSpecJsonSchema());
  });
  router.get('/api/schema/agents.json', (_req, res) => {
    // The outside agents installed now (AGENTS_DIR), read at each request: the operator may add one while the lab runs.
    const outside = listAgents().agents.map(({ manifest: m }) => ({ spec: `ext(name=${m.name})`, name: m.name, version: m.version, summary: m.summary, players: m.players, params: m.params }));
    res.json({ ...agentCatalog(), outside });
  });
  return router;
}
