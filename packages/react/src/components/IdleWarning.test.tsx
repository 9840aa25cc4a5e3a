import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { createHookHarness } from '../../test/support/hookHarness';
import { unhandledRejectionsDuring } from '../../test/support/unhandledRejections';
import { AuthProvider } from '../AuthProvider';
import { AuthContext } from '../authContext';
import type { AuthContextValue } from '../authContext';
import { MockAuthProvider, createMockAuthClient, createTestUser } from '../testing';
import { IdleWarning } from './IdleWarning';

function page(idleWarning?: number) {
  const auth = createMockAuthClient({ user: createTestUser(), idleWarning });
  render(
    <MockAuthProvider client={auth}>
      <button type="button">Save the order</button>
      <IdleWarning />
    </MockAuthProvider>,
  );
  return auth;
}

/** The page, its warning opened while "Save the order" has focus. */
function warnedWhileOnSave() {
  const auth = page();
  const save = screen.getByRole('button', { name: 'Save the order' });
  save.focus();
  act(() => auth.setIdleWarning(60_000));
  return { auth, save };
}

describe('IdleWarning', () => {
  test('renders nothing while the user is active', () => {
    page();
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  test('a labelled, described alertdialog with the time left and the two ways forward', () => {
    page(90_000);
    const dialog = screen.getByRole('alertdialog', { name: 'Are you still there?' });
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    const describedBy = document.getElementById(dialog.getAttribute('aria-describedby') ?? '');
    expect(describedBy?.textContent).toMatch(/signed out in 1:(29|30)\./);
    expect(screen.getByRole('button', { name: 'Stay signed in' })).toBeDefined();
    expect(screen.getByRole('button', { name: 'Sign out' })).toBeDefined();
  });

  test('one dialog for assistive technology: the <dialog> itself is the alertdialog, no unnamed dialog around it', () => {
    page(60_000);
    const dialog = screen.getByRole('alertdialog', { name: 'Are you still there?' });
    expect(dialog.tagName).toBe('DIALOG');
    expect(screen.queryAllByRole('dialog')).toEqual([]);
  });

  test('focus moves in, stays in (Tab and Shift+Tab cycle), and returns where it was', async () => {
    const { auth, save } = warnedWhileOnSave();
    const stay = screen.getByRole('button', { name: 'Stay signed in' });
    const signOut = screen.getByRole('button', { name: 'Sign out' });
    expect(document.activeElement).toBe(stay);
    await userEvent.tab();
    expect(document.activeElement).toBe(signOut);
    await userEvent.tab();
    expect(document.activeElement).toBe(stay);
    await userEvent.tab({ shift: true });
    expect(document.activeElement).toBe(signOut);
    act(() => auth.setIdleWarning(null));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(document.activeElement).toBe(save);
  });

  test('with showModal, focus returns where it was although StrictMode ran the effect twice while the page was inert', () => {
    // A modal <dialog> makes the page behind it inert: nothing there can take focus while it shows.
    HTMLDialogElement.prototype.showModal = function (this: HTMLDialogElement) {
      this.setAttribute('open', '');
    };
    const focus = HTMLElement.prototype.focus;
    const inertFocus = vi.spyOn(HTMLElement.prototype, 'focus').mockImplementation(function (
      this: HTMLElement,
      options?: FocusOptions,
    ) {
      const modal = document.querySelector('dialog[open]');
      if (modal === null || modal.contains(this)) focus.call(this, options);
    });
    try {
      const { auth, save } = warnedWhileOnSave();
      expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Stay signed in' }));
      act(() => auth.setIdleWarning(null));
      expect(screen.queryByRole('alertdialog')).toBeNull();
      expect(document.activeElement).toBe(save);
    } finally {
      inertFocus.mockRestore();
      delete (HTMLDialogElement.prototype as Partial<HTMLDialogElement>).showModal;
    }
  });

  test('a link in its text is shown once, and Tab reaches it inside the dialog', async () => {
    const auth = createMockAuthClient({ user: createTestUser() });
    render(
      <MockAuthProvider client={auth}>
        <IdleWarning>
          {(time) => (
            <>
              Signed out in {time}. <a href="#why">Why?</a>
            </>
          )}
        </IdleWarning>
      </MockAuthProvider>,
    );
    act(() => auth.setIdleWarning(60_000));
    const links = screen.getAllByRole('link', { name: 'Why?' });
    expect(links).toHaveLength(1);
    const dialog = screen.getByRole('alertdialog');
    // Every focusable thing in the dialog is one a sighted user sees: none hidden from both.
    const focusable = Array.from(dialog.querySelectorAll<HTMLElement>('a[href], button'));
    expect(focusable.map((element) => element.textContent)).toEqual([
      'Why?',
      'Stay signed in',
      'Sign out',
    ]);
    expect(dialog.querySelector('[aria-hidden="true"] a, [aria-hidden="true"] button')).toBeNull();
    const describedBy = document.getElementById(dialog.getAttribute('aria-describedby') ?? '');
    expect(describedBy?.textContent).toMatch(/^Signed out in (0:59|1:00)\. Why\?$/);
    const stay = screen.getByRole('button', { name: 'Stay signed in' });
    expect(document.activeElement).toBe(stay);
    await userEvent.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Sign out' }));
    await userEvent.tab();
    expect(document.activeElement).toBe(links[0]);
    await userEvent.tab();
    expect(document.activeElement).toBe(stay);
    await userEvent.tab({ shift: true });
    expect(document.activeElement).toBe(links[0]);
    await userEvent.tab({ shift: true });
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Sign out' }));
  });

  test('the time left is announced politely at each quarter minute, then at 10 and 5 s: as it is then, and not on opening', () => {
    // On opening, the alertdialog's description is read; an announcement then would say it twice.
    // The clock stands still between steps, so what shows is exactly the time set.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(1_700_000_000_000);
    try {
      const auth = page(88_000);
      const live = () => document.querySelector('[aria-live="polite"]')?.textContent;
      const text = () => {
        const dialog = screen.getByRole('alertdialog');
        return document.getElementById(dialog.getAttribute('aria-describedby') ?? '')?.textContent;
      };
      const said = (time: string) => `For your security, you will be signed out in ${time}.`;
      const heard: string[] = [];
      const at = (remaining: number) => {
        act(() => auth.setIdleWarning(remaining));
        const now = live() ?? '';
        // Never more than is left: what is announced is what shows.
        if (now !== '') expect(now).toBe(text());
        if (now !== '') heard.push(now);
      };
      expect(live()).toBe('');
      for (const remaining of [80_000, 75_000, 74_000, 61_000, 60_000, 59_000]) at(remaining);
      for (let remaining = 12_000; remaining >= 0; remaining -= 1000) at(remaining);
      expect(heard).toEqual([said('1:15'), said('1:00'), said('0:12'), said('0:10'), said('0:05')]);
      // Between steps the region is empty: read with the dialog, it does not contradict the text.
      at(4_000);
      expect(live()).toBe('');
    } finally {
      vi.useRealTimers();
    }
  });

  test('a click on its text keeps focus in the dialog: Tab goes on inside, Escape stays, focus returns', async () => {
    const { auth, save } = warnedWhileOnSave();
    const dialog = screen.getByRole('alertdialog');
    await userEvent.click(screen.getByText('Are you still there?'));
    expect(dialog.contains(document.activeElement)).toBe(true);
    await userEvent.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Stay signed in' }));
    await userEvent.click(screen.getByText('Are you still there?'));
    await userEvent.keyboard('{Escape}');
    expect(auth.stayActive.calls).toHaveLength(1);
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(document.activeElement).toBe(save);
  });

  test('with focus outside the dialog (a click on the backdrop), Tab comes back in and Escape stays', async () => {
    const { auth, save } = warnedWhileOnSave();
    const backdrop = screen.getByRole('alertdialog').parentElement as HTMLElement;
    await userEvent.click(backdrop);
    expect(document.activeElement).toBe(document.body);
    await userEvent.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Stay signed in' }));
    await userEvent.click(backdrop);
    await userEvent.tab({ shift: true });
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Sign out' }));
    await userEvent.click(backdrop);
    await userEvent.keyboard('{Escape}');
    expect(auth.stayActive.calls).toHaveLength(1);
    expect(document.activeElement).toBe(save);
    // Closed, the keys are the page's again.
    await userEvent.keyboard('{Escape}');
    expect(auth.stayActive.calls).toHaveLength(1);
    save.blur();
    await userEvent.tab();
    expect(document.activeElement).toBe(save);
  });

  test("in the browser's top layer: opened with showModal where there is one, open in place where not", () => {
    // jsdom 29 has no showModal: the warning opens in place, as a non-modal <dialog>, and shows.
    expect(HTMLDialogElement.prototype.showModal).toBeUndefined();
    const first = warnedWhileOnSave();
    const inPlace = screen.getByRole('alertdialog').closest('dialog');
    expect(inPlace?.hasAttribute('open')).toBe(true);
    act(() => first.auth.setIdleWarning(null));
    cleanup();
    // Where the browser has it (all current ones), showModal lifts it above the app's own modals.
    const showModal = vi.fn(function (this: HTMLDialogElement) {
      this.setAttribute('open', '');
    });
    HTMLDialogElement.prototype.showModal = showModal;
    try {
      warnedWhileOnSave();
      const modal = screen.getByRole('alertdialog').closest('dialog');
      expect(showModal.mock.contexts).toEqual([modal]);
      expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Stay signed in' }));
    } finally {
      delete (HTMLDialogElement.prototype as Partial<HTMLDialogElement>).showModal;
    }
  });

  test('a browser with showModal but without the :modal selector (Chrome before 105, Safari 15.4) raises no error when the app opens something', async () => {
    HTMLDialogElement.prototype.showModal = function (this: HTMLDialogElement) {
      this.setAttribute('open', '');
    };
    const original = Element.prototype.matches;
    const matches = vi.spyOn(Element.prototype, 'matches').mockImplementation(function (
      this: Element,
      selector: string,
    ) {
      if (selector.includes(':modal'))
        throw new DOMException(`'${selector}' is not a valid selector`, 'SyntaxError');
      return original.call(this, selector);
    });
    const errors: unknown[] = [];
    const onError = (event: ErrorEvent) => {
      errors.push(String(event.error));
      event.preventDefault();
    };
    window.addEventListener('error', onError);
    try {
      warnedWhileOnSave();
      const details = document.createElement('details');
      document.body.append(details);
      details.setAttribute('open', '');
      await act(() => new Promise((resolve) => setTimeout(resolve)));
      expect(errors).toEqual([]);
      expect(screen.getByRole('alertdialog')).toBeDefined();
      details.remove();
    } finally {
      window.removeEventListener('error', onError);
      matches.mockRestore();
      delete (HTMLDialogElement.prototype as Partial<HTMLDialogElement>).showModal;
    }
  });

  test('a close request other than Escape (a cancel event) stays, without closing the <dialog> itself', () => {
    const { auth, save } = warnedWhileOnSave();
    const layer = screen.getByRole('alertdialog').closest('dialog');
    const cancel = new Event('cancel', { cancelable: true });
    act(() => void layer?.dispatchEvent(cancel));
    expect(cancel.defaultPrevented).toBe(true);
    expect(auth.stayActive.calls).toHaveLength(1);
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(document.activeElement).toBe(save);
  });

  test('Escape and "Stay signed in" stay; "Sign out" signs out', async () => {
    const auth = page(60_000);
    await userEvent.keyboard('{Escape}');
    expect(auth.stayActive.calls).toHaveLength(1);
    expect(screen.queryByRole('alertdialog')).toBeNull();
    act(() => auth.setIdleWarning(60_000));
    await userEvent.click(screen.getByRole('button', { name: 'Stay signed in' }));
    expect(auth.stayActive.calls).toHaveLength(2);
    act(() => auth.setIdleWarning(60_000));
    await userEvent.click(screen.getByRole('button', { name: 'Sign out' }));
    expect(auth.signOut.calls).toHaveLength(1);
  });

  test('"Sign out" closes it: signed out, nobody is idle', async () => {
    const auth = page(30_000);
    await userEvent.click(screen.getByRole('button', { name: 'Sign out' }));
    expect(auth.getSnapshot().status).toBe('unauthenticated');
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  test('a client whose signOut() rejects: "Sign out" logs it in development, never unhandled', async () => {
    const failure = new Error('The sign-out service is down.');
    const auth = createMockAuthClient({ user: createTestUser(), idleWarning: 30_000 });
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const leaked = await unhandledRejectionsDuring(async () => {
      render(
        <AuthContext.Provider value={{ ...auth, signOut: () => Promise.reject(failure) }}>
          <IdleWarning />
        </AuthContext.Provider>,
      );
      await userEvent.click(screen.getByRole('button', { name: 'Sign out' }));
    });
    expect(leaked).toEqual([]);
    expect(logged).toHaveBeenCalledWith(failure);
  });

  test('every text can be replaced', () => {
    const auth = createMockAuthClient({ user: createTestUser(), idleWarning: 30_000 });
    render(
      <MockAuthProvider client={auth}>
        <IdleWarning
          title="Toujours là ?"
          stayLabel="Rester connecté"
          signOutLabel="Se déconnecter"
        >
          {(time) => `Déconnexion dans ${time}.`}
        </IdleWarning>
      </MockAuthProvider>,
    );
    expect(screen.getByRole('alertdialog', { name: 'Toujours là ?' }).textContent).toMatch(
      /Déconnexion dans 0:(29|30)\./,
    );
    expect(screen.getByRole('button', { name: 'Rester connecté' })).toBeDefined();
    expect(screen.getByRole('button', { name: 'Se déconnecter' })).toBeDefined();
  });

  test("the app's classes replace the default look, down to each button", () => {
    const auth = createMockAuthClient({ user: createTestUser(), idleWarning: 30_000 });
    const { rerender } = render(
      <MockAuthProvider client={auth}>
        <IdleWarning />
      </MockAuthProvider>,
    );
    const shipped = screen.getByRole('alertdialog');
    expect(shipped.getAttribute('style')).toContain('background');
    expect(shipped.parentElement?.getAttribute('style')).toContain('position: fixed');
    const title = document.getElementById(shipped.getAttribute('aria-labelledby') ?? '');
    expect(title?.getAttribute('style')).toBe('margin-top: 0px;');
    const signOut = screen.getByRole('button', { name: 'Sign out' });
    expect(signOut.getAttribute('style')).toBe('margin-inline-start: 0.5rem;');
    rerender(
      <MockAuthProvider client={auth}>
        <IdleWarning
          className="dialog"
          backdropClassName="backdrop"
          stayClassName="primary"
          signOutClassName="secondary"
        />
      </MockAuthProvider>,
    );
    const styled = screen.getByRole('alertdialog');
    expect(styled.className).toBe('dialog');
    expect(styled.getAttribute('style') ?? '').toBe('');
    expect(styled.parentElement?.className).toBe('backdrop');
    expect(styled.parentElement?.getAttribute('style') ?? '').toBe('');
    expect(screen.getByRole('button', { name: 'Stay signed in' }).className).toBe('primary');
    expect(screen.getByRole('button', { name: 'Sign out' }).className).toBe('secondary');
    // None of the default look is left on the title or the buttons either.
    for (const element of styled.querySelectorAll('p, button'))
      expect(element.getAttribute('style') ?? '', element.outerHTML).not.toMatch(/margin/);
  });

  test("a button's own class replaces its default look, the dialog's class unset", () => {
    const auth = createMockAuthClient({ user: createTestUser(), idleWarning: 30_000 });
    render(
      <MockAuthProvider client={auth}>
        <IdleWarning signOutClassName="secondary" />
      </MockAuthProvider>,
    );
    expect(screen.getByRole('alertdialog').getAttribute('style')).toContain('background');
    const signOut = screen.getByRole('button', { name: 'Sign out' });
    expect(signOut.getAttribute('style') ?? '').not.toMatch(/margin/);
  });
});

describe('IdleWarning across tabs, with the real client', () => {
  const hooks = createHookHarness();
  afterEach(() => hooks.dispose());

  test('"Stay signed in" in one tab closes the warning in the other', async () => {
    const idle = { timeout: 60_000, warning: 20_000 };
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const first = await hooks.signedInClient({}, { idle });
    const second = hooks.harness.createClient({ config: { idle } });
    await second.start();
    await vi.waitFor(() => expect(second.getSnapshot().status).toBe('authenticated'));
    const tab = (client: AuthContextValue) =>
      within(
        render(
          <AuthProvider client={client}>
            <IdleWarning />
          </AuthProvider>,
        ).container,
      );
    const tabA = tab(first);
    const tabB = tab(second);
    await act(() => vi.advanceTimersByTimeAsync(41_000));
    expect(tabA.getByRole('alertdialog')).toBeDefined();
    expect(tabB.getByRole('alertdialog')).toBeDefined();

    fireEvent.click(tabA.getByRole('button', { name: 'Stay signed in' }));
    await act(() => vi.advanceTimersByTimeAsync(1_000));
    expect(tabA.queryByRole('alertdialog')).toBeNull();
    expect(tabB.queryByRole('alertdialog')).toBeNull();
    expect(second.getSnapshot().status).toBe('authenticated');
  });
});
