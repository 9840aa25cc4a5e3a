import { configInvalid, showValue } from './configInvalid';

/** Idle sign-out: after `timeout` ms without user input in any tab, every tab signs out. */
export interface IdleOptions {
  /** Milliseconds without user input (in any tab) before the session ends. */
  timeout: number;
  /**
   * Milliseconds before the end that the warning shows, below `timeout`. Default 60,000, or half
   * the timeout when that is shorter.
   */
  warning?: number;
}

/** `idle` validated, the warning set. */
export interface ResolvedIdle {
  readonly timeout: number;
  readonly warning: number;
}

const defaultWarning = 60_000;

const isDuration = (value: unknown): value is number =>
  typeof value === 'number' && value > 0 && value < Infinity;

/** The development message of a timeout or warning that is not a duration. */
const notDuration = (value: unknown) =>
  `must be a positive number of milliseconds (got ${showValue(value)}), e.g. idle: { timeout: 15 * 60_000, warning: 60_000 }.`;

/**
 * Checked in every build: a session policy that silently does nothing (a string, a negative
 * number) would keep sessions open that the app means to end.
 */
export function resolveIdle(value: unknown): ResolvedIdle | null {
  if (value === undefined) return null;
  if (typeof value !== 'object' || value === null) {
    throw configInvalid(
      'idle',
      process.env.NODE_ENV !== 'production' &&
        `must be { timeout, warning? } in milliseconds (got ${showValue(value)}).`,
    );
  }
  const { timeout, warning } = value as { timeout?: unknown; warning?: unknown };
  if (!isDuration(timeout)) {
    throw configInvalid(
      'idle.timeout',
      process.env.NODE_ENV !== 'production' && notDuration(timeout),
    );
  }
  // A warning as long as the timeout would show at once after any input, which then no longer
  // counts: only "stay" would keep the session.
  if (warning === undefined) return { timeout, warning: Math.min(defaultWarning, timeout / 2) };
  if (!isDuration(warning)) {
    throw configInvalid(
      'idle.warning',
      process.env.NODE_ENV !== 'production' && notDuration(warning),
    );
  }
  if (warning >= timeout) {
    throw configInvalid(
      'idle.warning',
      process.env.NODE_ENV !== 'production' &&
        `must be shorter than idle.timeout (got ${showValue(warning)} and ${showValue(timeout)}), e.g. idle: { timeout: 15 * 60_000, warning: 60_000 }.`,
    );
  }
  return { timeout, warning };
}
