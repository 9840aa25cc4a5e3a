import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

const source = (path: string) => fileURLToPath(new URL(`./src/${path}`, import.meta.url));
// Stories and the test kit import the package by name, as an app would; serve it from source.
const packageAliases = [
  { find: /^@oidc-kit\/react$/, replacement: source('index.ts') },
  { find: /^@oidc-kit\/react\/testing$/, replacement: source('testing/index.ts') },
  { find: /^@oidc-kit\/react\/react-router$/, replacement: source('react-router/index.ts') },
  {
    find: /^@oidc-kit\/react\/verify-signature$/,
    replacement: source('verify-signature/index.ts'),
  },
];
const react18 = fileURLToPath(new URL('../test-react18/node_modules/', import.meta.url));
const require = createRequire(import.meta.url);
// Testing Library's ES build, so that Vite (not Node) resolves its imports of react and react-dom.
const testingLibraryEsm = require
  .resolve('@testing-library/react')
  .replace(/index\.js$/, '@testing-library/react.esm.js');
// React Router's ES build, for the same reason (Node's "node" condition picks its CommonJS one).
const reactRouterEsm = require.resolve('react-router').replace(/index\.js$/, 'index.mjs');
// React Router 8, installed beside 7 by the test-react-router8 workspace.
const reactRouter8Dir = '../test-react-router8/node_modules/react-router/';
const reactRouter8 = fileURLToPath(
  new URL(`${reactRouter8Dir}dist/development/index.js`, import.meta.url),
);
const reactRouter8Package = fileURLToPath(
  new URL(`${reactRouter8Dir}package.json`, import.meta.url),
);

const unit = {
  environment: 'jsdom',
  include: ['src/**/*.test.{ts,tsx}', 'test/**/*.test.{ts,tsx}', '.storybook/**/*.test.ts'],
  exclude: ['**/*.node.test.{ts,tsx}'],
  setupFiles: ['./test/setup.ts'],
  restoreMocks: true,
  // CI runs the workspaces' suites side by side on two cores: generous limits, same assertions.
  testTimeout: 20_000,
  unstubGlobals: true,
  unstubEnvs: true,
};

export default defineConfig({
  test: {
    projects: [
      {
        plugins: [react()],
        resolve: { alias: packageAliases },
        test: {
          ...unit,
          name: 'react-19',
          env: { EXPECTED_REACT_MAJOR: '19', EXPECTED_REACT_ROUTER_MAJOR: '7' },
        },
      },
      {
        plugins: [react()],
        resolve: {
          alias: [
            ...packageAliases,
            { find: /^@testing-library\/react$/, replacement: testingLibraryEsm },
            { find: /^react-router$/, replacement: reactRouterEsm },
            { find: /^react(\/.*)?$/, replacement: `${react18}react$1` },
            { find: /^react-dom(\/.*)?$/, replacement: `${react18}react-dom$1` },
          ],
        },
        // Inlined so that their own imports of react / react-dom go through the aliases above.
        test: {
          ...unit,
          name: 'react-18',
          env: { EXPECTED_REACT_MAJOR: '18', EXPECTED_REACT_ROUTER_MAJOR: '7' },
          server: { deps: { inline: ['@testing-library/react', 'react-router', /@storybook\//] } },
        },
      },
      {
        plugins: [react()],
        resolve: {
          alias: [
            ...packageAliases,
            { find: /^react-router$/, replacement: reactRouter8 },
            { find: /^react-router\/package\.json$/, replacement: reactRouter8Package },
          ],
        },
        // The router entry, its stories and the reference routes on React Router 8 (7 above).
        test: {
          ...unit,
          name: 'react-router-8',
          include: ['src/react-router/**/*.test.{ts,tsx}', 'test/reactRouterVersion.test.ts'],
          env: { EXPECTED_REACT_ROUTER_MAJOR: '8' },
          server: { deps: { inline: ['react-router'] } },
        },
      },
      {
        // Checks on the package as shipped and as linted; the dist test needs `npm run build` first.
        test: {
          name: 'package',
          environment: 'node',
          include: ['test/**/*.node.test.{ts,tsx}'],
          testTimeout: 60_000,
        },
      },
    ],
  },
});
