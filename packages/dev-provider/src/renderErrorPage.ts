import { escapeHtml } from './escapeHtml.js';
import { renderPage, type Page } from './renderPage.js';

/**
 * The provider's error page, for requests it must not redirect back (unknown client, unregistered
 * redirect URI, expired sign-in). It lists the OAuth error fields, escaped, and `fix`, what the
 * developer can do about it, when known.
 */
export function renderErrorPage(
  out: Record<string, unknown>,
  { signOut = false, fix }: { signOut?: boolean; fix?: string } = {},
): Page {
  const fields = Object.entries(out)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => `<dt>${escapeHtml(key)}</dt><dd>${escapeHtml(value)}</dd>`)
    .join('\n');
  const body = `<h1>${signOut ? 'Sign-out error' : 'Sign-in error'}</h1>
<p role="alert">The request cannot be completed, so you are not sent back to the application.</p>
<dl>
${fields}
</dl>${fix === undefined ? '' : `\n<p>${escapeHtml(fix)}</p>`}`;
  return renderPage({ title: 'Error', body });
}
