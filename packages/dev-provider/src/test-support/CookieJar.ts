interface StoredCookie {
  name: string;
  value: string;
  path: string;
}

/**
 * The part of a browser's cookie store these tests need: one host, `Path` scoping, deletion by
 * `Expires`/`Max-Age` in the past. Domain, Secure and SameSite are ignored (all requests are
 * same-site, over http).
 */
export class CookieJar {
  readonly #cookies = new Map<string, StoredCookie>();

  /** Stores the `Set-Cookie` headers of a response to a request for `url`. */
  store(url: URL, response: Response): void {
    for (const header of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = header.split(';').map((part) => part.trim());
      const separator = pair.indexOf('=');
      const name = pair.slice(0, separator);
      const value = pair.slice(separator + 1);
      let path = url.pathname.slice(0, url.pathname.lastIndexOf('/')) || '/';
      let expired = false;
      for (const attribute of attributes) {
        const [key = '', attributeValue = ''] = attribute.split('=');
        switch (key.toLowerCase()) {
          case 'path':
            path = attributeValue;
            break;
          case 'expires':
            expired ||= Date.parse(attributeValue) <= Date.now();
            break;
          case 'max-age':
            expired ||= Number(attributeValue) <= 0;
            break;
        }
      }
      const key = `${name};${path}`;
      if (expired) this.#cookies.delete(key);
      else this.#cookies.set(key, { name, value, path });
    }
  }

  /** The `Cookie` header a browser would send to `url`, if any cookie applies. */
  header(url: URL): string | undefined {
    const matching = [...this.#cookies.values()].filter(
      (cookie) =>
        url.pathname === cookie.path ||
        url.pathname.startsWith(cookie.path.endsWith('/') ? cookie.path : `${cookie.path}/`),
    );
    // Longer paths first, as browsers send them.
    matching.sort((a, b) => b.path.length - a.path.length);
    return matching.length === 0
      ? undefined
      : matching.map((cookie) => `${cookie.name}=${cookie.value}`).join('; ');
  }

  /** Names of the stored cookies, for assertions. */
  names(): string[] {
    return [...this.#cookies.values()].map((cookie) => cookie.name);
  }
}
