import { CookieJar } from './CookieJar.js';

/** A page the browser ended on, or the redirect it stopped at because it leaves the provider. */
export interface Visit {
  response: Response;
  /** Final URL of the response. */
  url: URL;
  /** Body text (read once). */
  body: string;
  /** Set when the provider redirected to another origin (the client): where it sent the browser. */
  redirectedTo?: URL;
}

/**
 * Drives the provider the way a browser does: carries cookies, follows redirects by hand within
 * the provider's origin, stops at a redirect to any other origin (the client app, not running),
 * and posts forms as `application/x-www-form-urlencoded`.
 */
export class Browser {
  /** `jar` shared by two browsers is one browser visiting two ports: cookies ignore the port. */
  constructor(
    private readonly origin: string,
    readonly jar = new CookieJar(),
  ) {}

  /** GET `url`, following redirects within the provider. */
  open(url: string | URL): Promise<Visit> {
    return this.#navigate(new URL(url, this.origin), 'GET');
  }

  /** Posts a form to `action` (resolved against `base`), then follows redirects. */
  submit(action: string, base: URL, fields: Record<string, string>): Promise<Visit> {
    return this.#navigate(new URL(action, base), 'POST', new URLSearchParams(fields));
  }

  async #navigate(start: URL, startMethod: string, startBody?: URLSearchParams): Promise<Visit> {
    let url = start;
    let method = startMethod;
    let body = startBody;
    for (let hop = 0; hop < 20; hop += 1) {
      const cookie = this.jar.header(url);
      const response = await fetch(url, {
        method,
        redirect: 'manual',
        headers: {
          accept: 'text/html',
          ...(cookie === undefined ? {} : { cookie }),
          ...(body === undefined ? {} : { 'content-type': 'application/x-www-form-urlencoded' }),
        },
        ...(body === undefined ? {} : { body: body.toString() }),
      });
      this.jar.store(url, response);
      const location = response.headers.get('location');
      if (response.status < 300 || response.status >= 400 || location === null) {
        return { response, url, body: await response.text() };
      }
      await response.body?.cancel();
      const next = new URL(location, url);
      if (next.origin !== this.origin) {
        return { response, url, body: '', redirectedTo: next };
      }
      // 303 (and 301/302 after POST) turn into GET, as in browsers.
      if (response.status !== 307 && response.status !== 308) {
        method = 'GET';
        body = undefined;
      }
      url = next;
    }
    throw new Error(`too many redirects from ${start.href}`);
  }
}

/** Decodes the HTML entities that our pages and oidc-provider's forms use in attributes. */
export function decodeHtml(value: string): string {
  return value
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** The value of attribute `name` on the first tag matching `tagPattern`, decoded. */
export function attribute(html: string, tagPattern: RegExp, name: string): string {
  const tag = tagPattern.exec(html)?.[0];
  if (tag === undefined) throw new Error(`no tag matching ${tagPattern} in:\n${html}`);
  const value = new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];
  if (value === undefined) throw new Error(`no ${name} attribute on ${tag}`);
  return decodeHtml(value);
}
