import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { errors, type Provider } from 'oidc-provider';
import type { ResolvedDevUser } from './loadUsersFile.js';
import { renderErrorPage } from './renderErrorPage.js';
import { renderLoginPage } from './renderLoginPage.js';
import type { Page } from './renderPage.js';

/** A Node request handler for the interaction routes, or false when the path is not one. */
export type InteractionHandler = (req: IncomingMessage, res: ServerResponse) => Promise<boolean>;

const maxBodyBytes = 16 * 1024;

/**
 * Serves `/interaction/:uid` (the login form), `POST /interaction/:uid/login` and
 * `POST /interaction/:uid/cancel` through oidc-provider's interaction API. A consent prompt (only
 * when a client sends `prompt=consent`) is granted at once: every client here is first-party.
 */
export function createInteractionHandler({
  provider,
  users,
  hint,
  log,
}: {
  provider: Provider;
  users: readonly ResolvedDevUser[];
  hint: string | undefined;
  log: (line: string) => void;
}): InteractionHandler {
  const userByName = new Map(users.map((user) => [user.username, user]));

  return async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const match = /^\/interaction\/([^/]+)(?:\/(login|cancel))?$/.exec(url.pathname);
    if (!url.pathname.startsWith('/interaction/')) return false;
    try {
      if (match === null) {
        send(res, 404, renderErrorPage({ error: 'not_found', error_description: 'No such page.' }));
        return true;
      }
      const [, uid, action] = match;
      const method = action === undefined ? 'GET' : 'POST';
      if (req.method !== method && !(method === 'GET' && req.method === 'HEAD')) {
        res.setHeader('allow', method);
        send(
          res,
          405,
          renderErrorPage({ error: 'method_not_allowed', error_description: `Use ${method}.` }),
        );
        return true;
      }
      const details = await provider.interactionDetails(req, res);
      if (details.uid !== uid) throw new errors.SessionNotFound('interaction mismatch');
      const client = await provider.Client.find(String(details.params.client_id));
      const clientName = client?.clientName ?? String(details.params.client_id);

      if (action === undefined) {
        if (details.prompt.name === 'consent') {
          const grantId = await grantConsent(provider, details);
          await provider.interactionFinished(req, res, { consent: { grantId } });
          return true;
        }
        // A client's login_hint fills in the username, as hosted providers do.
        const loginHint = details.params.login_hint;
        const username = typeof loginHint === 'string' ? loginHint : '';
        send(res, 200, renderLoginPage({ uid, clientName, username, ...hintOption(hint) }));
        return true;
      }

      const form = new URLSearchParams(await readBody(req));
      if (action === 'cancel') {
        await provider.interactionFinished(
          req,
          res,
          { error: 'access_denied', error_description: 'The user cancelled the sign-in.' },
          { mergeWithLastSubmission: false },
        );
        return true;
      }

      const username = form.get('username') ?? '';
      const user = userByName.get(username);
      if (user === undefined || !samePassword(form.get('password') ?? '', user.password)) {
        send(
          res,
          401,
          renderLoginPage({ uid, clientName, username, failed: true, ...hintOption(hint) }),
        );
        return true;
      }
      log(`${user.username} signed in to ${String(details.params.client_id)}`);
      await provider.interactionFinished(
        req,
        res,
        { login: { accountId: user.sub } },
        { mergeWithLastSubmission: false },
      );
      return true;
    } catch (error) {
      if (error instanceof errors.SessionNotFound) {
        send(
          res,
          400,
          renderErrorPage({
            error: 'invalid_request',
            error_description:
              'This sign-in has expired or was already completed. Start again from the application.',
          }),
        );
        return true;
      }
      throw error;
    }
  };
}

async function grantConsent(
  provider: Provider,
  details: Awaited<ReturnType<Provider['interactionDetails']>>,
): Promise<string> {
  const missing = details.prompt.details as {
    missingOIDCScope?: string[];
    missingOIDCClaims?: string[];
    missingResourceScopes?: Record<string, string[]>;
  };
  const grant =
    (details.grantId === undefined ? undefined : await provider.Grant.find(details.grantId)) ??
    new provider.Grant({
      accountId: details.session!.accountId,
      clientId: String(details.params.client_id),
    });
  if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope);
  if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
  for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {})) {
    grant.addResourceScope(indicator, scopes);
  }
  return grant.save();
}

function hintOption(hint: string | undefined): { hint?: string } {
  return hint === undefined ? {} : { hint };
}

function samePassword(given: string, expected: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > maxBodyBytes) throw new Error('request body too large');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function send(res: ServerResponse, status: number, page: Page): void {
  res.writeHead(status, page.headers);
  res.end(page.html);
}
