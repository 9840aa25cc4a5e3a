import type { KoaContextWithOIDC } from 'oidc-provider';

/**
 * Whether an end-session request carries an `id_token_hint` from the current session: issued to a
 * client signed in with this session, for its user, since that user signed in. Only then may
 * logout go ahead without asking (OpenID Connect RP-Initiated Logout 1.0, section 2).
 */
export function idTokenHintMatchesSession(ctx: KoaContextWithOIDC): boolean {
  // oidc-provider has already verified the hint's signature, issuer and audience (an invalid one
  // never reaches the logout page), and made its audience `ctx.oidc.client`.
  const hint = ctx.oidc.entities.IdTokenHint?.payload;
  const { session, client } = ctx.oidc;
  if (hint === undefined || session?.accountId === undefined || client === undefined) return false;
  const { sub, aud, iat } = hint;
  return (
    sub === session.accountId &&
    aud === client.clientId &&
    session.authorizations?.[client.clientId] !== undefined &&
    // ID tokens carry no session id here; one issued before this sign-in is from another session.
    typeof iat === 'number' &&
    session.loginTs !== undefined &&
    iat >= session.loginTs
  );
}
