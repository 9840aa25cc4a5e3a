import { defineConfig } from 'tsup';

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    'testing/index': 'src/testing/index.ts',
    'react-router/index': 'src/react-router/index.ts',
  },
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  target: 'es2022',
  platform: 'browser',
  sourcemap: true,
  // The subpath entries import the main entry by name, so an app holds one copy of the React
  // context whichever entries it uses.
  external: ['@oidc-kit/react', 'react', 'react-dom', 'oidc-client-ts', 'react-router', 'jose'],
  // esbuild drops module-level directives when bundling; every entry renders or holds React state.
  banner: { js: "'use client';" },
});
