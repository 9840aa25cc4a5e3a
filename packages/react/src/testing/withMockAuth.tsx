import type { ComponentType, ReactElement } from 'react';
import { MockAuthProvider } from './MockAuthProvider';
import type { MockAuthProviderProps } from './MockAuthProvider';

/**
 * A Storybook decorator that renders the story inside `MockAuthProvider`.
 *
 * @example
 * export const SignedIn: Story = { decorators: [withMockAuth({ user: createTestUser() })] };
 */
export function withMockAuth(
  options: Omit<MockAuthProviderProps, 'children'>,
): (Story: ComponentType) => ReactElement {
  return function MockAuthDecorator(Story) {
    return (
      <MockAuthProvider {...options}>
        <Story />
      </MockAuthProvider>
    );
  };
}
