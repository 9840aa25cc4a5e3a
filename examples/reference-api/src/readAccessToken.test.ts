import { describe, expect, it } from 'vitest';
import { readAccessToken } from './readAccessToken';

const url = new URL('http://localhost:4001/me');
const jwtLike = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln';

describe('readAccessToken', () => {
  it('takes the token from "Bearer <token>", the scheme in any case', () => {
    const bearer = { ok: true, scheme: 'Bearer', token: jwtLike };
    expect(readAccessToken(`Bearer ${jwtLike}`, url)).toEqual(bearer);
    expect(readAccessToken(`bearer ${jwtLike}`, url)).toEqual(bearer);
    expect(readAccessToken('Bearer abc+/~_-.==', url)).toEqual({
      ok: true,
      scheme: 'Bearer',
      token: 'abc+/~_-.==',
    });
  });

  it('takes a DPoP-bound token from "DPoP <token>", the scheme in any case', () => {
    const dpop = { ok: true, scheme: 'DPoP', token: jwtLike };
    expect(readAccessToken(`DPoP ${jwtLike}`, url)).toEqual(dpop);
    expect(readAccessToken(`dpop ${jwtLike}`, url)).toEqual(dpop);
    expect(readAccessToken(`DPoP  ${jwtLike}`, url)).toEqual({
      ok: false,
      description: 'The Authorization header is malformed.',
    });
  });

  it.each([
    ['no header', undefined, 'No access token was sent.'],
    ['an empty header', '', 'No access token was sent.'],
    [
      'another scheme',
      'Basic dXNlcjpwYXNz',
      'The Authorization header must use the Bearer or DPoP scheme.',
    ],
    ['a scheme only', 'Bearer', 'The Authorization header is malformed.'],
    ['an empty token', 'Bearer ', 'The Authorization header is malformed.'],
    ['two spaces', `Bearer  ${jwtLike}`, 'The Authorization header is malformed.'],
    ['a tab', `Bearer\t${jwtLike}`, 'The Authorization header is malformed.'],
    ['a trailing space', `Bearer ${jwtLike} `, 'The Authorization header is malformed.'],
    ['two tokens', `Bearer ${jwtLike} ${jwtLike}`, 'The Authorization header is malformed.'],
    ['a comma list', `Bearer ${jwtLike}, Basic x`, 'The Authorization header is malformed.'],
    ['a quote', 'Bearer "abc"', 'The Authorization header is malformed.'],
    [
      'a "Bearerx" scheme',
      `Bearerx ${jwtLike}`,
      'The Authorization header must use the Bearer or DPoP scheme.',
    ],
  ])('refuses %s', (_, header, description) => {
    expect(readAccessToken(header, url)).toEqual({ ok: false, description });
  });

  it('refuses a token in the query string, even beside a good header', () => {
    const withQuery = new URL(`http://localhost:4001/me?access_token=${jwtLike}`);
    const refusal = { ok: false, description: 'Access tokens are not accepted in the URL.' };
    expect(readAccessToken(undefined, withQuery)).toEqual(refusal);
    expect(readAccessToken(`Bearer ${jwtLike}`, withQuery)).toEqual(refusal);
    expect(readAccessToken(`Bearer ${jwtLike}`, new URL('http://x/me?access_token='))).toEqual(
      refusal,
    );
  });
});
