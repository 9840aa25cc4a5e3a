import { randomBytes } from 'node:crypto';
import {
  errors,
  interactionPolicy,
  type Configuration,
  type KoaContextWithOIDC,
} from 'oidc-provider';
// oidc-provider's in-memory store, created per provider so that providers in one process (tests)
// never share state. Passing it explicitly also silences the "development-only adapter" warning,
// which is the point of this package.
import { createMemoryAdapter } from 'oidc-provider/lib/adapters/memory_adapter.js';
import { idTokenHintMatchesSession } from './idTokenHintMatchesSession.js';
import { referenceAppClient } from './loadClientsFile.js';
import type { DevClient } from './loadClientsFile.js';
import { corsAllowed, loopbackClient } from './loopbackClient.js';
import type { ResolvedDevUser } from './loadUsersFile.js';
import type { SigningKeys } from './loadSigningKeys.js';
import { renderErrorPage } from './renderErrorPage.js';
import { renderLogoutPage, renderSignedOutPage } from './renderLogoutPage.js';
import type { Page } from './renderPage.js';

/** Everything the oidc-provider configuration is built from, already checked. */
export interface ProviderSettings {
  users: readonly ResolvedDevUser[];
  clients: readonly DevClient[];
  keys: SigningKeys;
  accessTokenTtl: number;
  idTokenTtl: number;
  refreshTokenTtl: number;
  apiAudience: string;
  /** Scopes an access token for the API may carry. */
  apiScopes: readonly string[];
  /** Every DPoP proof must carry a nonce the provider issued. */
  dpopNonce: boolean;
  /** The port it listens on. */
  port: number;
}

const day = 24 * 60 * 60;
const clockTolerance = 15;

/**
 * The oidc-provider configuration of the dev provider: public first-party clients with PKCE and no
 * consent screen, claims in the ID token, JWT access tokens for the reference API, refresh token
 * rotation, revocation and RP-initiated logout. Interactions are served by our own login page.
 */
