import { render } from '@testing-library/react';
import { describe, expect, test } from 'vitest';
import type { AuthStatus } from '../core/authState';
import { MockAuthProvider, createTestUser } from '../testing';
import { Authorized } from './Authorized';
import { SignedIn } from './SignedIn';
import { SignedOut } from './SignedOut';

function shown(state: AuthStatus): string[] {
  const { container, unmount } = render(
    <MockAuthProvider state={state} user={state === 'authenticated' ? createTestUser() : null}>
      <SignedIn>in</SignedIn>
      <SignedOut>out</SignedOut>
    </MockAuthProvider>,
  );
  const text = container.textContent ?? '';
  unmount();
  return text === '' ? [] : [text];
}

describe('SignedIn and SignedOut', () => {
  test.each([
    ['loading', []],
    ['signing-in', []],
    ['signing-out', []],
    ['authenticated', ['in']],
    ['unauthenticated', ['out']],
    ['error', ['out']],
  ] as [AuthStatus, string[]][])('%s shows %j', (state, expected) => {
    expect(shown(state)).toEqual(expected);
  });
});

describe('Authorized', () => {
  test('shows children to a user who meets the requirements, else the fallback, never redirecting', () => {
    const { container } = render(
      <MockAuthProvider user={createTestUser({ roles: ['editor'], scope: 'openid docs:write' })}>
        <Authorized roles={['editor']}>edit</Authorized>
        <Authorized roles={['admin']} fallback="no-admin">
          admin
        </Authorized>
        <Authorized scopes={['docs:write']}>write</Authorized>
        <Authorized scopes={['docs:delete']} fallback="no-delete">
          delete
        </Authorized>
      </MockAuthProvider>,
    );
    expect(container.textContent).toBe('editno-adminwriteno-delete');
  });

  test('shows the fallback when signed out and nothing while loading', () => {
    const { container, rerender } = render(
      <MockAuthProvider state="unauthenticated">
        <Authorized fallback="sign in first">secret</Authorized>
      </MockAuthProvider>,
    );
    expect(container.textContent).toBe('sign in first');
    rerender(
      <MockAuthProvider state="loading">
        <Authorized fallback="sign in first">secret</Authorized>
      </MockAuthProvider>,
    );
    expect(container.textContent).toBe('');
  });
});
