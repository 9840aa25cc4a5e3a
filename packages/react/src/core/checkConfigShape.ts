import { checkKnownKeys } from './checkKnownKeys';
import { configInvalid, showValue } from './configInvalid';

const storages = ['session', 'local', 'memory'];

/** The redirect URIs besides `redirect_uri` a config may set: on the app's origin, like it. */
export const optionalRedirectUris = [
  'post_logout_redirect_uri',
  'silent_redirect_uri',
  'popup_redirect_uri',
] as const;

function requireString(config: Record<string, unknown>, field: string, hint: string): void {
  const value = config[field];
  if (value === undefined || value === null || value === '') {
    throw configInvalid(field, `is required. ${hint}`);
  }
  if (typeof value !== 'string' || value.trim() === '') {
    throw configInvalid(field, `must be a non-empty string (got ${showValue(value)}). ${hint}`);
  }
}

function optional(
  config: Record<string, unknown>,
  field: string,
  valid: (value: unknown) => boolean,
  expected: string,
): void {
  const value = config[field];
  if (value !== undefined && !valid(value)) {
    throw configInvalid(field, `must be ${expected} (got ${showValue(value)}).`);
  }
}

/**
 * The shape of an `AuthConfig`: an object, known keys, required strings, option types. Development
 * builds only (TypeScript checks the same at compile time); the security checks in
 * `validateConfig` run in every build.
 */
export function checkConfigShape(config: unknown, origin: string | undefined): void {
  if (typeof config !== 'object' || config === null || Array.isArray(config)) {
    throw configInvalid(
      'config',
      `must be an object with authority, client_id and redirect_uri (got ${showValue(config)}).`,
    );
  }
  const input = config as Record<string, unknown>;
  checkKnownKeys(input);
  requireString(
    input,
    'authority',
    'Set it to your provider\'s issuer URL, e.g. "https://login.example.com/realms/app".',
  );
  // oidc-client-ts appends the discovery path itself: given here too, it asks for it twice.
  const authority = input.authority as string;
  const discovery = /\/\.well-known\/openid-configuration\/?$/.exec(authority);
  if (discovery !== null) {
    throw configInvalid(
      'authority',
      `is the URL of the discovery document, not the issuer: use ${showValue(authority.slice(0, discovery.index))} (got ${showValue(authority)}). oidc-kit reads the discovery document from there.`,
    );
  }
  requireString(input, 'client_id', 'Use the client id your provider shows for this app.');
  requireString(
    input,
    'redirect_uri',
    `Use this app's callback URL, e.g. "${origin ?? 'https://app.example.com'}/callback", registered at your provider.`,
  );
  for (const field of optionalRedirectUris) {
    optional(
      input,
      field,
      (value) => typeof value === 'string',
      "an absolute URL on this app's origin",
    );
  }
  optional(
    input,
    'apiOrigins',
    (value) => Array.isArray(value),
    'an array of origins, e.g. ["https://api.example.com"]',
  );
  (input.apiOrigins as unknown[] | undefined)?.forEach((entry, index) => {
    if (typeof entry !== 'string') {
      throw configInvalid(
        `apiOrigins[${index}]`,
        `must be a string origin (got ${showValue(entry)}).`,
      );
    }
  });
  optional(
    input,
    'clockLeeway',
    (value) => typeof value === 'number' && value >= 0 && value <= 600,
    'a number of seconds from 0 to 600',
  );
  optional(
    input,
    'timeout',
    (value) => typeof value === 'number' && Number.isFinite(value) && value > 0,
    'a positive number of milliseconds',
  );
  optional(
    input,
    'storage',
    (value) => storages.includes(value as string),
    `one of ${storages.map((s) => `"${s}"`).join(', ')}`,
  );
  checkIdleShape(input.idle);
  optional(
    input,
    'roles',
    (value) => typeof value === 'function',
    'a function from user to roles, e.g. roleReaders.keycloak()',
  );
}

/** The time WCAG 2.2.1 (Timing Adjustable) asks to leave a user to extend a time limit. */
const wcagWarning = 20_000;

/**
 * `idle`'s keys (a misspelt `warning` would leave the default in silence), a timeout in seconds,
 * and a warning under the 20 s WCAG 2.2.1 asks for, which is allowed (a kiosk, a test) but said.
 * The values themselves are checked by `resolveIdle`, in every build.
 */
function checkIdleShape(idle: unknown): void {
  if (typeof idle !== 'object' || idle === null) return;
  for (const key of Object.keys(idle)) {
    if (key !== 'timeout' && key !== 'warning') {
      throw configInvalid(
        `idle.${key}`,
        'is not an idle setting: idle takes timeout and warning, in milliseconds.',
      );
    }
  }
  const { timeout, warning = typeof timeout === 'number' ? Math.min(60_000, timeout / 2) : 0 } =
    idle as { timeout?: unknown; warning?: unknown };
  // No one is idle within 10 s: such a timeout was written in seconds, and would end every session
  // before its user could act.
  if (typeof timeout === 'number' && timeout > 0 && timeout < 10_000) {
    console.warn(
      `oidc-kit: idle.timeout is ${timeout} ms: idle settings are in milliseconds (15 minutes is 15 * 60_000), so every session ends ${timeout} ms after its last input.`,
    );
    return;
  }
  if (
    typeof warning === 'number' &&
    warning > 0 &&
    warning < wcagWarning &&
    typeof timeout === 'number' &&
    warning < timeout
  ) {
    console.warn(
      `oidc-kit: idle.warning is ${warning} ms${'warning' in idle ? '' : ' (half of idle.timeout)'}. Under 20 s, some users cannot answer the warning in time (WCAG 2.2.1 asks for 20 s): set idle.warning to 20_000 or more.`,
    );
  }
}
