import type { User } from 'oidc-client-ts';
import { authError } from './errors';
import { checkIdToken, decodeIdToken, idTokenInvalid } from './idToken';
import type { SessionCore } from './SessionCore';

/**
 * The checks oidc-kit adds before a user reaches the store (design: Security defaults): the
 * callback's RFC 9207 `iss`, and the ID-token checks (the signature too with `verifySignature`),
 * for users from the provider and from other tabs. The issuer itself is `assertIssuer.ts`'s.
 */
export class UserChecks {
  constructor(private readonly core: SessionCore) {}

  async checkCallbackIssuer(url: string, params: URLSearchParams, issuer: string): Promise<void> {
    // RFC 9207: the authorization response names its issuer, against mix-up attacks.
    const metadata = (await this.core.manager.metadataService.getMetadata()) as Record<
      string,
      unknown
    >;
    const announced = metadata.authorization_response_iss_parameter_supported;
    // A parameter given twice (RFC 6749 3.1: never) leaves unsaid which one was meant: refused.
    const [iss = null, ...more] = params.getAll('iss');
    if (more.length === 0 && (iss === null ? announced !== true : iss === issuer)) return;
    throw idTokenInvalid(
      'callback_iss',
      process.env.NODE_ENV !== 'production' &&
        (more.length > 0
          ? 'the callback has more than one `iss` parameter.'
          : iss === null
            ? 'the provider announces RFC 9207 but the callback has no `iss` parameter.'
            : `the callback's \`iss\` ${JSON.stringify(iss)} is not the provider's ${JSON.stringify(issuer)}.`),
    );
  }

  /**
   * Every user oidc-client-ts is about to store (rule 3): one of a session, a token it can present,
   * and an ID token that passes the checks, unless it is the one stored already (a refresh that
   * returned none).
   */
  async checkUser(user: User, stored: User | null): Promise<void> {
    // No session to store it under, and no sign-in under way: the session ended while the request
    // that brought this user (a renewal) was out. Refused before it is written, so that a page
    // that leaves now (for the provider's logout) leaves no tokens behind.
    if (this.core.storedSession() === null) {
      throw new Error(
        process.env.NODE_ENV !== 'production'
          ? 'The session ended while this user was requested: it was not stored.'
          : 'no session',
      );
    }
    const previous = this.core.refreshing ?? stored;
    this.checkAccessToken(user, previous);
    if (previous !== null && user.id_token === previous.id_token) return;
    const idToken = user.id_token;
    if (idToken === undefined) {
      throw idTokenInvalid(
        'format',
        process.env.NODE_ENV !== 'production' &&
          'the provider returned no ID token (is `openid` in the scope?).',
      );
    }
    const claims = await this.checkIdTokenOf(idToken, true);
    if (previous !== null && !this.core.freshSignIn && previous.profile.sub !== claims.sub) {
      throw idTokenInvalid(
        'sub',
        process.env.NODE_ENV !== 'production' && 'a renewal returned an ID token for another user.',
      );
    }
    // OpenID Connect Core 12.2 (errata): a refreshed ID token may leave the `nonce` out; one it
    // carries is that of the session's sign-in, or the token was not issued for this session. Not
    // while a sign-in may store its user (a popup that ends during a refresh): its ID token carries
    // the nonce of its own request.
    const first = this.core.freshSignIn ? undefined : this.core.refreshing?.id_token;
    const nonce = first === undefined ? undefined : decodeIdToken(first).nonce;
    if (claims.nonce !== undefined && nonce !== undefined && claims.nonce !== nonce) {
      throw idTokenInvalid(
        'nonce',
        process.env.NODE_ENV !== 'production' &&
          "a renewal returned an ID token whose nonce is not the sign-in's (OpenID Connect Core 12.2).",
      );
    }
  }

  /**
   * An access token this client can present: one was given, and its type is Bearer, or DPoP when
   * the request went with a proof (RFC 6749 7.1: a client must not use a token type it does not
   * understand). A Bearer answer to a request that went with a proof is a downgrade, refused with
   * `dpop: true` or for a bound session; with `'auto'` it is taken, as RFC 9449 §5 lets a provider
   * bind the refresh token alone. A missing type is taken for Bearer. Refused,
   * the token request failed: for a refresh, its token stays spent. `proving`: whether DPoP tokens
   * are presentable; `proven`: whether the request carried a proof (another tab's session brings
   * its own binding, and may be a Bearer one).
   */
  checkAccessToken(
    user: User,
    previous: User | null,
    proving = this.core.presenter.proving,
    proven = proving,
  ): void {
    // oidc-client-ts gives a missing type as ''.
    const type = (user.token_type || 'bearer').toLowerCase();
    const downgrade =
      proven && (this.core.authConfig.dpop === true || /^dpop$/i.test(previous?.token_type ?? ''));
    if (user.access_token && (type === 'dpop' ? proving : type === 'bearer' && !downgrade)) {
      return;
    }
    throw authError(
      previous === null || this.core.freshSignIn ? 'token_exchange_failed' : 'renew_failed',
      process.env.NODE_ENV !== 'production' && [
        user.access_token
          ? `The provider's token response has \`token_type\` ${JSON.stringify(user.token_type)}, which this client cannot present${type === 'dpop' ? ' (it sent no DPoP proof: set `dpop` to use DPoP)' : type === 'bearer' ? ' (it sent a DPoP proof, and `dpop` is true or the session was bound: the provider must bind the token to the key of the proof)' : ''}.`
          : "The provider's token response has no `access_token`.",
        'Nothing was stored.',
      ],
    );
  }

  /**
   * The ID-token checks (rule 3), the signature's too when verification is on. A token from another
   * tab skips the time checks, and is held to the configured authority, which sign-in checked is
   * the discovered issuer (so a new tab takes a session without a request).
   */
  async checkIdTokenOf(idToken: string, fromProvider: boolean) {
    const issuer = fromProvider
      ? await this.core.manager.metadataService.getIssuer()
      : this.core.authConfig.oidc.authority;
    const claims = checkIdToken(idToken, {
      issuer,
      clientId: this.core.authConfig.oidc.client_id,
      clockLeeway: this.core.authConfig.clockLeeway,
      times: fromProvider,
    });
    const verify = this.core.authConfig.verifySignature;
    if (verify !== false) {
      // Fails closed: whatever goes wrong (no JWKS, an unknown key, a bad signature, `alg: none`).
      let jwksUri: string | undefined;
      try {
        jwksUri = await this.core.manager.metadataService.getKeysEndpoint(false);
        await verify(idToken, {
          jwksUri: jwksUri as string,
          timeout: this.core.authConfig.timeout,
        });
      } catch (cause) {
        throw idTokenInvalid(
          'signature',
          process.env.NODE_ENV !== 'production' &&
            `its signature could not be verified against ${jwksUri ?? "the provider's keys (no jwks_uri)"} (${cause instanceof Error ? cause.message : String(cause)}).`,
          cause,
        );
      }
    }
    return claims;
  }
}
