const loopbackNames = ['localhost', '127.0.0.1'];

function loopbackUrl(uri: string): URL | null {
  const url = URL.parse(uri);
  return url !== null && url.protocol === 'http:' && loopbackNames.includes(url.hostname)
    ? url
    : null;
}

/**
 * The registration of a client on this machine for any port: when every URI is
 * `http://localhost` or `http://127.0.0.1`, the client is registered as oidc-provider registers
 * native apps (RFC 8252 §7.3: the port of a loopback redirect URI is not compared), under both
 * names. The built-in client uses it, so an app started on another port works without a clients
 * file. Null when a URI is not on the loopback.
 */
export function loopbackClient(
  redirectUris: readonly string[],
  postLogoutRedirectUris: readonly string[],
) {
  const all = [...redirectUris, ...postLogoutRedirectUris];
  if (all.length === 0 || !all.every((uri) => loopbackUrl(uri) !== null)) return null;
  const bothNames = (uris: readonly string[]) => [
    ...new Set(
      uris.flatMap((uri) =>
        loopbackNames.map((name) => {
          const url = loopbackUrl(uri) as URL;
          url.hostname = name;
          return url.href;
        }),
      ),
    ),
  ];
  return {
    application_type: 'native' as const,
    redirect_uris: bothNames(redirectUris),
    post_logout_redirect_uris: bothNames(postLogoutRedirectUris),
  };
}

/**
 * Whether `origin` may call the provider from the browser for a client with these URIs; `anyPort`
 * for a client registered by `loopbackClient`.
 */
export function corsAllowed(
  origin: string,
  redirectUris: readonly string[],
  anyPort: boolean,
): boolean {
  const from = loopbackUrl(origin);
  return redirectUris.some((uri) => {
    const target = loopbackUrl(uri);
    if (anyPort && from !== null && target !== null) return from.hostname === target.hostname;
    return new URL(uri).origin === origin;
  });
}
