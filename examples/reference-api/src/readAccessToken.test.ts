import { describe, expect, it } from 'vitest';
import { readBearerToken } from './readBearerToken';

const url = new URL('http://localhost:4001/me');
const jwtLike = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln';

describe('readBearerToken', () => {
  it('takes the token from "Bearer <token>", the scheme in any case', () => {
    expect(readBearerToken(`Bearer ${jwtLike}`, url)).toEqual({ ok: true, token: jwtLike });
    expect(readBearerToken(`bearer ${jwtLike}`, url)).toEqual({ ok: true, token: jwtLike });
    expect(readBearerToken('Bearer abc+/~_-.==', url)).toEqual({ ok: true, token: 'abc+/~_-.==' });
  });

  it.each([
    ['no header', undefined, 'No bearer token was sent.'],
    ['an empty header', '', 'No bearer token was sent.'],
    [
      'another scheme',
      'Basic dXNlcjpwYXNz',
      'The Authorization header must use the Bearer scheme.',
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
      'The Authorization header must use the Bearer scheme.',
    ],
  ])('refuses %s', (_, header, description) => {
    expect(readBearerToken(header, url)).toEqual({ ok: false, description });
  });

  it('refuses a token in the query string, even beside a good header', () => {
    const withQuery = new URL(`http://localhost:4001/me?access_token=${jwtLike}`);
    const refusal = { ok: false, description: 'Access tokens are not accepted in the URL.' };
    expect(readBearerToken(undefined, withQuery)).toEqual(refusal);
    expect(readBearerToken(`Bearer ${jwtLike}`, withQuery)).toEqual(refusal);
    expect(readBearerToken(`Bearer ${jwtLike}`, new URL('http://x/me?access_token='))).toEqual(
      refusal,
    );
  });
});
