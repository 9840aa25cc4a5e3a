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
      scheme: 'DPoP',
      description: 'The Authorization header is malformed.',
    });
  });

  it.each([
    ['no header', undefined, null, 'No access token was sent.'],
    ['an empty header', '', null, 'No access token was sent.'],
    [
      'another scheme',
      'Basic dXNlcjpwYXNz',
      null,
      'The Authorization header must use the Bearer or DPoP scheme.',
    ],
    ['a scheme only', 'Bearer', 'Bearer', 'The Authorization header is malformed.'],
    ['an empty token', 'Bearer ', 'Bearer', 'The Authorization header is malformed.'],
    ['two spaces', `Bearer  ${jwtLike}`, 'Bearer', 'The Authorization header is malformed.'],
    ['a tab', `Bearer\t${jwtLike}`, 'Bearer', 'The Authorization header is malformed.'],
    ['a trailing space', `Bearer ${jwtLike} `, 'Bearer', 'The Authorization header is malformed.'],
    [
      'two tokens',
      `Bearer ${jwtLike} ${jwtLike}`,
      'Bearer',
      'The Authorization header is malformed.',
    ],
    [
      'a comma list',
      `Bearer ${jwtLike}, Basic x`,
      'Bearer',
      'The Authorization header is malformed.',
    ],
    ['a quote', 'Bearer "abc"', 'Bearer', 'The Authorization header is malformed.'],
    ['a DPoP scheme only', 'dpop', 'DPoP', 'The Authorization header is malformed.'],
    [
      'a "Bearerx" scheme',
      `Bearerx ${jwtLike}`,
      null,
      'The Authorization header must use the Bearer or DPoP scheme.',
    ],
  ])('refuses %s, naming the scheme it used', (_, header, scheme, description) => {
    expect(readAccessToken(header, url)).toEqual({ ok: false, scheme, description });
  });

  it('refuses a token in the query string, even beside a good header', () => {
    const withQuery = new URL(`http://localhost:4001/me?access_token=${jwtLike}`);
    const refusal = {
      ok: false,
      scheme: 'Bearer',
      description: 'Access tokens are not accepted in the URL.',
    };
    // The query parameter is the Bearer scheme's (RFC 6750 §2.3), with or without a header.
    expect(readAccessToken(undefined, withQuery)).toEqual(refusal);
    expect(readAccessToken(`Bearer ${jwtLike}`, withQuery)).toEqual(refusal);
    expect(readAccessToken(`Bearer ${jwtLike}`, new URL('http://x/me?access_token='))).toEqual(
      refusal,
    );
    expect(readAccessToken(`DPoP ${jwtLike}`, withQuery)).toEqual({ ...refusal, scheme: 'DPoP' });
  });
});
