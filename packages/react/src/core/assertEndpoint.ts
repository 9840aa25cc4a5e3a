import { authError } from './errors';
import { loopbackHosts } from './loopback';

/** The discovered URLs the browser is sent to, or sends requests to. */
export const discoveredEndpoints = [
  'authorization_endpoint',
  'token_endpoint',
  'userinfo_endpoint',
  'revocation_endpoint',
  'end_session_endpoint',
  'jwks_uri',
];

/**
 * Refuses a discovered endpoint that is not `https:` (`http:` on this machine only, as for the
 * authority): a `javascript:` one would run in the app's page when the browser is sent there, a
 * plain `http:` one would carry codes and tokens in clear.
 */
export function assertEndpoint(name: string, url: unknown): void {
  let parsed: URL | undefined;
  try {
    parsed = new URL(String(url));
  } catch {
    // Not a URL: refused below.
  }
  if (
    parsed?.protocol === 'https:' ||
    (parsed?.protocol === 'http:' && loopbackHosts.has(parsed.hostname))
  ) {
    return;
  }
  throw authError(
    'config_invalid',
    process.env.NODE_ENV !== 'production' && [
      `The provider's discovery document gives \`${name}\` ${JSON.stringify(url)}, which is not an https: URL: fix the provider's configuration (its public URL).`,
      'Nothing was sent there.',
    ],
    { field: 'authority' },
  );
}
