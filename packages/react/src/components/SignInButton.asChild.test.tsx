import { act, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createRef, forwardRef, useImperativeHandle, version } from 'react';
import type { ReactElement } from 'react';
import { describe, expect, test, vi } from 'vitest';
import { renderWithMockAuth as renderButton } from '../../test/support/renderWithMockAuth';
import { clicksCancelled } from '../../test/support/clicksCancelled';
import { MockAuthProvider, createMockAuthClient } from '../testing';
import { SignInButton } from './SignInButton';

// SignInButton asChild: your element, with the button's behaviour, refs and class merged in.

/** `<SignInButton asChild>` around `anchor`, the one link on the page: its auth and the link. */
function renderLinkButton(anchor: ReactElement) {
  const auth = renderButton(<SignInButton asChild>{anchor}</SignInButton>);
  return { auth, link: screen.getByRole('link') };
}

describe('SignInButton', () => {
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
    const { auth, link } = renderLinkButton(<a href="/login">Log in</a>);
    await userEvent.click(link);
    expect(auth.signIn.calls).toHaveLength(1);
    expect(cancelled).toEqual([true]);
    await userEvent.click(link);
    expect(auth.signIn.calls).toHaveLength(1);
    expect(cancelled).toEqual([true, true]);
  });

  test("asChild on an SVG link signs in: its href and target are objects (SVGAnimatedString), not a new tab's", async () => {
    const cancelled = clicksCancelled();
    const { auth, link } = renderLinkButton(<a href="#sign-in">Log in</a>);
    // jsdom has no SVGAElement: an SVG <a>'s reflected attributes, as a browser gives them.
    for (const name of ['href', 'target']) {
      Object.defineProperty(link, name, { value: { baseVal: '', animVal: '' } });
    }
    await userEvent.click(link);
    expect(auth.signIn.calls).toHaveLength(1);
    expect(cancelled).toEqual([true]);
  });

  test.each(['Control', 'Meta', 'Shift', 'Alt'])(
    "asChild on a link: %s+click is the browser's (new tab, window, download), neither cancelled nor signing in here",
    async (key) => {
      const cancelled = clicksCancelled();
      const { auth, link } = renderLinkButton(<a href="/sign-in">Sign in</a>);
      const user = userEvent.setup();
      await user.keyboard(`{${key}>}`);
      await user.click(link);
      expect(cancelled).toEqual([false]);
      expect(auth.signIn.calls).toEqual([]);
      // The key released, a plain click is ours again.
      await user.keyboard(`{/${key}}`);
      await user.click(link);
      expect(cancelled).toEqual([false, true]);
      expect(auth.signIn.calls).toHaveLength(1);
    },
  );

  test("asChild on a link: a middle click is the browser's; browsers send it as auxclick, never click", async () => {
    const cancelled = clicksCancelled();
    const { auth, link } = renderLinkButton(<a href="/sign-in">Sign in</a>);
    await userEvent.pointer({ keys: '[MouseMiddle]', target: link });
    expect(cancelled).toEqual([]);
    // A click event that says so anyway (a script's, an older browser's) is left alone too.
    fireEvent.click(link, { button: 1 });
    expect(cancelled).toEqual([false]);
    expect(auth.signIn.calls).toEqual([]);
  });

  test('asChild on a link with a target of its own (target="_blank"): the browser\'s; _self: ours', async () => {
    const cancelled = clicksCancelled();
    const auth = renderButton(
      <>
        <SignInButton asChild>
          <a href="/sign-in" target="_blank">
            New tab
          </a>
        </SignInButton>
        <SignInButton asChild>
          <a href="/sign-in" target="_self">
            Here
          </a>
        </SignInButton>
      </>,
    );
    await userEvent.click(screen.getByRole('link', { name: 'New tab' }));
    expect(cancelled).toEqual([false]);
    expect(auth.signIn.calls).toEqual([]);
    await userEvent.click(screen.getByRole('link', { name: 'Here' }));
    expect(cancelled).toEqual([false, true]);
    expect(auth.signIn.calls).toHaveLength(1);
  });

  test('asChild on a disabled link: a Ctrl-click is cancelled too, a disabled link is not followed', async () => {
    const cancelled = clicksCancelled();
    const auth = renderButton(
      <SignInButton asChild disabled>
        <a href="/sign-in">Sign in</a>
      </SignInButton>,
    );
    const user = userEvent.setup();
    await user.keyboard('{Control>}');
    await user.click(screen.getByRole('link', { name: 'Sign in' }));
    expect(cancelled).toEqual([true]);
    expect(auth.signIn.calls).toEqual([]);
  });

  test.each([
    [
      "asChild on a form's submit button",
      <SignInButton asChild key="asChild">
        <button type="submit">Sign in</button>
      </SignInButton>,
    ],
    ['the plain button', <SignInButton key="plain" />],
  ])(
    '%s: a Ctrl-click signs in, as a click does (a button has no new tab to open)',
    async (_, button) => {
      const cancelled = clicksCancelled();
      const submits: string[] = [];
      const auth = renderButton(
        <form
          onSubmit={(event) => {
            event.preventDefault();
            submits.push('submit');
          }}
        >
          {button}
        </form>,
      );
      const user = userEvent.setup();
      await user.keyboard('{Control>}');
      await user.click(screen.getByRole('button', { name: 'Sign in' }));
      expect(cancelled).toEqual([true]);
      expect(auth.signIn.calls).toHaveLength(1);
      expect(submits).toEqual([]);
    },
  );

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
});
