import type { Context } from 'hono';
import { bearerChallenge, invalidToken } from './bearerErrors';
import type { ErrorBody } from './bearerErrors';
import { dpopOffer, invalidDPoPToken } from './dpopErrors';
import type { TokenScheme } from './readAccessToken';

/**
 * 401 `invalid_token`, challenged in the scheme the request used (RFC 9449 §7.1): a `DPoP`
 * challenge for the DPoP scheme, a `Bearer` one for the Bearer scheme. A request that used
 * neither (no `Authorization`, or another scheme) is offered both, in one header.
 */
export function refuseToken(c: Context, scheme: TokenScheme | null, description: string): Response {
  if (scheme === 'DPoP') return invalidDPoPToken(c, description);
  if (scheme === 'Bearer') return invalidToken(c, description);
  const body: ErrorBody = { error: 'invalid_token', error_description: description };
  return c.json(body, 401, {
    'WWW-Authenticate': `${bearerChallenge('invalid_token', description)}, ${dpopOffer}`,
  });
}
