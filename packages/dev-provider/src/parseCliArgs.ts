import { parseArgs } from 'node:util';
import type { ConfigErrorLocation } from './DevProviderConfigError.js';
import { checkScopeToken } from './parseApiScopes.js';
import type { DevProviderOptions } from './startDevProvider.js';

/** What the command line asks for: start with options, or print help or the version. */
export type CliCommand =
  { kind: 'start'; options: DevProviderOptions } | { kind: 'help' } | { kind: 'version' };

/** A command line that cannot be understood; the message says what to type instead. */
export class CliUsageError extends Error {
  override readonly name = 'CliUsageError';
}

/** Usage text printed by `--help`. */
export const cliUsage = `Usage: oidc-kit-dev-provider [options]

Starts a local OpenID Provider with seeded users (alice / alice, bob / bob).

Options:
  --port <n>                 port to listen on (default 4000, or OIDC_KIT_PROVIDER_PORT; 0 = any free port)
  --host <address>           address to listen on (default localhost; warns if not loopback)
  --issuer <origin>          public origin if not http://localhost:<port>
  --users-file <path>        JSON array of users replacing the seeded ones
  --clients-file <path>      JSON array of clients besides reference-app
  --keys-file <path>         JWKS with the signing keys; created if missing, so tokens survive restarts
  --access-token-ttl <s>     access token lifetime in seconds (default 300)
  --id-token-ttl <s>         ID token lifetime in seconds (default 300)
  --refresh-token-ttl <s>    refresh token lifetime in seconds (default 28800)
  --api-audience <url>       audience of the API access tokens (default http://localhost:4001)
  --api-scope <scope>        a scope API access tokens may carry (besides openid profile email roles)
                             for a client that asks for it; repeatable, or several separated by spaces
                             (or OIDC_KIT_PROVIDER_API_SCOPES="invoices:read invoices:write")
  --dpop-nonce               ask every DPoP proof for a provider-issued nonce (as strict providers do)
  --quiet                    print only the ready line, warnings and errors
  --help                     show this help
  --version                  show the version
`;

/** Parses the arguments and the environment of the CLI. */
export function parseCliArgs(
  args: readonly string[],
  env: Record<string, string | undefined>,
): CliCommand {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...args],
      strict: true,
      allowPositionals: false,
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        issuer: { type: 'string' },
        'users-file': { type: 'string' },
        'clients-file': { type: 'string' },
        'keys-file': { type: 'string' },
        'access-token-ttl': { type: 'string' },
        'id-token-ttl': { type: 'string' },
        'refresh-token-ttl': { type: 'string' },
        'api-audience': { type: 'string' },
        'api-scope': { type: 'string', multiple: true },
        'dpop-nonce': { type: 'boolean' },
        quiet: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean' },
      },
    }));
  } catch (error) {
    throw new CliUsageError(
      `oidc-kit-dev-provider: ${(error as Error).message.replace(/[^.]$/, '$&.')} Run oidc-kit-dev-provider --help for the options.`,
    );
  }
  if (values.help) return { kind: 'help' };
  if (values.version) return { kind: 'version' };

  const options: DevProviderOptions = {};
  // An empty variable (`OIDC_KIT_PROVIDER_PORT=` in an .env file) means unset, as for most tools.
  const port = values.port ?? (env.OIDC_KIT_PROVIDER_PORT?.trim() || undefined);
  if (port !== undefined) {
    options.port = integer(
      values.port === undefined ? 'OIDC_KIT_PROVIDER_PORT' : '--port',
      port,
      0,
    );
  }
  if (values.host !== undefined) options.host = values.host;
  if (values.issuer !== undefined) options.issuer = values.issuer;
  if (values['users-file'] !== undefined) options.usersFile = values['users-file'];
  if (values['clients-file'] !== undefined) options.clientsFile = values['clients-file'];
  if (values['keys-file'] !== undefined) options.keysFile = values['keys-file'];
  if (values['api-audience'] !== undefined) options.apiAudience = values['api-audience'];
  const apiScopes = cliApiScopes(values['api-scope'], env.OIDC_KIT_PROVIDER_API_SCOPES);
  if (apiScopes !== undefined) options.apiScopes = apiScopes;
  const ttl = (flag: string, value: string | undefined) =>
    value === undefined ? undefined : integer(flag, value, 1);
  const accessTokenTtl = ttl('--access-token-ttl', values['access-token-ttl']);
  const idTokenTtl = ttl('--id-token-ttl', values['id-token-ttl']);
  const refreshTokenTtl = ttl('--refresh-token-ttl', values['refresh-token-ttl']);
  if (accessTokenTtl !== undefined) options.accessTokenTtl = accessTokenTtl;
  if (idTokenTtl !== undefined) options.idTokenTtl = idTokenTtl;
  if (refreshTokenTtl !== undefined) options.refreshTokenTtl = refreshTokenTtl;
  if (values['dpop-nonce']) options.dpopNonce = true;
  if (values.quiet) options.quiet = true;
  return { kind: 'start', options };
}

/**
 * The scopes of `--api-scope` (repeated) or else of `OIDC_KIT_PROVIDER_API_SCOPES`; undefined if
 * neither is given. Throws a `DevProviderConfigError` naming the flag or variable.
 */
function cliApiScopes(
  flags: string[] | undefined,
  variable: string | undefined,
): string[] | undefined {
  const location: ConfigErrorLocation =
    flags === undefined
      ? { kind: 'variable', source: 'OIDC_KIT_PROVIDER_API_SCOPES' }
      : { kind: 'option', source: '--api-scope' };
  // An empty variable means unset, as for the port; an empty flag is a mistake, reported below.
  const given = flags ?? (variable?.trim() ? [variable] : []);
  if (given.length === 0) return undefined;
  return given.flatMap((value) => {
    // Separated by spaces, as in OAuth's `scope` parameter: a comma is a scope character.
    const scopes = value.split(/[ \t\r\n]+/).filter(Boolean);
    if (scopes.length === 0) checkScopeToken(value, location);
    for (const scope of scopes) checkScopeToken(scope, location);
    return scopes;
  });
}

function integer(name: string, value: string, min: number): number {
  const number = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(number) || number < min) {
    throw new CliUsageError(
      `oidc-kit-dev-provider: ${name} must be a whole number${min > 0 ? ` of at least ${min}` : ''} (got ${JSON.stringify(value)}).`,
    );
  }
  return number;
}
