import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';

const port = Number(process.env.REFERENCE_APP_PORT ?? 5173);

/** Says where to open the app, and how to sign in, once the dev server listens. */
function whereToOpen(): Plugin {
  return {
    name: 'oidc-kit-where-to-open',
    configureServer(server) {
      server.httpServer?.once('listening', () => {
        setTimeout(() => {
          console.log(
            `\n  oidc-kit reference app: open http://localhost:${port} and sign in as alice / alice or bob / bob (admin)\n`,
          );
        }, 100);
      });
    },
  };
}

export default defineConfig({
  plugins: [react(), whereToOpen()],
  server: { port, strictPort: true },
  preview: { port: Number(process.env.REFERENCE_APP_PREVIEW_PORT ?? 4173), strictPort: true },
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['./src/test-setup.ts'],
    restoreMocks: true,
    unstubGlobals: true,
    // The first test pays for loading React Router and the pages: well under a second alone, over
    // 5 s on a 2-core machine while turbo runs the package's 558 tests and Storybook beside it.
    testTimeout: 20_000,
  },
});
