import { defineConfig } from 'tsup';

export default defineConfig((options) => ({
  entry: {
    index: 'src/index.ts',
    'testing/index': 'src/testing/index.ts',
    'react-router/index': 'src/react-router/index.ts',
  },
  format: ['esm', 'cjs'],
  dts: true,
  // `npm run dev` builds first, then watches: keep dist/ while the app's dev server reads it.
  clean: !options.watch,
  target: 'es2022',
  // Not 'browser': esbuild would then hard-code process.env.NODE_ENV as "development", and the
  // app's own bundler must decide it.
  platform: 'neutral',
  sourcemap: true,
  // The subpath entries import the main entry by name, so an app holds one copy of the React
  // context whichever entries it uses.
  external: ['@oidc-kit/react', 'react', 'react-dom', 'oidc-client-ts', 'react-router', 'jose'],
  // esbuild drops module-level directives when bundling; every entry renders or holds React state.
  banner: { js: "'use client';" },
}));
