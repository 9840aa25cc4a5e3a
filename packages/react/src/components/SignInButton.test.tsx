import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { StrictMode, createRef, forwardRef, useImperativeHandle, version } from 'react';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { createHarness } from '../../test/support/harness';
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

function renderButton(element: React.ReactNode, auth = createMockAuthClient()) {
  render(<MockAuthProvider client={auth}>{element}</MockAuthProvider>);
  return auth;
}

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

  test('asChild renders your element with the behaviour merged in', async () => {
    const order: string[] = [];
    const auth = renderButton(
      <SignInButton asChild returnTo="/x" className="from-button">
        <a href="#sign-in" className="link" onClick={() => order.push('link')}>
          Log in
        </a>
      </SignInButton>,
    );
    const link = screen.getByRole('link', { name: 'Log in' });
    expect(link.className).toBe('from-button link');
    expect(screen.queryByRole('button')).toBeNull();
    await userEvent.click(link);
    expect(order).toEqual(['link']);
    expect(auth.signIn.calls).toEqual([[{ returnTo: '/x', popup: undefined }]]);
    expect(link.getAttribute('aria-busy')).toBe('true');
  });

  test('asChild on a link signs in instead of following it: the click is cancelled, busy too', async () => {
    const cancelled = clicksCancelled();
    const auth = renderButton(
      <SignInButton asChild>
        <a href="/login">Log in</a>
      </SignInButton>,
    );
    const link = screen.getByRole('link', { name: 'Log in' });
    await userEvent.click(link);
    expect(auth.signIn.calls).toHaveLength(1);
    expect(cancelled).toEqual([true]);
    await userEvent.click(link);
    expect(auth.signIn.calls).toHaveLength(1);
    expect(cancelled).toEqual([true, true]);
  });

  test("asChild on a form's submit button signs in without submitting the form", async () => {
    const submits: string[] = [];
    const auth = renderButton(
      <form
        onSubmit={(event) => {
          event.preventDefault();
          submits.push('submit');
        }}
      >
        <SignInButton asChild>
          <button type="submit">Log in</button>
        </SignInButton>
      </form>,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Log in' }));
    expect(auth.signIn.calls).toHaveLength(1);
    expect(submits).toEqual([]);
  });

  test("asChild: your element's onClick that calls preventDefault() cancels sign-in", async () => {
    const auth = renderButton(
      <SignInButton asChild>
        <a href="/login" onClick={(event) => event.preventDefault()}>
          Log in
        </a>
      </SignInButton>,
    );
    await userEvent.click(screen.getByRole('link', { name: 'Log in' }));
    expect(auth.signIn.calls).toEqual([]);
  });

  test("asChild hands the element to both refs, yours and the button's, with no React warning", () => {
    const logged = vi.spyOn(console, 'error');
    const buttonRef = createRef<HTMLButtonElement>();
    const linkRef = createRef<HTMLAnchorElement>();
    renderButton(
      <SignInButton asChild ref={buttonRef}>
        <a href="#sign-in" ref={linkRef}>
          Log in
        </a>
      </SignInButton>,
    );
    const link = screen.getByRole('link', { name: 'Log in' });
    expect(buttonRef.current).toBe(link);
    expect(linkRef.current).toBe(link);
    expect(logged).not.toHaveBeenCalled();
  });

  test('asChild attaches your callback ref once, not again at each render, and runs its cleanup', () => {
    const seen: (string | null)[] = [];
    // Stable, as a ref callback from useCallback. React 19 runs the function it returns on detach
    // (React 18 warns at one).
    const linkRef = (node: HTMLAnchorElement | null) => {
      seen.push(node && 'attach');
      return version.startsWith('18') ? undefined : () => void seen.push('cleanup');
    };
    const buttonRef = createRef<HTMLButtonElement>();
    const auth = createMockAuthClient();
    const page = (label: string) => (
      <MockAuthProvider client={auth}>
        <SignInButton asChild ref={buttonRef}>
          <a href="#sign-in" ref={linkRef}>
            {label}
          </a>
        </SignInButton>
      </MockAuthProvider>
    );
    const { rerender, unmount } = render(page('Log in'));
    const mounted = seen.length;
    expect(seen.at(-1)).toBe('attach');
    rerender(page('Sign in here'));
    act(() => auth.set({ state: 'signing-in' }));
    expect(seen.slice(mounted)).toEqual([]);
    unmount();
    // React 19 runs the cleanup instead of calling the ref with null; React 18 calls it with null.
    expect(seen.slice(mounted)).toEqual([version.startsWith('18') ? null : 'cleanup']);
    expect(buttonRef.current).toBeNull();
  });

  test('asChild with a handle that is a function: it is not taken for a ref cleanup', () => {
    const handle = vi.fn();
    const Link = forwardRef<() => void, { children?: React.ReactNode }>(function Link(props, ref) {
      useImperativeHandle(ref, () => handle);
      return <a href="#sign-in" {...props} />;
    });
    const buttonRef = createRef<unknown>();
    const { unmount } = render(
      <MockAuthProvider client={createMockAuthClient()}>
        <SignInButton asChild ref={buttonRef as React.Ref<HTMLButtonElement>}>
          <Link>Log in</Link>
        </SignInButton>
      </MockAuthProvider>,
    );
    expect(buttonRef.current).toBe(handle);
    unmount();
    expect(handle).not.toHaveBeenCalled();
    expect(buttonRef.current).toBeNull();
  });

  test('asChild with a component that takes no ref: no ref is given to it, so React does not warn', async () => {
    const logged = vi.spyOn(console, 'error');
    function PlainLink(props: { onClick?: () => void; children?: React.ReactNode }) {
      return <a href="#sign-in" {...props} />;
    }
    const auth = renderButton(
      <SignInButton asChild>
        <PlainLink>Log in</PlainLink>
      </SignInButton>,
    );
    await userEvent.click(screen.getByRole('link', { name: 'Log in' }));
    expect(auth.signIn.calls).toHaveLength(1);
    expect(logged).not.toHaveBeenCalled();
  });

  test('asChild keeps its click and class when your element passes them on as undefined', async () => {
    // A link component that forwards its own optional props: `onClick={props.onClick}`.
    function NavLink({ onClick, className }: { onClick?: () => void; className?: string }) {
      return (
        <a href="#sign-in" onClick={onClick} className={className}>
          Log in
        </a>
      );
    }
    const forwarded: { onClick?: () => void; className?: string } = {};
    const auth = renderButton(
      <SignInButton asChild className="from-button">
        <NavLink onClick={forwarded.onClick} className={forwarded.className} />
      </SignInButton>,
    );
    const link = screen.getByRole('link', { name: 'Log in' });
    expect(link.className).toBe('from-button');
    await userEvent.click(link);
    expect(auth.signIn.calls).toHaveLength(1);
  });

  test.each([
    ['text', 'Log in'],
    ['two elements', [<a key="1">Log</a>, <a key="2">in</a>]],
    ['nothing', undefined],
  ])(
    'asChild with %s instead of one element throws, in development, saying what it needs',
    (_, children) => {
      vi.spyOn(console, 'error').mockImplementation(() => undefined);
      expect(() => renderButton(<SignInButton asChild>{children}</SignInButton>)).toThrow(
        /^<SignInButton asChild> needs exactly one element as its child/,
      );
    },
  );

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
