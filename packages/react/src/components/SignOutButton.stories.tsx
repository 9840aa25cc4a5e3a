import type { Meta, StoryObj } from '@storybook/react-vite';
import { MockAuthProvider, createTestUser } from '@oidc-kit/react/testing';
import type { MockAuthProviderProps } from '@oidc-kit/react/testing';
import { SignOutButton } from './SignOutButton';

function withAuth(auth: MockAuthProviderProps): Meta<typeof SignOutButton>['decorators'] {
  return [
    (Story) => (
      <MockAuthProvider {...auth}>
        <Story />
      </MockAuthProvider>
    ),
  ];
}

const meta = {
  title: 'Components/SignOutButton',
  component: SignOutButton,
  decorators: withAuth({ user: createTestUser({ name: 'Alice Liddell' }) }),
} satisfies Meta<typeof SignOutButton>;

export default meta;
type Story = StoryObj<typeof meta>;

export const SignedIn: Story = {};

export const SigningOut: Story = {
  name: 'Signing out (busy)',
  decorators: withAuth({ state: 'signing-out' }),
};

export const WithRevocation: Story = {
  args: { revokeTokens: true, children: 'Sign out everywhere' },
};
