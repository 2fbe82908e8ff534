/** The API's descriptions: OpenAPI, the sweep spec's JSON Schema, the agents' parameter table. */
import { Router } from 'express';
import { agentCatalog } from '@wonderlab/shared';
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
    res.json(agentCatalog());
  });
  return router;
}
