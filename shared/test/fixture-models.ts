/**
 * The fixture networks of test/fixtures/models as MODELS_DIR for a test file's duration (written
 * by python/tools/make_test_policy.py: policy-3p.onnx, logits only; net-3p.onnx, logits and values).
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from 'vitest';

export const FIXTURE_MODELS = fileURLToPath(new URL('../../test/fixtures/models', import.meta.url));

export function useFixtureModels(): void {
  let before: string | undefined;
  beforeAll(() => {
    before = process.env.MODELS_DIR;
    process.env.MODELS_DIR = FIXTURE_MODELS;
  });
  afterAll(() => {
    if (before === undefined) delete process.env.MODELS_DIR;
    else process.env.MODELS_DIR = before;
  });
}
