import { escapeHtml } from './escapeHtml.js';
import { renderPage, type Page } from './renderPage.js';

/** The login form for one interaction; a failed attempt re-renders it with an alert. */
export function renderLoginPage({
  uid,
  clientName,
  username = '',
  failed = false,
  hint,
}: {
  uid: string;
  clientName: string;
  username?: string;
  failed?: boolean;
  /** e.g. "Dev accounts: alice / alice, bob / bob", shown for the seeded users only. */
  hint?: string;
}): Page {
  const action = `/interaction/${encodeURIComponent(uid)}`;
  const invalid = failed ? ' aria-invalid="true" aria-describedby="login-error"' : '';
  const body = `<h1>Sign in</h1>
<p>to continue to <strong>${escapeHtml(clientName)}</strong></p>
${failed ? '<p id="login-error" role="alert">Wrong username or password</p>\n' : ''}<form method="post" action="${escapeHtml(`${action}/login`)}">
<label for="username">Username</label>
<input id="username" name="username" type="text" autocomplete="username" autocapitalize="none" spellcheck="false" required value="${escapeHtml(username)}"${invalid}${failed ? '' : ' autofocus'}>
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required${invalid}${failed ? ' autofocus' : ''}>
<div class="actions">
<button type="submit" class="primary">Sign in</button>
<button type="submit" formaction="${escapeHtml(`${action}/cancel`)}" formnovalidate>Cancel</button>
</div>
</form>
${hint === undefined ? '' : `<p class="hint">${escapeHtml(hint)}</p>\n`}`;
  return renderPage({ title: 'Sign in', body });
}
