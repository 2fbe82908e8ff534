import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['shared/test/**/*.test.ts', 'services/*/test/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 60_000,
    // The Python environment, made once before the files that use it run side by side.
    globalSetup: ['test/support/python-env.ts'],
  },
});
