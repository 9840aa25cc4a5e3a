import { createTestUser } from '@oidc-kit/react/testing';
import type { Me } from '../api/types';

/** A signed-in user with the `user` role only, whose token expires in two minutes. */
export const alice = () =>
  createTestUser({ name: 'Alice Liddell', sub: 'alice', roles: ['user'], expiresIn: 120 });

/** An admin. */
export const bob = () =>
  createTestUser({ name: 'Bob Stone', sub: 'bob', roles: ['user', 'admin'] });

/** What the API's `GET /me` answers for alice. */
export const me = {
  sub: 'alice',
  name: 'Alice Liddell',
  roles: ['user'],
  scope: 'openid profile',
} satisfies Me;