export function createProviderConfiguration(settings: ProviderSettings): Configuration {
  const { users, clients, apiAudience, apiScopes } = settings;
  const userBySub = new Map(users.map((user) => [user.sub, user]));
  const clientById = new Map(clients.map((client) => [client.client_id, client]));

  return {
    adapter: createMemoryAdapter(clockTolerance),
    clockTolerance,
    clients: clients.map((client) => ({
      client_id: client.client_id,
      client_name: client.client_name ?? client.client_id,
      application_type: 'web',
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      redirect_uris: client.redirect_uris,
      post_logout_redirect_uris: client.post_logout_redirect_uris ?? [],
      dpop_bound_access_tokens: client.dpop_bound_access_tokens === true,
      // The built-in client takes an app on any loopback port; the ones you add, their URIs exactly.
      ...(client.client_id === referenceAppClient.client_id
        ? loopbackClient(client.redirect_uris, client.post_logout_redirect_uris ?? [])
        : null),
    })),
    clientAuthMethods: ['none'],
    responseTypes: ['code'],
    allowOmittingSingleRegisteredRedirectUri: false,
    pkce: { required: () => true },
    scopes: ['openid', 'offline_access', 'profile', 'email', 'roles'],
    claims: {
      openid: ['sub'],
      profile: ['name', 'preferred_username', 'roles'],
      email: ['email', 'email_verified'],
      roles: ['roles'],
    },
    // Off so that the ID token itself carries the profile claims, as the React client reads them.
    conformIdTokenClaims: false,
    jwks: { keys: settings.keys.keys as NonNullable<Configuration['jwks']>['keys'] },
    cookies: {
      keys: [randomBytes(32).toString('base64url')],
      // Browsers do not keep cookies apart by port: a second dev provider on this host (another
      // app's) would overwrite these, and sign the user out here, under the default names.
      names: {
        session: `_session_${settings.port}`,
        interaction: `_interaction_${settings.port}`,
        resume: `_interaction_resume_${settings.port}`,
      },
    },

    async findAccount(_ctx, sub) {
      const user = userBySub.get(sub);
      if (user === undefined) return undefined;
      return {
        accountId: user.sub,
        claims: () => ({
          sub: user.sub,
          preferred_username: user.username,
          ...(user.name === undefined ? {} : { name: user.name }),
          ...(user.email === undefined
            ? {}
            : { email: user.email, email_verified: user.email_verified }),
          roles: user.roles,
        }),
      };
    },

    async extraTokenClaims(_ctx, token) {
      const user = token.kind === 'AccessToken' ? userBySub.get(token.accountId) : undefined;
      if (user === undefined) return undefined;
      // The API greets the user by name without a userinfo call.
      return user.name === undefined
        ? { roles: user.roles }
        : { roles: user.roles, name: user.name };
    },

    // Every client here is first-party: grant whatever it asks for, so there is no consent screen.
    async loadExistingGrant(ctx) {
      const { oidc } = ctx;
      const client = oidc.client!;
      const accountId = oidc.session!.accountId!;
      const grantId = oidc.result?.consent?.grantId ?? oidc.session!.grantIdFor(client.clientId);
      let grant = grantId === undefined ? undefined : await oidc.provider.Grant.find(grantId);
      if (grant === undefined || grant.accountId !== accountId) {
        grant = new oidc.provider.Grant({ accountId, clientId: client.clientId });
      }
      grant.addOIDCScope(oidc.requestParamOIDCScopes);
      if (oidc.requestParamClaims.size > 0) grant.addOIDCClaims(oidc.requestParamClaims);
      for (const [indicator, server] of Object.entries(oidc.resourceServers ?? {})) {
        const scopes = [...oidc.requestParamScopes].filter((scope) => server.scopes.has(scope));
        if (scopes.length > 0) grant.addResourceScope(indicator, scopes);
      }
      await grant.save();
      return grant;
    },

    // Refresh tokens for every client, without asking for offline_access (which needs consent).
    issueRefreshToken: (_ctx, client) => client.grantTypeAllowed('refresh_token'),

    clientBasedCORS: (_ctx, origin, client) =>
      corsAllowed(origin, client.redirectUris ?? [], client.applicationType === 'native'),

    async renderError(ctx, out) {
      const fix = returnAddressFix(ctx, out) ?? unknownClientFix(ctx, out, clientById.keys());
      // Also in the terminal: the developer may be looking there rather than at the browser.
      if (fix !== undefined) console.warn(`oidc-kit-dev-provider: ${fix}`);
      send(ctx, renderErrorPage({ ...out }, { signOut: ctx.oidc?.route === 'end_session', fix }));
    },

    interactions: { policy: interactionPolicyWithoutNativeClientPrompt() },

    features: {
      devInteractions: { enabled: false },
      // DPoP (RFC 9449): a token request with a proof gets tokens bound to its key (`cnf.jkt` in
      // the access token; a public client's refresh token too). Discovery advertises the algs.
      // Nonces are always on: without a secret, a proof from a browser whose clock is off by more
      // than the iat window is refused outright, where with one it gets `use_dpop_nonce` (§8).
      dPoP: {
        enabled: true,
        nonceSecret: randomBytes(32),
        requireNonce: () => settings.dpopNonce,
      },
      revocation: {
        enabled: true,
        allowedPolicy: (_ctx, client, token) => token.clientId === client.clientId,
      },
      userinfo: { enabled: true },
      rpInitiatedLogout: {
        enabled: true,
        async logoutSource(ctx, form) {
          const name = ctx.oidc.client?.clientName;
          send(
            ctx,
            renderLogoutPage({
              form,
              ...(name === undefined ? {} : { clientName: name }),
              // A client_id alone proves nothing: any page can link here with one (logout CSRF).
              autoSubmit: idTokenHintMatchesSession(ctx),
            }),
          );
        },
        async postLogoutSuccessSource(ctx) {
          const name = ctx.oidc.client?.clientName;
          send(ctx, renderSignedOutPage(name === undefined ? {} : { clientName: name }));
        },
      },
      resourceIndicators: {
        enabled: true,
        // No `resource` asked for: access tokens for the reference API, unless the client is set
        // up for userinfo tokens.
        defaultResource(_ctx, client, oneOf) {
          if (oneOf !== undefined) return oneOf.includes(apiAudience) ? apiAudience : oneOf;
          return clientById.get(client.clientId)?.access_tokens_for === 'userinfo'
            ? undefined
            : apiAudience;
        },
        // The token endpoint issues for the resource granted at authorization (the default one
        // included) without the client repeating `resource`.
        useGrantedResource: () => true,
        getResourceServerInfo(_ctx, resourceIndicator) {
          if (resourceIndicator !== apiAudience) {
            throw new errors.InvalidTarget(
              `this provider only issues access tokens for the resource ${apiAudience}`,
            );
          }
          // The API's own scopes belong here, not in `scopes` (OpenID scopes, listed in discovery).
          // A scope asked for that neither list has is left out of the tokens, without an error.
          return {
            scope: apiScopes.join(' '),
            audience: apiAudience,
            accessTokenTTL: settings.accessTokenTtl,
            accessTokenFormat: 'jwt',
            jwt: { sign: { alg: 'RS256' } },
          };
        },
      },
    },

    // Every client is public: refresh tokens rotate on every use, DPoP-bound ones too (oidc-provider
    // would keep a sender-constrained one), as the strictest providers do (RFC 9700 §4.14.2).
    rotateRefreshToken: () => true,

    ttl: {
      AccessToken: (_ctx, token) => token.resourceServer?.accessTokenTTL ?? settings.accessTokenTtl,
      AuthorizationCode: 60,
      IdToken: settings.idTokenTtl,
      RefreshToken(ctx, _token, client) {
        const rotated = ctx?.oidc?.entities.RotatedRefreshToken;
        // A rotated public-client token keeps the lifetime of the first one: rotation must not
        // extend a sign-in forever.
        if (rotated && client.clientAuthMethod === 'none') {
          return rotated.remainingTTL;
        }
        return settings.refreshTokenTtl;
      },
      Interaction: 60 * 60,
      Session: Math.max(14 * day, settings.refreshTokenTtl),
      Grant: Math.max(14 * day, settings.refreshTokenTtl),
    },
  };
}

