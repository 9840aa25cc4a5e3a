import type { Meta, StoryObj } from '@storybook/react-vite';
import { AuthError } from '@oidc-kit/react';
import { createTestUser, withMockAuth } from '@oidc-kit/react/testing';
import { RequireAuth } from './RequireAuth';
import { roleControl, scopeControl } from './accessControls';
import { errorViewControl, signInNeededControl } from './viewControls';

const meta = {
  title: 'Components/RequireAuth',
  component: RequireAuth,
  argTypes: {
    roles: roleControl,
    scopes: scopeControl,
    error: errorViewControl,
    signInNeeded: signInNeededControl,
  },
  args: {
    children: (
      <article>
        <h1>Quarterly report</h1>
        <p>Only signed-in users see this.</p>
      </article>
    ),
  },
} satisfies Meta<typeof RequireAuth>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Loading: Story = { decorators: [withMockAuth({ state: 'loading' })] };

export const SigningIn: Story = { decorators: [withMockAuth({ state: 'signing-in' })] };

export const SignedOut: Story = {
  name: 'Signed out (starts sign-in)',
  decorators: [withMockAuth({ state: 'unauthenticated' })],
};

export const SignedIn: Story = {
  decorators: [withMockAuth({ user: createTestUser({ name: 'Alice Liddell' }) })],
};

export const Forbidden: Story = {
  name: 'Signed in without the role',
  args: { roles: ['admin'] },
  decorators: [withMockAuth({ user: createTestUser({ name: 'Alice Liddell', roles: ['user'] }) })],
};

export const MissingScope: Story = {
  name: 'Signed in without the scope',
  args: { scopes: ['orders:write'] },
  decorators: [withMockAuth({ user: createTestUser({ name: 'Alice Liddell' }) })],
};

export const SignInFailed: Story = {
  name: 'Error (sign-in cancelled)',
  decorators: [withMockAuth({ state: 'error' })],
};

export const ProviderUnreachable: Story = {
  name: 'Error (provider unreachable)',
  decorators: [
    withMockAuth({
      state: 'error',
      error: new AuthError('network', 'The identity provider could not be reached.'),
    }),
  ],
};
