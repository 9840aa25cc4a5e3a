import type { IdleOptions } from '@oidc-kit/react';

/**
 * Reading the deployment settings (`VITE_*` variables, inlined by Vite at build time). A value the
 * app cannot use stops it with a page that names the variable (`components/StartupError.tsx`).
 */

/** A `VITE_*` variable whose value the app cannot use. */
export class SettingError extends Error {
  /** The variable, e.g. `VITE_API_URL`. */
  readonly setting: string;

  constructor(setting: string, problem: string) {
    super(`${setting} ${problem}`);
    this.name = 'SettingError';
    this.setting = setting;
  }
}

/** A positive whole number of milliseconds; undefined when the variable is unset or empty. */
export function durationSetting(name: string, value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  const ms = Number(value);
  if (!Number.isSafeInteger(ms) || ms <= 0) {
    throw new SettingError(
      name,
      `is "${value}": use a whole number of milliseconds, e.g. 900000 for 15 minutes.`,
    );
  }
  return ms;
}

/**
 * Idle sign-out from two variables: off when the timeout is unset; the warning (default: a minute
 * before the end) only with a timeout.
 */
export function idleSetting(
  timeoutName: string,
  timeoutValue: string | undefined,
  warningName: string,
  warningValue: string | undefined,
): IdleOptions | undefined {
  const timeout = durationSetting(timeoutName, timeoutValue);
  const warning = durationSetting(warningName, warningValue);
  if (timeout === undefined) {
    if (warning !== undefined) {
      throw new SettingError(
        warningName,
        `is set without ${timeoutName}: set the timeout too, or neither to leave idle sign-out off.`,
      );
    }
    return undefined;
  }
  return warning === undefined ? { timeout } : { timeout, warning };
}

/** An absolute http(s) URL, returned as given (an issuer's trailing slash matters). */
export function urlSetting(name: string, value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new SettingError(name, `is "${value}", not an absolute URL such as https://example.com.`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new SettingError(name, `is "${value}": use an https:// (or local http://) address.`);
  }
  return value;
}

/** One of `choices`; `fallback` when the variable is unset or empty. */
export function choiceSetting<T extends string>(
  name: string,
  value: string | undefined,
  choices: readonly T[],
  fallback: T,
): T {
  if (value === undefined || value === '') return fallback;
  const choice = choices.find((candidate) => candidate === value);
  if (choice === undefined) {
    throw new SettingError(name, `is "${value}"; use one of: ${choices.join(', ')}.`);
  }
  return choice;
}
