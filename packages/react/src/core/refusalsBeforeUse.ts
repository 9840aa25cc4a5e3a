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
