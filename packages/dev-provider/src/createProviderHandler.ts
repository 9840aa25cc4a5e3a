import type { IncomingMessage, ServerResponse } from 'node:http';
import { Provider } from 'oidc-provider';
import { createInteractionHandler } from './createInteractionHandler.js';
import {
  createProviderConfiguration,
  type ProviderSettings,
} from './createProviderConfiguration.js';
import { isLoopbackHostHeader } from './isLoopbackHost.js';
import { renderErrorPage } from './renderErrorPage.js';
import { renderStillSignedInPage, staySignedInPath } from './renderLogoutPage.js';

/**
 * The HTTP handler of the whole provider: our interaction pages and the logout page's "Stay signed
 * in", then oidc-provider for every other route. Imported lazily by `startDevProvider`, so bad
 * options and a taken port fail fast without loading oidc-provider.
 */
export function createProviderHandler(
  issuer: string,
  settings: ProviderSettings & {
    hint: string | undefined;
    behindProxy: boolean;
    /** Listening on loopback with no proxy: requests for any other host name are refused. */
    loopbackOnly: boolean;
  },
  log: (line: string) => void,
): (req: IncomingMessage, res: ServerResponse) => void {
  const provider = new Provider(issuer, createProviderConfiguration(settings));
  // A given issuer is the public origin of a proxy (often TLS-terminating): endpoint URLs follow its
  // X-Forwarded-Proto / X-Forwarded-Host, or discovery would list http:// endpoints for https.
  provider.proxy = settings.behindProxy;
  provider.on('server_error', (_ctx, error) => {
    console.error('oidc-kit-dev-provider: server error:', error);
  });
  const providerCallback = provider.callback();
  const interactions = createInteractionHandler({
    provider,
    users: settings.users,
    hint: settings.hint,
    log,
  });
  return (req, res) => {
    if (settings.loopbackOnly && !isLoopbackHostHeader(req.headers.host)) {
      const page = renderErrorPage(
        { error: 'invalid_request', error_description: 'Unknown host name.' },
        {
          fix: `This dev provider answers requests for localhost only, not for ${req.headers.host}. To reach it under another name, start it with --issuer (behind a proxy) or --host.`,
        },
      );
      res.writeHead(403, page.headers).end(page.html);
      return;
    }
    exposeNotFound(req, res);
    if (isStaySignedIn(req)) {
      const page = renderStillSignedInPage();
      res.writeHead(200, page.headers).end(page.html);
      return;
    }
    interactions(req, res).then(
      (handled) => {
        if (!handled) void providerCallback(req, res);
      },
      (error: unknown) => {
        console.error('oidc-kit-dev-provider: server error:', error);
        if (res.headersSent) {
          res.destroy();
          return;
        }
        const page = renderErrorPage({
          error: 'server_error',
          error_description: 'Unexpected error.',
        });
        res.writeHead(500, page.headers).end(page.html);
      },
    );
  };
}

function isStaySignedIn(req: IncomingMessage): boolean {
  const { pathname } = new URL(req.url ?? '/', 'http://localhost');
  return pathname === staySignedInPath && (req.method === 'GET' || req.method === 'HEAD');
}

/**
 * A 404 carries CORS headers for the requesting origin: an app whose `authority` has a wrong path
 * then sees "404" where the browser would otherwise report only a failed fetch. A 404 reveals
 * nothing an app may not know.
 */
function exposeNotFound(req: IncomingMessage, res: ServerResponse): void {
  const origin = req.headers.origin;
  if (origin === undefined) return;
  const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
  res.writeHead = ((statusCode: number, ...rest: unknown[]) => {
    if (statusCode === 404 && !res.hasHeader('access-control-allow-origin')) {
      res.setHeader('Access-Control-Allow-Origin', origin);
    }
    return writeHead(statusCode, ...rest);
  }) as ServerResponse['writeHead'];
}
