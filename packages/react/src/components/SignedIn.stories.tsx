import type { Meta, StoryObj } from '@storybook/react-vite';
import { MockAuthProvider, createTestUser } from '@oidc-kit/react/testing';
import type { MockAuthProviderProps } from '@oidc-kit/react/testing';
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

function withAuth(auth: MockAuthProviderProps): Meta<typeof Header>['decorators'] {
  return [
    (Story) => (
      <MockAuthProvider {...auth}>
        <Story />
      </MockAuthProvider>
    ),
  ];
}

const meta = {
  title: 'Components/SignedIn and SignedOut',
  component: Header,
} satisfies Meta<typeof Header>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Loading: Story = { decorators: withAuth({ state: 'loading' }) };
export const SignedOutState: Story = {
  name: 'Signed out',
  decorators: withAuth({ state: 'unauthenticated' }),
};
export const SigningIn: Story = { decorators: withAuth({ state: 'signing-in' }) };
export const SignedInState: Story = {
  name: 'Signed in',
  decorators: withAuth({ user: createTestUser({ name: 'Alice Liddell' }) }),
};
export const ErrorState: Story = { name: 'Error', decorators: withAuth({ state: 'error' }) };
