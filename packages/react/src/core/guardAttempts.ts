import { browserStorage } from './browserStorage';

/** A guard's automatic sign-in for one return path, remembered so it happens once. */
export interface GuardAttempt {
  returnTo: string;
  /** The attempt used `prompt=none`; an interactive one may follow. */
  silent: boolean;
  at: number;
}

const key = 'oidc-kit:guard-attempt';
// Long enough to cover a trip through the provider's login page, short enough to forget.
const memory = 10 * 60 * 1000;
// Without sessionStorage the attempt lives in the page, in one place for every copy of this module:
// the main entry and the /react-router entry each bundle one.
const fallbackKey = Symbol.for('@oidc-kit/react/guard-attempt');
const page = globalThis as { [fallbackKey]?: GuardAttempt | null };

/** The guard's last automatic sign-in for `returnTo`, if it is recent. */
export function readGuardAttempt(returnTo: string): GuardAttempt | null {
  let attempt: GuardAttempt | null = page[fallbackKey] ?? null;
  const store = browserStorage('sessionStorage');
  if (store !== null) {
    try {
      attempt = JSON.parse(store.getItem(key) ?? 'null') as GuardAttempt | null;
    } catch {
      attempt = null;
    }
  }
  if (attempt === null || attempt.returnTo !== returnTo || Date.now() - attempt.at > memory)
    return null;
  return attempt;
}

/** Remembers an automatic sign-in, stamped now (it survives the redirect: sessionStorage is per tab). */
export function writeGuardAttempt(next: Omit<GuardAttempt, 'at'> | null): void {
  const attempt = next === null ? null : { ...next, at: Date.now() };
  page[fallbackKey] = attempt;
  const store = browserStorage('sessionStorage');
  if (store === null) return;
  if (attempt === null) store.removeItem(key);
  else store.setItem(key, JSON.stringify(attempt));
}
