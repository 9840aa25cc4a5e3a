import { randomBytes } from 'node:crypto';
import { escapeHtml } from './escapeHtml.js';

/** A rendered HTML page and the headers it must be sent with. */
export interface Page {
  html: string;
  headers: Record<string, string>;
}

const stylesheet = `
:root { color-scheme: light dark; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
body { margin: 0; min-height: 100vh; display: grid; place-items: center; background: Canvas; color: CanvasText; }
main { width: min(22rem, 100% - 2rem); padding: 1.5rem; border: 1px solid GrayText; border-radius: 0.5rem; }
h1 { font-size: 1.5rem; margin: 0 0 0.5rem; }
p { line-height: 1.4; }
label { display: block; font-weight: 600; margin: 1rem 0 0.25rem; }
input { box-sizing: border-box; width: 100%; padding: 0.5rem; font: inherit; }
.actions { display: flex; gap: 0.5rem; margin-top: 1.25rem; }
button { font: inherit; padding: 0.5rem 1rem; border-radius: 0.25rem; border: 1px solid ButtonBorder; cursor: pointer; }
button.primary { background: #1d4ed8; border-color: #1d4ed8; color: #fff; }
:focus-visible { outline: 3px solid #2563eb; outline-offset: 2px; }
[role="alert"] { color: #b91c1c; border-left: 4px solid #b91c1c; padding-left: 0.5rem; font-weight: 600; }
.hint, .footer { font-size: 0.875rem; color: light-dark(#4b5563, #b0b7c3); }
dt { font-weight: 600; } dd { margin: 0 0 0.5rem; overflow-wrap: anywhere; }
`;

/**
 * Wraps page content in the shared layout. Everything is inline and nonce-bound; the CSP forbids
 * every other load, so the page makes no external request.
 */
export function renderPage({
  title,
  body,
  script,
}: {
  title: string;
  /** Trusted HTML: callers escape what they echo. */
  body: string;
  /** Inline script source, allowed by the page's nonce. */
  script?: string;
}): Page {
  const nonce = randomBytes(16).toString('base64');
  const csp = [
    "default-src 'none'",
    `style-src 'nonce-${nonce}'`,
    script === undefined ? "script-src 'none'" : `script-src 'nonce-${nonce}'`,
    "base-uri 'none'",
    "frame-ancestors 'none'",
    // No form-action: browsers apply it to the redirects after a form post, and sign-in and sign-out
    // must redirect to the clients' own origins.
  ].join('; ');
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)} · oidc-kit dev provider</title>
<style nonce="${nonce}">${stylesheet}</style>
</head>
<body>
<main>
${body}
<p class="footer">oidc-kit dev provider: for development and tests only.</p>
</main>
${script === undefined ? '' : `<script nonce="${nonce}">${script}</script>\n`}</body>
</html>
`;
  return {
    html,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': csp,
      'cache-control': 'no-store',
      'referrer-policy': 'no-referrer',
      'x-content-type-options': 'nosniff',
    },
  };
}
