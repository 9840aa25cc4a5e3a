import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createRef } from 'react';
import { describe, expect, test, vi } from 'vitest';
import { renderWithMockAuth } from '../../test/support/renderWithMockAuth';
import { clicksCancelled } from '../../test/support/clicksCancelled';
import { MockAuthProvider, createMockAuthClient, createTestUser } from '../testing';
import { SignOutButton } from './SignOutButton';

describe('SignOutButton', () => {
  test('signs out with the given options, forwarding props and ref', async () => {
    const ref = createRef<HTMLButtonElement>();
    const auth = createMockAuthClient({ user: createTestUser() });
    render(
      <MockAuthProvider client={auth}>
        <SignOutButton ref={ref} revokeTokens title="Leave" />
      </MockAuthProvider>,
    );
    const button = screen.getByRole('button', { name: 'Sign out' });
    expect(ref.current).toBe(button);
    expect(button.getAttribute('title')).toBe('Leave');
    await userEvent.click(button);
    expect(auth.signOut.calls).toEqual([[{ revokeTokens: true, redirect: undefined }]]);
  });

  test('passes every sign-out option to signOut, none of them to the element', async () => {
    const auth = createMockAuthClient({ user: createTestUser() });
    render(
      <MockAuthProvider client={auth}>
        <SignOutButton reason="idle" ui_locales="fr" logout_hint="alice" redirect={false} />
      </MockAuthProvider>,
    );
    const button = screen.getByRole('button', { name: 'Sign out' });
    expect(button.getAttributeNames().sort()).toEqual(['type']);
    await userEvent.click(button);
    expect(auth.signOut.calls).toEqual([
      [{ reason: 'idle', ui_locales: 'fr', logout_hint: 'alice', redirect: false }],
    ]);
  });

  test('is busy while signing out and ignores further clicks', async () => {
    const auth = createMockAuthClient({ user: createTestUser() });
    render(
      <MockAuthProvider client={auth}>
        <SignOutButton>Log out</SignOutButton>
      </MockAuthProvider>,
    );
    auth.set({ state: 'signing-out' });
    const button = await screen.findByRole('button', { name: 'Log out' });
    expect(button.getAttribute('aria-busy')).toBe('true');
    expect(button.getAttribute('aria-disabled')).toBe('true');
    await userEvent.click(button);
    expect(auth.signOut.calls).toEqual([]);
  });

  test('preventDefault() in your onClick cancels; asChild works', async () => {
    const auth = createMockAuthClient({ user: createTestUser() });
    render(
      <MockAuthProvider client={auth}>
        <SignOutButton onClick={(event) => event.preventDefault()} />
        <SignOutButton asChild>
          <a href="#out">Leave</a>
        </SignOutButton>
      </MockAuthProvider>,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Sign out' }));
    expect(auth.signOut.calls).toEqual([]);
    await userEvent.click(screen.getByRole('link', { name: 'Leave' }));
    expect(auth.signOut.calls).toHaveLength(1);
  });

  /** A signed-in user's `<SignOutButton asChild>` around a link, "Leave". */
  function renderLeaveLink() {
    return renderWithMockAuth(
      <SignOutButton asChild>
        <a href="/logout">Leave</a>
      </SignOutButton>,
      createMockAuthClient({ user: createTestUser() }),
    );
  }

  test('asChild on a link signs out instead of following it', async () => {
    const cancelled = clicksCancelled();
    const auth = renderLeaveLink();
    await userEvent.click(screen.getByRole('link', { name: 'Leave' }));
    expect(auth.signOut.calls).toHaveLength(1);
    expect(cancelled).toEqual([true]);
  });

  test("asChild on a link: a Ctrl- or ⌘-click is the browser's (a new tab), neither cancelled nor signing out here", async () => {
    const cancelled = clicksCancelled();
    const auth = renderLeaveLink();
    const link = screen.getByRole('link', { name: 'Leave' });
    const user = userEvent.setup();
    for (const key of ['Control', 'Meta']) {
      await user.keyboard(`{${key}>}`);
      await user.click(link);
      await user.keyboard(`{/${key}}`);
    }
    expect(cancelled).toEqual([false, false]);
    expect(auth.signOut.calls).toEqual([]);
    await user.click(link);
    expect(cancelled).toEqual([false, false, true]);
    expect(auth.signOut.calls).toHaveLength(1);
  });

  test('asChild with text instead of one element throws, in development, saying what it needs', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(() =>
      render(
        <MockAuthProvider user={createTestUser()}>
          <SignOutButton asChild>Log out</SignOutButton>
        </MockAuthProvider>,
      ),
    ).toThrow(/^<SignOutButton asChild> needs exactly one element as its child/);
  });
});
