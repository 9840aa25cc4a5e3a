import { escapeHtml } from './escapeHtml.js';
import { renderPage, type Page } from './renderPage.js';

/**
 * The RP-initiated logout confirmation. `form` is oidc-provider's hidden form (it carries the xsrf
 * token). For a known client the page submits itself; the button is there for browsers without JS.
 */
export function renderLogoutPage({
  form,
  clientName,
  autoSubmit,
}: {
  form: string;
  clientName?: string;
  autoSubmit: boolean;
}): Page {
  const body = `<h1>Sign out</h1>
<p>Sign out of the dev provider${clientName === undefined ? '' : ` and return to <strong>${escapeHtml(clientName)}</strong>`}?</p>
${form}
<div class="actions">
<button type="submit" class="primary" form="op.logoutForm" name="logout" value="yes">Sign out</button>
</div>`;
  // Adds logout=yes the way the button would, then submits.
  const script = `(function () {
  var form = document.getElementById('op.logoutForm');
  var input = document.createElement('input');
  input.type = 'hidden'; input.name = 'logout'; input.value = 'yes';
  form.appendChild(input);
  form.submit();
})();`;
  return renderPage({ title: 'Sign out', body, ...(autoSubmit ? { script } : {}) });
}

/** Shown after a logout that named no `post_logout_redirect_uri`. */
export function renderSignedOutPage({ clientName }: { clientName?: string }): Page {
  const body = `<h1>Signed out</h1>
<p>You are signed out${clientName === undefined ? '' : ` of <strong>${escapeHtml(clientName)}</strong>`}. You can close this page.</p>`;
  return renderPage({ title: 'Signed out', body });
}
