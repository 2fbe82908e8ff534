/**
 * Worker thread of ModelChecks (model-checks.ts): reads a model file, hashes it and loads it into
 * onnxruntime to learn its shape, then frees it. A file of hundreds of megabytes takes seconds and
 * as much memory: here, not on the coordinator's event loop. What is wrong with a file is an
 * answer (its ModelError's message), not a failure of the request.
 */
import { ModelError, inspectNetwork, serveRequests } from '@wonderlab/shared';
import type { ModelReply, ModelRequest } from './model-checks.js';

serveRequests((request: ModelRequest): ModelReply => {
  try {
    return { network: inspectNetwork(request.name, request.maxBytes, request.dirs) };
  } catch (err) {
    if (err instanceof ModelError) return { error: err.message };
    throw err;
  }
});
