// Size budgets (`npm run size`). The idle sign-out clock and DPoP are chunks of their own that a
// page loads only when `idle` or `dpop` is configured: the entries below leave them out (an app
// without them never downloads them), and the last entries hold each to its own budget.

/** Marks the optional chunks external, as the app's bundler leaves them out until needed. */
const optionalChunksApart = (config) => ({
  ...config,
  plugins: [
    ...(config.plugins ?? []),
    {
      name: 'optional-chunks-apart',
      setup(build) {
        build.onResolve({ filter: /(IdleClock|DPoP)-[\w-]+\.js$/ }, (args) => ({
          path: args.path,
          external: true,
        }));
      },
    },
  ],
});

/** What an app brings itself, so not counted here (the package's peer and direct dependencies). */
const outside = ['react', 'react-dom', 'oidc-client-ts', 'jwt-decode', 'react-router', 'jose'];

const entries = [
  {
    name: '@oidc-kit/react typical entry (AuthProvider, useAuth, SignInButton, RequireAuth), oidc-client-ts external',
    path: 'dist/index.js',
    import: '{ AuthProvider, useAuth, SignInButton, RequireAuth }',
    ignore: outside,
    gzip: true,
    limit: '17647 B',
  },
  {
    name: '@oidc-kit/react (everything, oidc-client-ts external)',
    path: 'dist/index.js',
    import: '*',
    ignore: outside,
    gzip: true,
    limit: '21087 B',
  },
  {
    name: '@oidc-kit/react typical entry (AuthProvider, useAuth, SignInButton, RequireAuth), oidc-client-ts bundled',
    import: {
      'dist/index.js': '{ AuthProvider, useAuth, SignInButton, RequireAuth }',
      '../../node_modules/oidc-client-ts/dist/esm/oidc-client-ts.js':
        '{ InMemoryWebStorage, OidcClient, User, UserManager, WebStorageStateStore }',
    },
    ignore: ['react', 'react-dom', 'react-router', 'jose'],
    gzip: true,
    limit: '34595 B',
  },
  {
    name: '@oidc-kit/react (everything, oidc-client-ts bundled)',
    import: {
      'dist/index.js': '*',
      '../../node_modules/oidc-client-ts/dist/esm/oidc-client-ts.js':
        '{ InMemoryWebStorage, OidcClient, User, UserManager, WebStorageStateStore }',
    },
    ignore: ['react', 'react-dom', 'react-router', 'jose'],
    gzip: true,
    limit: '37994 B',
  },
  {
    name: '@oidc-kit/react/testing',
    path: 'dist/testing/index.js',
    import: '*',
    ignore: ['@oidc-kit/react', ...outside],
    gzip: true,
    limit: '2057 B',
  },
  {
    name: '@oidc-kit/react/react-router',
    path: 'dist/react-router/index.js',
    import: '*',
    ignore: ['@oidc-kit/react', ...outside],
    gzip: true,
    limit: '1447 B',
  },
  {
    name: '@oidc-kit/react/verify-signature (jose external)',
    path: 'dist/verify-signature/index.js',
    import: '*',
    ignore: ['@oidc-kit/react', 'jose'],
    gzip: true,
    limit: '400 B',
  },
];

// size-limit reads its config from the default export.
// eslint-disable-next-line no-restricted-syntax
export default [
  ...entries.map((entry) => ({ ...entry, modifyEsbuildConfig: optionalChunksApart })),
  {
    name: '@oidc-kit/react idle sign-out clock (a chunk loaded only when idle is set)',
    path: 'dist/IdleClock-*.js',
    ignore: outside,
    gzip: true,
    limit: '1462 B',
  },
  {
    name: '@oidc-kit/react DPoP (a chunk loaded only when dpop is set)',
    path: 'dist/DPoP-*.js',
    ignore: outside,
    gzip: true,
    limit: '1822 B',
  },
];
