import { defineConfig } from '@playwright/test';
import { chromiumLaunchOptions } from '@oidc-kit/test-chromium';
import { e2e } from './e2e/stack';

// The whole chain, on ports of its own so that `npm run dev` may run beside it: the dev provider
// with 20-second access tokens, the reference API, and a production build of the app.
export default defineConfig({
  testDir: 'e2e',
  timeout: 120_000,
  expect: { timeout: 10_000 },
  workers: 1,
  reporter: [['list']],
  use: {
    baseURL: e2e.app,
    launchOptions: chromiumLaunchOptions(),
  },
  webServer: [
    {
      command: `node ../../packages/dev-provider/bin/oidc-kit-dev-provider.js --port ${e2e.providerPort} --api-audience ${e2e.api} --clients-file e2e/clients.json --access-token-ttl 20 --quiet`,
      url: `${e2e.provider}/.well-known/openid-configuration`,
      timeout: 30_000,
    },
    {
      command: 'node ../reference-api/dist/server.js',
      url: `${e2e.api}/health`,
      env: {
        REFERENCE_API_PORT: String(e2e.apiPort),
        OIDC_ISSUER: e2e.provider,
        API_AUDIENCE: e2e.api,
        // Each build of the app calls it: its main one, the memory-storage one, the idle one.
        APP_ORIGIN: [e2e.app, e2e.memoryApp, e2e.idleApp].join(','),
      },
      timeout: 30_000,
    },
    {
      command: `vite build --outDir dist-e2e --emptyOutDir --logLevel warn && vite preview --outDir dist-e2e --port ${e2e.appPort} --strictPort`,
      url: e2e.app,
      env: {
        VITE_OIDC_AUTHORITY: e2e.provider,
        VITE_OIDC_CLIENT_ID: 'reference-app-e2e',
        VITE_API_URL: e2e.api,
      },
      timeout: 60_000,
    },
    {
      command: `vite build --outDir dist-e2e-memory --emptyOutDir --logLevel warn && vite preview --outDir dist-e2e-memory --port ${e2e.memoryAppPort} --strictPort`,
      url: e2e.memoryApp,
      env: {
        VITE_OIDC_AUTHORITY: e2e.provider,
        VITE_OIDC_CLIENT_ID: 'reference-app-e2e-memory',
        VITE_OIDC_STORAGE: 'memory',
        VITE_API_URL: e2e.api,
      },
      timeout: 60_000,
    },
    {
      command: `vite build --outDir dist-e2e-idle --emptyOutDir --logLevel warn && vite preview --outDir dist-e2e-idle --port ${e2e.idleAppPort} --strictPort`,
      url: e2e.idleApp,
      env: {
        VITE_OIDC_AUTHORITY: e2e.provider,
        VITE_OIDC_CLIENT_ID: 'reference-app-e2e-idle',
        VITE_API_URL: e2e.api,
        VITE_OIDC_IDLE_TIMEOUT: '20000',
        VITE_OIDC_IDLE_WARNING: '14000',
      },
      timeout: 60_000,
    },
  ],
});
