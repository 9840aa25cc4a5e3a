import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { createMockAuthClient } from '@oidc-kit/react/testing';
import { mainNav } from '../navigation';
import { renderAt } from '../test/renderAt';
import { alice, bob } from '../test/users';
import { withApi } from '../test/withApi';

afterEach(() => sessionStorage.clear());

// Walks navigation.ts, so a screen added there is checked too: its link and its loader's guard
// must agree, or users see a link to a 403, or miss a page they may open.
const guarded = mainNav.filter((item) => item.access !== undefined);

/** The links of the main navigation on the home page, for `auth`. */
async function linksFor(auth: ReturnType<typeof createMockAuthClient>) {
  renderAt('/', auth);
  const nav = await screen.findByRole('navigation', { name: 'Main' });
  const links = within(nav)
    .getAllByRole('link')
    .map((link) => link.textContent);
  cleanup();
  return links;
}

describe('the main navigation', () => {
  test('signed out: only the public links, and every guarded page starts sign-in', async () => {
    const links = await linksFor(createMockAuthClient({ state: 'unauthenticated' }));
    expect(links).toEqual(mainNav.filter((item) => !item.access).map((item) => item.label));
    for (const { to } of guarded) {
      const { auth, fetch } = withApi({ state: 'unauthenticated' }, async () => Response.json({}));
      renderAt(to, auth);
      await vi.waitFor(() => expect(auth.signIn.calls, to).toEqual([[{ returnTo: to }]]));
      expect(fetch, to).not.toHaveBeenCalled();
      cleanup();
      sessionStorage.clear();
    }
  });

  test.each([
    ['alice (user)', alice],
    ['bob (admin)', bob],
  ])('%s sees a link exactly when its page lets them in', async (_, user) => {
    const links = await linksFor(createMockAuthClient({ user: user() }));
    for (const { to, label } of guarded) {
      // The API failing tells an allowed page (it called the API) from a refused one (it did not).
      const { auth } = withApi({ user: user() }, async () => new Response(null, { status: 500 }));
      renderAt(to, auth);
      const heading = await screen.findByRole('heading', { level: 1 });
      expect(heading.textContent === 'Forbidden', `${label} refused`).toBe(!links.includes(label));
      // Refused or not, inside the layout: the page sits under the pages' ErrorBoundary.
      expect(screen.queryByRole('banner'), `${label}: the header`).not.toBeNull();
      cleanup();
    }
  });
});
