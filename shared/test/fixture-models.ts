/**
 * A folder of networks as MODELS_DIR for a test file's duration: the fixture networks of
 * test/fixtures/models (written by python/tools/make_test_policy.py: policy-3p.onnx, logits only;
 * net-3p.onnx, logits and values), or the published learning runs' folder of the repository.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from 'vitest';

export const FIXTURE_MODELS = fileURLToPath(new URL('../../test/fixtures/models', import.meta.url));

/** The published learning runs (a folder of the default MODELS_DIR): run `strong`'s gen-3 network (hidden 256,256) is `strong/gen-3.onnx` there. */
export const PUBLISHED_MODELS = fileURLToPath(new URL('../../learning', import.meta.url));

export function useModelsDir(dir: string): void {
  let before: string | undefined;
  beforeAll(() => {
    before = process.env.MODELS_DIR;
    process.env.MODELS_DIR = dir;
  });
  afterAll(() => {
    if (before === undefined) delete process.env.MODELS_DIR;
    else process.env.MODELS_DIR = before;
  });
}

export function useFixtureModels(): void {
  useModelsDir(FIXTURE_MODELS);
}
