import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { DevProviderConfigError } from './DevProviderConfigError.js';
import { isLoopbackHost, isLoopbackHostHeader } from './isLoopbackHost.js';
import {
  loadClientsFile,
  parseClients,
  referenceAppClient,
  type DevClient,
} from './loadClientsFile.js';
import { loadSigningKeys } from './loadSigningKeys.js';
import { builtInApiScopes, parseApiScopes } from './parseApiScopes.js';
import {
  defaultUsersFile,
  loadUsersFile,
  parseUsers,
  type DevUser,
  type ResolvedDevUser,
} from './loadUsersFile.js';
import { PortInUseError } from './PortInUseError.js';

/** Options of {@link startDevProvider}; every one has a default. */
export interface DevProviderOptions {
  /** Port to listen on; `0` picks a free one (read it from the result). Default `4000`. */
  port?: number;
  /**
   * Address to listen on. Default `localhost`. Any address but a loopback one (`localhost`,
   * 127.0.0.0/8, `::1`) makes the provider reachable from other machines, with a warning.
   */
  host?: string;
  /** Public origin of the provider, if not `http://localhost:<port>`. No path, no trailing slash. */
  issuer?: string;
  /** Users who can sign in; default: the seeded users file. Not with `usersFile`. */
  users?: DevUser[];
  /** JSON file with an array of users, replacing the seeded ones. Not with `users`. */
  usersFile?: string;
  /** Clients registered besides the built-in `reference-app`. Not with `clientsFile`. */
  clients?: DevClient[];
  /** JSON file with an array of extra clients. Not with `clients`. */
  clientsFile?: string;
  /** JWKS file with the signing keys; created with a new key if missing. Default: a key per start. */
  keysFile?: string;
  /** Access token lifetime in seconds. Default 300. */
  accessTokenTtl?: number;
  /** ID token lifetime in seconds. Default 300. */
  idTokenTtl?: number;
  /** Refresh token lifetime in seconds, not extended by rotation. Default 28800 (8 hours). */
  refreshTokenTtl?: number;
  /** Audience of the JWT access tokens for the reference API. Default `http://localhost:4001`. */
  apiAudience?: string;
  /**
   * Scopes the API's access tokens may carry besides `openid`, `profile`, `email` and `roles`, e.g.
   * `['invoices:read']`. A token carries one only if the client asked for it in its `scope`.
   */
  apiScopes?: readonly string[];
  /**
   * Asks every DPoP proof at the token endpoint to carry a nonce the provider issued (the
   * `DPoP-Nonce` header, RFC 9449 §8), as strict providers do. Default `false`.
   */
  dpopNonce?: boolean;
  /** Print nothing but errors and warnings (no ready line, no sign-in log). Default `false`. */
  quiet?: boolean;
}

/** A running dev provider. */
export interface DevProvider {
  /** The issuer, exactly as discovery returns it, e.g. `http://localhost:4000`. */
  issuer: string;
  /** The port it listens on (useful with `port: 0`). */
  port: number;
  /** Audience of the API access tokens. */
  apiAudience: string;
  /** Every scope the API access tokens may carry: the built-in ones, then those given. */
  apiScopes: readonly string[];
  /** The users who can sign in, defaults filled in. */
  users: readonly ResolvedDevUser[];
  /** All registered clients, `reference-app` first. */
  clients: readonly DevClient[];
  /** Stops the server and drops every session and token it holds. */
  stop(): Promise<void>;
}

/** Default values of the {@link DevProviderOptions}. */
export const devProviderDefaults = {
  port: 4000,
  host: 'localhost',
  accessTokenTtl: 300,
  idTokenTtl: 300,
  refreshTokenTtl: 8 * 60 * 60,
  apiAudience: 'http://localhost:4001',
} as const;

/** Whether `issuer` is this server's own address: plain http on a loopback name, at `port`. */
function isOwnLoopbackOrigin(issuer: string, port: number): boolean {
  const url = new URL(issuer);
  return (
    url.protocol === 'http:' && Number(url.port || 80) === port && isLoopbackHostHeader(url.host)
  );
}

/**
 * Starts a local OpenID Provider (oidc-provider) with the seeded or given users and clients.
 * Rejects with a `DevProviderConfigError` for bad options or files, or a `PortInUseError`.
 */
export async function startDevProvider(options: DevProviderOptions = {}): Promise<DevProvider> {
  const settings = await resolveOptions(options);
  const log = options.quiet ? () => {} : (line: string) => console.log(line);
  // Not silenced by `quiet`: it is the one thing a developer must not miss.
  if (!isLoopbackHost(settings.host)) {
    console.warn(exposedHostWarning(settings.host, settings.seededAccounts));
  }

  const server = createServer();
  const port = await listen(server, settings.port, settings.host);
  const issuer = settings.issuer ?? `http://localhost:${port}`;
  // An issuer that names this very server on loopback (the default, written out) is no proxy's:
  // the Host check stays, and forwarded headers are not trusted.
  const direct = isOwnLoopbackOrigin(issuer, port);

  // Requests that arrive while oidc-provider loads wait for it instead of hanging unanswered.
  const handler = Promise.all([import('./createProviderHandler.js'), settings.keys]).then(
    ([{ createProviderHandler }, keys]) =>
      createProviderHandler(
        issuer,
        {
          ...settings,
          keys,
          port,
          behindProxy: !direct,
          loopbackOnly: direct && isLoopbackHost(settings.host),
        },
        log,
      ),
  );
  server.on('request', (req, res) => {
    handler.then(
      (handle) => handle(req, res),
      () => res.destroy(),
    );
  });
  try {
    await handler;
  } catch (error) {
    server.close();
    throw error;
  }

  let stopping: Promise<void> | undefined;
  const devProvider: DevProvider = {
    issuer,
    port,
    apiAudience: settings.apiAudience,
    apiScopes: settings.apiScopes,
    users: settings.users,
    clients: settings.clients,
    stop() {
      stopping ??= new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
      });
      return stopping;
    },
  };
  log(readyLine(devProvider));
  return devProvider;
}

