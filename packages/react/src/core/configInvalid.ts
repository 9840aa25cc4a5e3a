import { authError } from './errors';
import type { AuthError } from './errors';

/**
 * The `config_invalid` error for `field`. `message` (development only, `false` in production)
 * says what is wrong and how to fix it.
 */
export function configInvalid(field: string, message: string | false, cause?: unknown): AuthError {
  return authError(
    'config_invalid',
    process.env.NODE_ENV !== 'production' &&
      message !== false && [
        `oidc-kit config: \`${field}\` ${message}`,
        'Nothing was sent to the identity provider.',
      ],
    { field, cause },
  );
}

/** A config value as an error message shows it: quoted when a string, cut when long. */
export function showValue(value: unknown): string {
  const text = typeof value === 'string' ? JSON.stringify(value) : String(value);
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}
