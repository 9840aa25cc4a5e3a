import type { Meta, StoryObj } from '@storybook/react-vite';
import { createTestUser, withMockAuth } from '@oidc-kit/react/testing';
import { SignOutButton } from './SignOutButton';

const meta = {
  title: 'Components/SignOutButton',
  component: SignOutButton,
  decorators: [withMockAuth({ user: createTestUser({ name: 'Alice Liddell' }) })],
} satisfies Meta<typeof SignOutButton>;

export default meta;
type Story = StoryObj<typeof meta>;

export const SignedIn: Story = {};

export const SigningOut: Story = {
  name: 'Signing out (busy)',
  decorators: [withMockAuth({ state: 'signing-out' })],
};

export const WithRevocation: Story = {
  args: { revokeTokens: true, children: 'Sign out everywhere' },
};
