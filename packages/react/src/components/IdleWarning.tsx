import { useEffect, useId, useRef } from 'react';
import type { CSSProperties, ReactNode } from 'react';
import { useAuthActions } from '../hooks/useAuthActions';
import { useIdleFor } from '../hooks/useIdle';
import { reportRejection } from '../reportRejection';

/** Props of {@link IdleWarning}: every text replaceable; `className` replaces the default look. */
export interface IdleWarningProps {
  /** The dialog's title. Default "Are you still there?". */
  title?: ReactNode;
  /** The dialog's text, given the time left as "m:ss". Default: "For your security, you will be signed out in {time}.". */
  children?: (time: string) => ReactNode;
  /** Default "Stay signed in". */
  stayLabel?: ReactNode;
  /** Default "Sign out". */
  signOutLabel?: ReactNode;
  /**
   * Classes for the dialog (a modal `<dialog>`, so also for its `::backdrop`); when set, the
   * default inline look is left out.
   */
  className?: string;
  /** Classes for the backdrop over the page; when set, its default inline look is left out. */
  backdropClassName?: string;
  /** Classes for the "Stay signed in" button. */
  stayClassName?: string;
  /** Classes for the "Sign out" button; when set, its default inline margin is left out. */
  signOutClassName?: string;
}

// The browser's own ::backdrop (a 10 % tint in current browsers) is left as it is, on purpose: it is
// what dims an app's modal dialog below the warning, and no inline style reaches it (a <style> the
// component added would be refused by a strict Content-Security-Policy). This tint, over the page
// only, is lighter by as much, so that the page is dimmed about as before (0.45). An app styles
// both through its classes (`.its-class::backdrop`).
const backdropLook: CSSProperties = {
  position: 'fixed',
  inset: 0,
  display: 'grid',
  placeItems: 'center',
  background: 'rgb(0 0 0 / 0.4)',
  zIndex: 1000,
};

const dialogLook: CSSProperties = {
  // Centred in the window and off its edges, however small the window (400 % zoom): what does not
  // fit scrolls inside it. The browser's own limits would leave out this padding and border.
  boxSizing: 'border-box',
  maxWidth: 'min(26rem, 100% - 2rem)',
  maxHeight: 'calc(100% - 2rem)',
  overflowY: 'auto',
  margin: 'auto',
  padding: '1.25rem 1.5rem',
  borderRadius: '0.75rem',
  // Invisible, except in forced colours, where it is the only edge left (no background, no shadow).
  border: '1px solid transparent',
  // The page's colour scheme's own (`color-scheme`): white and black in a light page, dark in a dark one.
  background: 'Canvas',
  color: 'CanvasText',
  boxShadow: '0 10px 30px rgb(0 0 0 / 0.25)',
};

// The dialog's padding alone above the title, as below the buttons: a paragraph's top margin
// would add 1em above. And the buttons apart by more than the space between them.
const titleLook: CSSProperties = { marginTop: 0 };
const signOutLook: CSSProperties = { marginInlineStart: '0.5rem' };

