import type { Meta, StoryObj } from '@storybook/react-vite';
import { MockAuthProvider, createTestUser } from '@oidc-kit/react/testing';
import type { MockAuthProviderProps } from '@oidc-kit/react/testing';
import { Authorized } from './Authorized';

function withAuth(auth: MockAuthProviderProps): Meta<typeof Authorized>['decorators'] {
  return [
    (Story) => (
      <MockAuthProvider {...auth}>
        <Story />
      </MockAuthProvider>
    ),
  ];
}

const meta = {
  title: 'Components/Authorized',
  component: Authorized,
  args: {
    roles: ['admin'],
    children: <a href="#admin">Admin dashboard</a>,
    fallback: <p>Admins only.</p>,
  },
} satisfies Meta<typeof Authorized>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Loading: Story = { decorators: withAuth({ state: 'loading' }) };
export const SignedOut: Story = { decorators: withAuth({ state: 'unauthenticated' }) };
export const Allowed: Story = {
  name: 'Signed in with the role',
  decorators: withAuth({ user: createTestUser({ name: 'Bob Stone', roles: ['user', 'admin'] }) }),
};
export const Denied: Story = {
  name: 'Signed in without the role',
  decorators: withAuth({ user: createTestUser({ name: 'Alice Liddell', roles: ['user'] }) }),
};
