import { act, render, screen, within } from '@testing-library/react';
import { expect, test } from 'vitest';
import { AuthError } from '@oidc-kit/react';
import { MockAuthProvider, createMockAuthClient, createTestUser } from '@oidc-kit/react/testing';
import { SignInProblem } from './SignInProblem';

test('a failed step-up keeps the session and its error: the banner shows it, and Dismiss clears it', () => {
  const cancelled = new AuthError('provider_error', 'The user cancelled the step-up.', {
    providerError: 'access_denied',
  });
  const auth = createMockAuthClient({ user: createTestUser(), error: cancelled });
  render(
    <MockAuthProvider client={auth}>
      <SignInProblem />
    </MockAuthProvider>,
  );
  const banner = screen.getByRole('alert');
  expect(banner.textContent).toContain('Sign-in was cancelled.');
  expect(banner.textContent).toContain('You are still signed in.');
  // Signed in already: no sign-in to start again from here.
  expect(within(banner).queryByRole('button', { name: 'Try again' })).toBeNull();
  act(() => within(banner).getByRole('button', { name: 'Dismiss' }).click());
  expect(auth.dismissError.calls).toHaveLength(1);
  expect(screen.queryByRole('alert')).toBeNull();
  expect(auth.getSnapshot().status).toBe('authenticated');
});

test('a renewal that failed next to a live session says the session goes on', () => {
  render(
    <MockAuthProvider
      state="authenticated"
      error={new AuthError('renew_failed', 'The token endpoint answered 503.')}
    >
      <SignInProblem />
    </MockAuthProvider>,
  );
  const banner = screen.getByRole('alert');
  expect(banner.textContent).toContain('Your session could not be renewed just now');
  expect(banner.textContent).toContain('You are still signed in.');
  expect(within(banner).getByRole('button', { name: 'Dismiss' })).toBeDefined();
});
