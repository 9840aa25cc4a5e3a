import type { Meta, StoryObj } from '@storybook/react-vite';
import { MemoryRouter } from 'react-router';
import { MockAuthProvider, createTestUser } from '@oidc-kit/react/testing';
import type { MockAuthProviderProps } from '@oidc-kit/react/testing';
import { AuthCallback } from './AuthCallback';
import { errorViewControl } from '../components/viewControls';

function withAuth(auth: MockAuthProviderProps): Meta<typeof AuthCallback>['decorators'] {
  return [
    (Story) => (
      <MockAuthProvider {...auth}>
        <MemoryRouter initialEntries={['/callback']}>
          <Story />
        </MemoryRouter>
      </MockAuthProvider>
    ),
  ];
}

const meta = {
  title: 'React Router/AuthCallback',
  component: AuthCallback,
  argTypes: { error: errorViewControl },
} satisfies Meta<typeof AuthCallback>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Processing: Story = { decorators: withAuth({ state: 'signing-in' }) };
export const Failed: Story = {
  name: 'Error (sign-in cancelled)',
  decorators: withAuth({ state: 'error' }),
};
export const NothingToFinish: Story = {
  name: 'Opened with nothing to finish',
  decorators: withAuth({ user: createTestUser() }),
};