/**
 * oidc-provider's interaction policy without its "native clients require End-User interaction"
 * check. `reference-app` is registered as a native client only so that any loopback port matches
 * (RFC 8252 §7.3); it is a first-party browser app, and this provider asks no client for consent.
 * With the check, its `prompt=none` renewals always failed with `interaction_required`.
 */
function interactionPolicyWithoutNativeClientPrompt() {
  const policy = interactionPolicy.base();
  policy.get('consent')!.checks.remove('native_client_prompt');
  return policy;
}

function send(ctx: KoaContextWithOIDC, page: Page): void {
  ctx.set(page.headers);
  ctx.type = 'html';
  ctx.body = page.html;
}

/**
 * For a sign-in or sign-out refused because no client has its `client_id` (a typo in the app's
 * config, usually): the id asked for, the registered ones, and how to add one. Undefined otherwise.
 */
function unknownClientFix(
  ctx: KoaContextWithOIDC,
  out: { error?: string },
  registered: Iterable<string>,
): string | undefined {
  if (out.error !== 'invalid_client' || ctx.oidc?.client !== undefined) return undefined;
  const asked = (ctx.oidc?.params as Record<string, unknown> | undefined)?.client_id;
  if (typeof asked !== 'string') return undefined;
  return `No client has the client_id ${quoted(asked)} here (registered: ${[...registered].join(', ')}). Check client_id in the app's config, or register the client in a clients file: oidc-kit-dev-provider --clients-file clients.json (see the README, "Clients").`;
}

/**
 * For a request refused because of where it asked to return (an unregistered `redirect_uri` or
 * `post_logout_redirect_uri`): the address asked for, the client's accepted ones, and how to add
 * one. Undefined for other errors.
 */
function returnAddressFix(
  ctx: KoaContextWithOIDC,
  out: { error?: string; error_description?: string },
): string | undefined {
  const name =
    out.error === 'invalid_redirect_uri'
      ? 'redirect_uri'
      : (out.error_description ?? '').includes('post_logout_redirect_uri')
        ? 'post_logout_redirect_uri'
        : undefined;
  if (name === undefined) return undefined;
  const client = ctx.oidc?.client;
  const accepted = name === 'redirect_uri' ? client?.redirectUris : client?.postLogoutRedirectUris;
  const asked = (ctx.oidc?.params as Record<string, unknown> | undefined)?.[name];
  return `${String(client?.clientId ?? 'The client')} asked to return to ${quoted(String(asked))}, which is not one of its ${name}s (${accepted?.join(', ') || 'none'}${client?.applicationType === 'native' ? ', at any port' : ''}). To accept it, register it in a clients file: oidc-kit-dev-provider --clients-file clients.json (see the README, "Clients").`;
}

/**
 * `value` in double quotes with every control character escaped (C0, DEL and C1): a request's
 * parameters come from any page, and must not reach the terminal as escape sequences.
 */
function quoted(value: string): string {
  // JSON.stringify escapes C0; DEL and C1 are left.
  return JSON.stringify(value).replace(
    /\p{Cc}/gu,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
