import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    environment: 'node',
    include: ['src/**/*.test.ts'],
    // Each test file starts its own provider on a free port; the CLI tests spawn Node processes.
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
