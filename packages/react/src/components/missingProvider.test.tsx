import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { describe, expect, test, vi } from 'vitest';
import { Authorized } from './Authorized';
import { IdleWarning } from './IdleWarning';
import { RequireAuth } from './RequireAuth';
import { SignedIn } from './SignedIn';
import { SignedOut } from './SignedOut';
import { SignInButton } from './SignInButton';
import { SignOutButton } from './SignOutButton';
import { AuthErrorMessage } from './AuthErrorMessage';
import { AuthForbidden } from './AuthForbidden';
import { AuthPending } from './AuthPending';
import { AuthSignInNeeded } from './AuthSignInNeeded';
import { AuthError } from '../core/errors';
import readme from '../../README.md?raw';

describe('outside AuthProvider every component throws a config_invalid AuthError, naming itself and the fix', () => {
  test.each([
    ['Authorized', <Authorized roles={['admin']} />],
    ['IdleWarning', <IdleWarning />],
    ['RequireAuth', <RequireAuth />],
    ['SignedIn', <SignedIn />],
    ['SignedOut', <SignedOut />],
    ['SignInButton', <SignInButton />],
    ['SignOutButton', <SignOutButton />],
  ] as [string, ReactElement][])('%s', (name, element) => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(() => render(element)).toThrow(
      expect.objectContaining({
        name: 'AuthError',
        code: 'config_invalid',
        field: name,
        message: expect.stringMatching(
          new RegExp(`^${name}\\(\\) must be used inside <AuthProvider>\\. Wrap your app in`),
        ),
      }),
    );
  });
});

// Props only, no context: they render anywhere, and the README must not say they throw.
test("the guard's views render outside AuthProvider, and the README says so", () => {
  const views: [string, ReactElement][] = [
    ['AuthPending', <AuthPending />],
    ['AuthForbidden', <AuthForbidden />],
    [
      'AuthErrorMessage',
      <AuthErrorMessage error={new AuthError('network', '')} retry={() => undefined} />,
    ],
    ['AuthSignInNeeded', <AuthSignInNeeded signIn={() => undefined} />],
  ];
  const sentence = readme.split('\n').find((line) => line.includes('outside `AuthProvider`')) ?? '';
  expect(sentence).toMatch(/^Every hook/);
  for (const [name, element] of views) {
    expect(() => render(element), name).not.toThrow();
    expect(sentence, name).toContain(`\`${name}\``);
  }
});
