// The shipped build bundled as an app's bundler does for production (NODE_ENV replaced, minified):
// development texts must be dropped, and the short messages with their docs link kept.
import { createRequire } from 'node:module';
import { build } from 'esbuild';
import { describe, expect, test } from 'vitest';

const require = createRequire(import.meta.url);

async function bundle(nodeEnv: 'production' | 'development', format: 'esm' | 'cjs') {
  const entry = require.resolve('@oidc-kit/react');
  const result = await build({
    entryPoints: [format === 'esm' ? entry.replace(/\.cjs$/, '.js') : entry],
    bundle: true,
    minify: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    define: { 'process.env.NODE_ENV': JSON.stringify(nodeEnv) },
    external: ['react', 'react-dom', 'react/*', 'oidc-client-ts', 'jwt-decode', 'jose'],
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}

// One development text from each place that raises errors.
const developmentTexts = [
  'Nothing was sent to the identity provider', // config
  'is not a setting oidc-kit or oidc-client-ts knows', // unknown keys
  'must be on this app', // redirect URIs
  'The ID token failed the', // ID-token checks
  'The identity provider could not be reached', // toAuthError
  'The session ended while waiting to renew it', // renewal
  'The session ended at the identity provider.', // tab session
  'The sign-in window refused the response', // hand-over
  'must be used inside <AuthProvider>', // hooks
  'No user was stored', // handled texts
  'without the access token: that origin', // authFetch's warning
  'AuthClient that was never started', // a token asked of a client never started
  'while this page completes a sign-in', // signIn() on the callback page
  'changed after it mounted', // AuthProvider's config warning
  'mounted without a config and got one later', // the config loaded after the mount
  'got a new client with the same settings', // AuthProvider's client warning
  'is nested in another with the same settings', // AuthProvider in AuthProvider
  'idle settings are in milliseconds', // an idle timeout written in seconds
  'but nothing shows it', // idle sign-out with no warning mounted
  'reader found none for this user', // roles where another reader looks
  'every role check denies access', // a roles reader that gives no list
  'the auth configuration is invalid', // the development panel
  'could not load a chunk of its own code', // the lazy parts
  'OidcKitAuthContext', // the context's name in React DevTools
];

describe.each(['esm', 'cjs'] as const)('the %s build', (format) => {
  test('drops every development message in production', async () => {
    const code = await bundle('production', format);
    for (const text of developmentTexts) expect(code, text).not.toContain(text);
    expect(code).toContain('https://github.com/oidc-kit/oidc-kit/blob/main/docs/errors.md');
  });

  test('keeps them in development', async () => {
    const code = await bundle('development', format);
    for (const text of developmentTexts) expect(code, text).toContain(text);
  });
});
