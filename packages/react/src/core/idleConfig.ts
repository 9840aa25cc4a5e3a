import { configInvalid, showValue } from './configInvalid';

/** Idle sign-out: after `timeout` ms without user input in any tab, every tab signs out. */
export interface IdleOptions {
  /** Milliseconds without user input (in any tab) before the session ends. */
  timeout: number;
  /** Milliseconds before the end that the warning shows. Default 60,000; below `timeout`. */
  warning?: number;
}

/** `idle` validated, the warning clamped below the timeout. */
export interface ResolvedIdle {
  readonly timeout: number;
  readonly warning: number;
}

const defaultWarning = 60_000;

const isDuration = (value: unknown): value is number =>
  typeof value === 'number' && value > 0 && value < Infinity;

function notDuration(field: string, value: unknown) {
  return configInvalid(
    field,
    process.env.NODE_ENV !== 'production' &&
      `must be a positive number of milliseconds (got ${showValue(value)}), e.g. idle: { timeout: 15 * 60_000, warning: 60_000 }.`,
  );
}

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
  const { timeout, warning = defaultWarning } = value as { timeout?: unknown; warning?: unknown };
  if (!isDuration(timeout)) throw notDuration('idle.timeout', timeout);
  if (!isDuration(warning)) throw notDuration('idle.warning', warning);
  // The warning shows before the end, never at or after it.
  return { timeout, warning: Math.min(warning, timeout - 1) };
}
