import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    environment: 'node',
    include: ['src/**/*.test.ts'],
    restoreMocks: true,
    unstubEnvs: true,
    // CI runs the workspaces' suites side by side on two cores.
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
