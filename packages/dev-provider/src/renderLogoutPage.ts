import { escapeHtml } from './escapeHtml.js';
import { renderPage, type Page } from './renderPage.js';

/** Where the logout page's "Stay signed in" leads: a page that changes nothing. */
export const staySignedInPath = '/session/end/cancel';

const signOutButton =
  '<button type="submit" class="primary" form="op.logoutForm" name="logout" value="yes">Sign out</button>';

/**
 * The RP-initiated logout page. `form` is oidc-provider's hidden form (it carries the xsrf token).
 * With `autoSubmit` (a request proven to come from the session's app) the page submits itself, and
 * its button is there for browsers without JS. Otherwise it asks, and nothing runs: a link from any
 * page must not sign the developer out.
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
  const client =
    clientName === undefined ? undefined : `<strong>${escapeHtml(clientName)}</strong>`;
  if (!autoSubmit) {
    const body = `<h1>Sign out of the oidc-kit dev provider?</h1>
<p>${client === undefined ? 'A page asked to sign you out.' : `A page asked to sign you out, in the name of ${client}, without proof that it is that app.`}</p>
<p>Signing out ends your session here and in every app signed in through this provider. If you did not just choose to sign out, stay signed in.</p>
${form}
<div class="actions">
${signOutButton}
<form id="stay-signed-in" method="get" action="${staySignedInPath}"><button type="submit">Stay signed in</button></form>
</div>`;
    return renderPage({ title: 'Sign out?', body });
  }
  const body = `<h1>Sign out</h1>
<p>Sign out of the dev provider${client === undefined ? '' : ` and return to ${client}`}?</p>
${form}
<div class="actions">
${signOutButton}
</div>`;
  // Adds logout=yes the way the button would, then submits.
  const script = `(function () {
  var form = document.getElementById('op.logoutForm');
  var input = document.createElement('input');
  input.type = 'hidden'; input.name = 'logout'; input.value = 'yes';
  form.appendChild(input);
  form.submit();
})();`;
  return renderPage({ title: 'Sign out', body, script });
}

/** Shown after a logout that named no `post_logout_redirect_uri`. */
export function renderSignedOutPage({ clientName }: { clientName?: string }): Page {
  const body = `<h1>Signed out</h1>
<p>You are signed out${clientName === undefined ? '' : ` of <strong>${escapeHtml(clientName)}</strong>`}. You can close this page.</p>`;
  return renderPage({ title: 'Signed out', body });
}

/** Where "Stay signed in" leads: nothing was changed. */
export function renderStillSignedInPage(): Page {
  const body = `<h1>You are still signed in</h1>
<p>Nothing was changed: you are still signed in to the dev provider and its apps. You can close this page.</p>`;
  return renderPage({ title: 'Still signed in', body });
}
