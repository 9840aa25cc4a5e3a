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
