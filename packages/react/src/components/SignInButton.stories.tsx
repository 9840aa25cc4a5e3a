import type { Meta, StoryObj } from '@storybook/react-vite';
import { withMockAuth } from '@oidc-kit/react/testing';
import { SignInButton } from './SignInButton';

const meta = {
  title: 'Components/SignInButton',
  component: SignInButton,
  decorators: [withMockAuth({ state: 'unauthenticated' })],
} satisfies Meta<typeof SignInButton>;

export default meta;
type Story = StoryObj<typeof meta>;

export const SignedOut: Story = {};

export const SigningIn: Story = {
  name: 'Signing in (busy)',
  decorators: [withMockAuth({ state: 'signing-in' })],
};

export const AfterFailedSignIn: Story = {
  name: 'Error (after a failed sign-in)',
  args: { children: 'Try signing in again' },
  decorators: [withMockAuth({ state: 'error' })],
};

export const CustomLabel: Story = { args: { children: 'Sign in with your work account' } };

export const AsChild: Story = {
  name: 'asChild (a link)',
  args: { asChild: true, children: <a href="#sign-in">Log in</a> },
};
