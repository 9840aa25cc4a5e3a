import type { Meta, StoryObj } from '@storybook/react-vite';
import { AuthError } from '@oidc-kit/react';
import { MockAuthProvider, createTestUser } from '@oidc-kit/react/testing';
import type { MockAuthProviderProps } from '@oidc-kit/react/testing';
import { RequireAuth } from './RequireAuth';

function withAuth(auth: MockAuthProviderProps): Meta<typeof RequireAuth>['decorators'] {
  return [
    (Story) => (
      <MockAuthProvider {...auth}>
        <Story />
      </MockAuthProvider>
    ),
  ];
}

const meta = {
  title: 'Components/RequireAuth',
  component: RequireAuth,
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

export const Loading: Story = { decorators: withAuth({ state: 'loading' }) };

export const SigningIn: Story = { decorators: withAuth({ state: 'signing-in' }) };

export const SignedOut: Story = {
  name: 'Signed out (starts sign-in)',
  decorators: withAuth({ state: 'unauthenticated' }),
};

export const SignedIn: Story = {
  decorators: withAuth({ user: createTestUser({ name: 'Alice Liddell' }) }),
};

export const Forbidden: Story = {
  name: 'Signed in without the role',
  args: { roles: ['admin'] },
  decorators: withAuth({ user: createTestUser({ name: 'Alice Liddell', roles: ['user'] }) }),
};

export const SignInFailed: Story = {
  name: 'Error (sign-in cancelled)',
  decorators: withAuth({ state: 'error' }),
};

export const ProviderUnreachable: Story = {
  name: 'Error (provider unreachable)',
  decorators: withAuth({
    state: 'error',
    error: new AuthError('network', 'The identity provider could not be reached.'),
  }),
};
