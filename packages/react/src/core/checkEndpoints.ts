import type { UserManager } from 'oidc-client-ts';
import { authError } from './errors';
import { isSecureOrLoopback } from './loopback';

/** The discovered URLs the browser is sent to, or sends requests to. */
const discoveredEndpoints = [
  'authorization_endpoint',
  'token_endpoint',
  'userinfo_endpoint',
  'revocation_endpoint',
  'end_session_endpoint',
  'jwks_uri',
];

const checking = new WeakSet<object>();

/**
 * Makes `manager` check its discovery document's endpoints (`assertEndpoint`) each time it reads
 * it, before anything is sent: a sign-in, the callback, sign-out, and the renewal of a session
 * restored on a reload, which reads the document without a sign-in first.
 */
export function checkEndpoints(manager: UserManager): UserManager {
  const service = manager.metadataService;
  if (checking.has(service)) return manager;
  checking.add(service);
  const getMetadata = service.getMetadata.bind(service);
  service.getMetadata = async () => {
    const metadata = await getMetadata();
    for (const name of discoveredEndpoints) {
      assertEndpoint(name, (metadata as Record<string, unknown>)[name]);
    }
    return metadata;
  };
  return manager;
}

/**
 * Refuses a discovered endpoint that is not `https:` (`http:` on this machine only, as for the
 * authority): a `javascript:` one would run in the app's page when the browser is sent there, a
 * plain `http:` one would carry codes and tokens in clear.
 */
function assertEndpoint(name: string, url: unknown): void {
  // Absent, or written as null or "" by a serialiser that writes every field: none to check.
  if (url === undefined || url === null || url === '') return;
  let parsed: URL | undefined;
  try {
    parsed = new URL(String(url));
  } catch {
    // Not a URL: refused below.
  }
  if (parsed !== undefined && isSecureOrLoopback(parsed)) return;
  throw authError(
    'config_invalid',
    process.env.NODE_ENV !== 'production' && [
      `The provider's discovery document gives \`${name}\` ${JSON.stringify(url)}, which is not an https: URL: fix the provider's configuration (its public URL).`,
      'Nothing was sent there.',
    ],
    { field: 'authority' },
  );
}
