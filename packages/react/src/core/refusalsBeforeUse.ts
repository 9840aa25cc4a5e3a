/**
 * Token-endpoint refusals that come before the refresh token is used: the request itself, the
 * client or its DPoP proof was refused (RFC 6749 §5.2, RFC 9449 §5 and §8), or the provider took
 * no request at all (`temporarily_unavailable`). Any other answer may follow a rotation.
 */
export const refusalsBeforeUse: ReadonlySet<string> = new Set([
  'invalid_request',
  'invalid_client',
  'unauthorized_client',
  'unsupported_grant_type',
  'invalid_scope',
  'invalid_dpop_proof',
  'use_dpop_nonce',
  'temporarily_unavailable',
]);

/** The error code of a token-endpoint refusal, or undefined when `error` is not one. */
export function tokenEndpointRefusal(error: unknown): string | undefined {
  const answer = (error as { name?: unknown; error?: unknown; form?: unknown } | null) ?? {};
  if (answer.name === 'ErrorResponse' && answer.form !== undefined) return answer.error as string;
  if (answer.name !== 'ErrorDPoPNonce') return undefined;
  try {
    // Its message is the answer's JSON body, as oidc-client-ts read it.
    const body = JSON.parse((error as Error).message) as { error?: unknown } | null;
    return typeof body?.error === 'string' ? body.error : undefined;
  } catch {
    return undefined;
  }
}
