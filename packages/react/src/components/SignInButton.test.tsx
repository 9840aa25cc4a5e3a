import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { StrictMode, createRef } from 'react';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { createHarness } from '../../test/support/harness';
import { renderWithMockAuth as renderButton } from '../../test/support/renderWithMockAuth';
import type { Harness } from '../../test/support/harness';
import { AuthProvider } from '../AuthProvider';
import { clicksCancelled } from '../../test/support/clicksCancelled';
import { unhandledRejectionsDuring } from '../../test/support/unhandledRejections';
import { AuthContext } from '../authContext';
import { MockAuthProvider, createMockAuthClient } from '../testing';
import { SignInButton } from './SignInButton';

let harness: Harness | undefined;
afterEach(() => {
  vi.useRealTimers();
  harness?.dispose();
  harness = undefined;
});

describe('SignInButton', () => {
  test('is a labelled type="button" that signs in on click, forwarding props and ref', async () => {
    const ref = createRef<HTMLButtonElement>();
    const auth = renderButton(<SignInButton ref={ref} className="primary" data-testid="go" />);
    const button = screen.getByRole('button', { name: 'Sign in' });
    expect(button.getAttribute('type')).toBe('button');
    expect(button.className).toBe('primary');
    expect(ref.current).toBe(button);
    await userEvent.click(button);
    expect(auth.signIn.calls).toEqual([[{ returnTo: undefined, popup: undefined }]]);
  });

  test('passes returnTo, popup and authorize parameters', async () => {
    const auth = renderButton(
      <SignInButton
        returnTo="/orders"
        popup
        authorizeParams={{ prompt: 'login', login_hint: 'bob' }}
      >
        Sign in as Bob
      </SignInButton>,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Sign in as Bob' }));
    expect(auth.signIn.calls).toEqual([
      [{ prompt: 'login', login_hint: 'bob', returnTo: '/orders', popup: true }],
    ]);
  });

  test('works from the keyboard (Enter and Space)', async () => {
    const auth = createMockAuthClient();
    render(
      <MockAuthProvider client={auth}>
        <SignInButton />
      </MockAuthProvider>,
    );
    await userEvent.tab();
    expect(document.activeElement).toBe(screen.getByRole('button'));
    await userEvent.keyboard('{Enter}');
    expect(auth.signIn.calls).toHaveLength(1);
  });

  test('runs your onClick first; preventDefault() cancels sign-in', async () => {
    const order: string[] = [];
    const auth = createMockAuthClient();
    const original = auth.signIn;
    renderButton(
      <SignInButton
        onClick={(event) => {
          order.push(`mine:${original.calls.length}`);
          event.preventDefault();
        }}
      />,
      auth,
    );
    await userEvent.click(screen.getByRole('button'));
    expect(order).toEqual(['mine:0']);
    expect(auth.signIn.calls).toEqual([]);
  });

  test('is busy (aria-busy, aria-disabled) while signing in', async () => {
    const auth = renderButton(<SignInButton />);
    const button = screen.getByRole('button');
    expect(button.getAttribute('aria-busy')).toBeNull();
    expect(button.getAttribute('aria-disabled')).toBeNull();
    await userEvent.click(button);
    expect(button.getAttribute('aria-busy')).toBe('true');
    expect(button.getAttribute('aria-disabled')).toBe('true');
    await userEvent.click(button);
    expect(auth.signIn.calls).toHaveLength(1);
  });

  // A disabled button cannot hold focus: the browser would move it to <body>, and keyboard and
  // screen-reader users would lose their place (e.g. when a popup sign-in fails).
  test('keeps focus while busy: aria-disabled, not disabled, and a second click starts nothing', async () => {
    const auth = createMockAuthClient();
    render(
      <StrictMode>
        <MockAuthProvider client={auth}>
          <SignInButton popup />
        </MockAuthProvider>
      </StrictMode>,
    );
    const button = screen.getByRole('button', { name: 'Sign in' }) as HTMLButtonElement;
    button.focus();
    await userEvent.click(button);
    expect(button.getAttribute('aria-busy')).toBe('true');
    expect(button.getAttribute('aria-disabled')).toBe('true');
    expect(button.disabled).toBe(false);
    expect(document.activeElement).toBe(button);
    await userEvent.click(button);
    await userEvent.keyboard('{Enter}');
    expect(auth.signIn.calls).toHaveLength(1);
    expect(document.activeElement).toBe(button);
  });

  test('a redirect that never leaves the page (the user chose "Stay on page") frees the button again', async () => {
    harness = createHarness();
    const client = harness.createClient();
    await client.start();
    render(
      <AuthProvider client={client}>
        <SignInButton />
      </AuthProvider>,
    );
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const button = screen.getByRole('button', { name: 'Sign in' });
    await act(async () => button.click());
    await vi.waitFor(() => expect(harness?.redirects).toHaveLength(1));
    expect(button.getAttribute('aria-disabled')).toBe('true');
    // The client gives the redirect up and is signed out again (its own test covers that).
    await act(() => vi.advanceTimersByTimeAsync(15_000));
    await vi.waitFor(() => expect(client.getSnapshot().status).toBe('unauthenticated'));
    expect(button.getAttribute('aria-busy')).toBeNull();
    expect(button.getAttribute('aria-disabled')).toBeNull();
    expect((button as HTMLButtonElement).disabled).toBe(false);
  });

  test('disabled, as a button or with asChild, does not sign in (nor follows the link)', async () => {
    const cancelled = clicksCancelled();
    const auth = renderButton(
      <>
        <SignInButton disabled />
        <SignInButton asChild disabled>
          <a href="#sign-in">Log in</a>
        </SignInButton>
      </>,
    );
    const link = screen.getByRole('link', { name: 'Log in' });
    expect(link.getAttribute('aria-disabled')).toBe('true');
    await userEvent.click(link);
    expect(cancelled).toEqual([true]);
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(auth.signIn.calls).toEqual([]);
  });

  test('a client whose signIn() rejects: the failure is logged in development, never unhandled, and the button is usable again', async () => {
    const failure = new Error('The sign-in service is down.');
    const client = { ...createMockAuthClient(), signIn: () => Promise.reject(failure) };
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const leaked = await unhandledRejectionsDuring(async () => {
      render(
        <AuthContext.Provider value={client}>
          <SignInButton />
        </AuthContext.Provider>,
      );
      await userEvent.click(screen.getByRole('button'));
      await act(async () => undefined);
    });
    expect(leaked).toEqual([]);
    expect(logged).toHaveBeenCalledWith(failure);
    expect(screen.getByRole('button').getAttribute('aria-disabled')).toBeNull();
    expect((screen.getByRole('button') as HTMLButtonElement).disabled).toBe(false);
  });
});
