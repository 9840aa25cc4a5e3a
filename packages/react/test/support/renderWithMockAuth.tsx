import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MockAuthProvider, createMockAuthClient } from '../../src/testing';
import type { MockAuthClient } from '../../src/testing';

/** Renders `element` inside a {@link MockAuthProvider} for `auth`, and returns `auth`. */
export function renderWithMockAuth(
  element: ReactNode,
  auth: MockAuthClient = createMockAuthClient(),
): MockAuthClient {
  render(<MockAuthProvider client={auth}>{element}</MockAuthProvider>);
  return auth;
}