/** The line printed when the provider is ready, e.g. `… ready at http://localhost:4000 (users: …)`. */
export function readyLine({ issuer, users, clients, apiScopes }: DevProvider): string {
  const usernames = users.map((user) => user.username).join(', ');
  const clientIds = clients.map((client) => client.client_id).join(', ');
  // The scopes given, so that a developer sees the option (or the variable) arrived.
  const added = apiScopes.filter((scope) => !builtInApiScopes.includes(scope));
  const scopes = added.length === 0 ? '' : `; API scopes: ${added.join(' ')}`;
  return `oidc-kit dev provider ready at ${issuer} (users: ${usernames}; clients: ${clientIds}${scopes})`;
}

function exposedHostWarning(host: string, seededAccounts: string | undefined): string {
  const users =
    seededAccounts === undefined
      ? 'its users, with the passwords you gave it,'
      : `the seeded users, whose passwords are public (${seededAccounts}),`;
  return `oidc-kit-dev-provider: warning: host ${host === '' ? '""' : host} is not a loopback address, so other machines can reach this provider. It is for development only: anyone who reaches it can sign in as ${users} and get tokens for every client. Use the default host (localhost) unless another machine must reach it.`;
}

async function resolveOptions(options: DevProviderOptions) {
  const option = (name: string) => ({ kind: 'option', source: name });
  const fail = (name: string, problem: string): never => {
    throw new DevProviderConfigError(option(name), problem);
  };

  const port = options.port ?? devProviderDefaults.port;
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    fail('port', `must be an integer from 0 to 65535 (got ${String(port)}).`);
  }
  const ttl = (name: keyof typeof devProviderDefaults & `${string}Ttl`) => {
    const value = options[name] ?? devProviderDefaults[name];
    if (!Number.isSafeInteger(value) || value <= 0) {
      fail(name, `must be a whole number of seconds greater than 0 (got ${String(value)}).`);
    }
    return value;
  };
  const issuer = options.issuer === undefined ? undefined : originOption('issuer', options.issuer);
  const apiAudience = urlOption(
    'apiAudience',
    options.apiAudience ?? devProviderDefaults.apiAudience,
  );
  const apiScopes = parseApiScopes(options.apiScopes);
  const accessTokenTtl = ttl('accessTokenTtl');
  const idTokenTtl = ttl('idTokenTtl');
  const refreshTokenTtl = ttl('refreshTokenTtl');

  if (options.users !== undefined && options.usersFile !== undefined) {
    fail('users', 'give either users or usersFile, not both.');
  }
  if (options.clients !== undefined && options.clientsFile !== undefined) {
    fail('clients', 'give either clients or clientsFile, not both.');
  }
  const usersFile = options.usersFile ?? defaultUsersFile;
  const users =
    options.users === undefined
      ? await loadUsersFile(usersFile)
      : parseUsers(options.users, option('users'));
  const extraClients =
    options.clientsFile !== undefined
      ? await loadClientsFile(options.clientsFile)
      : options.clients === undefined
        ? []
        : parseClients(options.clients, option('clients'));
  const seeded = options.users === undefined && resolve(usersFile) === defaultUsersFile;
  /** e.g. `alice / alice, bob / bob`: shown on the login page and in the host warning. */
  const seededAccounts = seeded
    ? users.map((user) => `${user.username} / ${user.password}`).join(', ')
    : undefined;

  return {
    port,
    host: options.host ?? devProviderDefaults.host,
    issuer,
    users,
    clients: [referenceAppClient, ...extraClients],
    // A keys file is read (and its errors reported) before listening; a generated key is not
    // awaited here, so that generating it (off the main thread) overlaps loading oidc-provider.
    keys:
      options.keysFile === undefined
        ? loadSigningKeys()
        : Promise.resolve(await loadSigningKeys(options.keysFile)),
    accessTokenTtl,
    idTokenTtl,
    refreshTokenTtl,
    apiAudience,
    apiScopes,
    dpopNonce: options.dpopNonce === true,
    seededAccounts,
    hint: seededAccounts === undefined ? undefined : `Dev accounts: ${seededAccounts}`,
  };

  function urlOption(name: string, value: string): string {
    try {
      new URL(value);
    } catch {
      fail(
        name,
        `must be an absolute URL, e.g. http://localhost:4001 (got ${JSON.stringify(value)}).`,
      );
    }
    return value;
  }

  function originOption(name: string, value: string): string {
    const url = new URL(urlOption(name, value));
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      fail(
        name,
        `must use http: or https:, e.g. http://localhost:4000 (got ${JSON.stringify(value)}).`,
      );
    }
    // Clients compare the issuer as a string: it must be written exactly as a browser writes the
    // origin (lowercase, no default port), not only without a path.
    if (url.origin !== value) {
      fail(
        name,
        `must be an origin with no path or trailing slash, as a browser writes it: ${url.origin} (got ${JSON.stringify(value)}).`,
      );
    }
    return value;
  }
}

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((done, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      reject(
        error.code === 'EADDRINUSE'
          ? new PortInUseError(port)
          : new Error(
              `oidc-kit-dev-provider: cannot listen on ${host}:${port} (${error.code ?? error.message}).`,
            ),
      );
    };
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      done((server.address() as AddressInfo).port);
    });
  });
}
