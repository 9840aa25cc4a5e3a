import type { Meta, StoryObj } from '@storybook/react-vite';
import { createTestUser, withMockAuth } from '@oidc-kit/react/testing';
import { IdleWarning } from './IdleWarning';

/** A page behind the warning: the dialog covers it, and focus stays in the dialog. */
function Page(props: React.ComponentProps<typeof IdleWarning>) {
  return (
    <main>
      <h1>Orders</h1>
      <p>Idle sign-out shows its warning over whatever page is open, in every tab at once.</p>
      <button type="button">Save the order</button>
      <IdleWarning {...props} />
    </main>
  );
}

const meta = {
  title: 'Components/IdleWarning',
  // The component itself, for its description, props table and controls; shown over a page.
  component: IdleWarning,
  render: (args) => <Page {...args} />,
} satisfies Meta<typeof IdleWarning>;

export default meta;
type Story = StoryObj<typeof meta>;

const user = createTestUser({ name: 'Alice Liddell' });

export const Active: Story = {
  name: 'Active (renders nothing)',
  decorators: [withMockAuth({ user })],
};
export const Warning: Story = {
  name: 'Warning, 90 seconds left',
  decorators: [withMockAuth({ user, idleWarning: 90_000 })],
};
export const LastSeconds: Story = {
  name: 'Warning, last seconds',
  decorators: [withMockAuth({ user, idleWarning: 8_000 })],
};
export const Translated: Story = {
  name: 'Every text replaced (French)',
  args: {
    title: 'Toujours là ?',
    stayLabel: 'Rester connecté',
    signOutLabel: 'Se déconnecter',
    children: (time: string) => `Pour votre sécurité, vous serez déconnecté dans ${time}.`,
  },
  decorators: [withMockAuth({ user, idleWarning: 60_000 })],
};
export const WithALink: Story = {
  name: 'A link in the text',
  args: {
    children: (time: string) => (
      <>
        You will be signed out in {time}. <a href="#why">Why am I signed out?</a>
      </>
    ),
  },
  decorators: [withMockAuth({ user, idleWarning: 60_000 })],
};
export const LongerText: Story = {
  name: 'A longer text',
  args: {
    children: (time: string) =>
      `For your security, you will be signed out in ${time}. Anything you have not saved yet will be lost: save your work first, then choose to stay signed in.`,
  },
  decorators: [withMockAuth({ user, idleWarning: 60_000 })],
};
/** In a page with a dark colour scheme (`color-scheme: dark`), the warning's own look is dark too. */
export const DarkPage: Story = {
  name: 'In a dark page',
  decorators: [
    withMockAuth({ user, idleWarning: 60_000 }),
    (Story) => (
      <div
        style={{ colorScheme: 'dark', background: '#121212', color: '#e6e6e6', padding: '1rem' }}
      >
        <Story />
      </div>
    ),
  ],
};
