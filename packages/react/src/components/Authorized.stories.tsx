import type { Meta, StoryObj } from '@storybook/react-vite';
import { createTestUser, withMockAuth } from '@oidc-kit/react/testing';
import { Authorized } from './Authorized';
import { roleControl, scopeControl } from './accessControls';

/**
 * `Authorized` shows its children only to a signed-in user with any of `roles`, all of `scopes`
 * and `when`; otherwise `fallback` (nothing while a session is restored, signing in or signing
 * out). It never starts a sign-in: use it for parts of a page, and `RequireAuth` for whole pages.
 */
const meta = {
  title: 'Components/Authorized',
  component: Authorized,
  argTypes: { roles: roleControl, scopes: scopeControl },
  args: {
    roles: ['admin'],
    children: <a href="#admin">Admin dashboard</a>,
    fallback: <p>Admins only.</p>,
  },
} satisfies Meta<typeof Authorized>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Loading: Story = { decorators: [withMockAuth({ state: 'loading' })] };
export const SignedOut: Story = { decorators: [withMockAuth({ state: 'unauthenticated' })] };
export const Allowed: Story = {
  name: 'Signed in with the role',
  decorators: [
    withMockAuth({ user: createTestUser({ name: 'Bob Stone', roles: ['user', 'admin'] }) }),
  ],
};
export const Denied: Story = {
  name: 'Signed in without the role',
  decorators: [withMockAuth({ user: createTestUser({ name: 'Alice Liddell', roles: ['user'] }) })],
};
