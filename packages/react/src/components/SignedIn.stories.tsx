import type { Meta, StoryObj } from '@storybook/react-vite';
import { createTestUser, withMockAuth } from '@oidc-kit/react/testing';
import { SignInButton } from './SignInButton';
import { SignOutButton } from './SignOutButton';
import { SignedIn } from './SignedIn';
import { SignedOut } from './SignedOut';

/** A header built from the templates: what each auth state shows. */
function Header() {
  return (
    <header style={{ display: 'flex', gap: '1rem', alignItems: 'center' }}>
      <strong>Acme Orders</strong>
      <SignedOut>
        <SignInButton />
      </SignedOut>
      <SignedIn>
        <span>Alice Liddell</span>
        <SignOutButton />
      </SignedIn>
    </header>
  );
}

/**
 * `SignedIn` renders its children only while a user is signed in; `SignedOut` only while nobody
 * is, a failed sign-in included. Neither renders anything while the session is restored or a
 * sign-in or sign-out is under way. Below, a header built from the two.
 */
const meta = {
  title: 'Components/SignedIn and SignedOut',
  component: Header,
} satisfies Meta<typeof Header>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Loading: Story = { decorators: [withMockAuth({ state: 'loading' })] };
export const SignedOutState: Story = {
  name: 'Signed out',
  decorators: [withMockAuth({ state: 'unauthenticated' })],
};
export const SigningIn: Story = { decorators: [withMockAuth({ state: 'signing-in' })] };
export const SignedInState: Story = {
  name: 'Signed in',
  decorators: [withMockAuth({ user: createTestUser({ name: 'Alice Liddell' }) })],
};
export const SigningOut: Story = {
  decorators: [withMockAuth({ state: 'signing-out' })],
};
export const ErrorState: Story = { name: 'Error', decorators: [withMockAuth({ state: 'error' })] };