/** "m:ss" of a number of milliseconds (`useIdle` counts to the second, rounding up). */
function clock(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

const defaultText = (time: string) => `For your security, you will be signed out in ${time}.`;

/**
 * Idle sign-out's warning (`idle` in the config): a modal `alertdialog` with a countdown, "Stay
 * signed in" (also Escape) and "Sign out", in the top layer (above the app's own modal dialogs).
 * It shows in every tab at once and closes in every tab when one stays; focus moves into it,
 * stays in it, and returns where it was. Renders nothing otherwise. Place it once, inside
 * `AuthProvider`.
 *
 * @example
 * <AuthProvider config={{ ...config, idle: { timeout: 15 * 60_000 } }}>
 *   <IdleWarning />
 *   <App />
 * </AuthProvider>
 */
export function IdleWarning(props: IdleWarningProps): ReactNode {
  const { status, remaining, stay } = useIdleFor('IdleWarning');
  // Shown once the time left is known: not in the server's HTML, nor in the hydration pass.
  return status === 'warning' && remaining !== Infinity ? (
    <IdleDialog {...props} remaining={remaining} stay={stay} />
  ) : null;
}

function IdleDialog({
  title = 'Are you still there?',
  children = defaultText,
  stayLabel = 'Stay signed in',
  signOutLabel = 'Sign out',
  className,
  backdropClassName,
  stayClassName,
  signOutClassName,
  remaining,
  stay,
}: IdleWarningProps & { remaining: number; stay: () => void }) {
  const { signOut } = useAuthActions();
  const titleId = useId();
  const textId = useId();
  const dialog = useRef<HTMLDialogElement>(null);
  const stayButton = useRef<HTMLButtonElement>(null);
  const focusedBefore = useRef<(HTMLElement | null)[] | null>(null);

  useEffect(() => {
    // Focus into the dialog, and back where it was when it closes, without scrolling the page back
    // to that element (the user may have scrolled on, reading, since it took focus). StrictMode's
    // second run keeps what the first saw: by then focus is in the warning, and the page behind a
    // modal dialog is inert, so the first cleanup could not give focus back.
    const returnTo = (focusedBefore.current ??= [document.activeElement as HTMLElement | null]);
    const top = dialog.current;
    // Modal in the top layer, so that it is above (and makes inert) whatever the app has open,
    // its own modal <dialog> included; without showModal (old browsers, jsdom), open in place.
    // Once: StrictMode's second run finds it open already.
    if (top && !top.open) {
      if (top.showModal) top.showModal();
      else top.setAttribute('open', '');
    }
    stayButton.current?.focus();
    // A modal <dialog> the app opens later goes above the warning and makes it inert: a mouse could
    // no longer reach "Stay signed in". So the warning opens again, on top, and gives focus to that
    // dialog when it closes. Once a task: two dialogs that each do this (two warnings) must not
    // take turns forever.
    let raised = false;
    const watch = new MutationObserver((records) => {
      const above = records.some(
        ({ target }) => !top?.contains(target) && (target as Element).matches(':modal'),
      );
      if (!above || raised || !top?.isConnected) return;
      raised = true;
      setTimeout(() => (raised = false));
      returnTo.unshift(document.activeElement as HTMLElement | null);
      top.close();
      top.showModal();
      stayButton.current?.focus();
    });
    if (top?.showModal && knowsModal(top)) {
      watch.observe(document, { attributeFilter: ['open'], subtree: true });
    }
    return () => {
      watch.disconnect();
      // The latest of them that can still take focus (the app may have closed its dialog since).
      returnTo.some((element) => {
        element?.focus?.({ preventScroll: true });
        return document.activeElement === element;
      });
    };
  }, []);

  useEffect(() => {
    // On the document, not the dialog: the keys hold wherever focus went (a click on the backdrop
    // leaves it on the body, and without showModal the page behind stays tabbable). Escape's
    // keydown, prevented, is no close request: the <dialog> stays open until `stay` closes it.
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        event.preventDefault();
        stay();
        return;
      }
      if (event.key !== 'Tab') return;
      // Focus stays inside: from the last control (first with Shift), or from outside, to the first.
      // Links and fields in the app's text are controls too.
      const controls = Array.from(
        dialog.current?.querySelectorAll<HTMLElement>(
          'a[href],button:not(:disabled),input:not(:disabled),select,textarea,[tabindex="0"]',
        ) ?? [],
      );
      if (event.shiftKey) controls.reverse();
      const from = document.activeElement as HTMLElement;
      if (from === controls.at(-1) || !controls.includes(from)) {
        event.preventDefault();
        controls[0]?.focus();
      }
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [stay]);

  // Announced politely at each quarter minute, then at 10 and 5 s, not every second, and not on
  // opening (the alertdialog's description is read then): the text as it shows at that second,
  // as plain text (a link in the app's text is not there twice). The region is emptied a second
  // later, so that what it holds never claims more time than is left.
  const seconds = Math.floor(remaining / 1000);
  const step = seconds > 10 ? Math.ceil(seconds / 15) * 15 : seconds > 5 ? 10 : 5;
  const lastStep = useRef(step);
  const text = useRef<HTMLParagraphElement>(null);
  const live = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    const reached = step !== lastStep.current && seconds > 0;
    lastStep.current = step;
    if (live.current) live.current.textContent = reached ? (text.current?.textContent ?? '') : '';
  }, [step, seconds]);

  // The <dialog> is the alertdialog itself: around the alertdialog, Chromium would give screen
  // readers a second, unnamed dialog (a role="none" on it is ignored).
  return (
    <div className={backdropClassName} style={backdropClassName ? undefined : backdropLook}>
      <dialog
        ref={dialog}
        role="alertdialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={textId}
        className={className}
        style={className ? undefined : dialogLook}
        tabIndex={-1}
        // Any other close request (a phone's back gesture) means "stay" too.
        onCancel={(event) => {
          event.preventDefault();
          stay();
        }}
      >
        <p id={titleId} style={className ? undefined : titleLook}>
          <strong>{title}</strong>
        </p>
        <p id={textId} ref={text}>
          {children(clock(remaining))}
        </p>
        <p ref={live} aria-live="polite" style={visuallyHidden} />
        <button ref={stayButton} type="button" className={stayClassName} onClick={stay}>
          {stayLabel}
        </button>{' '}
        <button
          type="button"
          className={signOutClassName}
          style={className || signOutClassName ? undefined : signOutLook}
          onClick={() => void reportRejection(signOut())}
        >
          {signOutLabel}
        </button>
      </dialog>
    </div>
  );
}

/**
 * Whether the browser knows the `:modal` selector: some have showModal without it (Chrome before
 * 105, Firefox before 103, Safari before 15.6), where `matches(':modal')` throws. There the
 * warning is not raised again, as it is not where there is no showModal.
 */
function knowsModal(element: Element): boolean {
  try {
    element.matches(':modal');
    return true;
  } catch {
    return false;
  }
}

const visuallyHidden: CSSProperties = {
  position: 'absolute',
  width: 1,
  height: 1,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
};
