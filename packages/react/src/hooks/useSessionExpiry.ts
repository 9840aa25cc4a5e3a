import { useSecondClock } from './useSecondClock';
import { useSelectedAuthState } from './useSelectedAuthState';

/** What {@link useSessionExpiry} returns. */
export interface SessionExpiry {
  /** When the access token expires; null when signed out or unknown. */
  expiresAt: Date | null;
  /** Whole seconds left, never negative; null when signed out or unknown. */
  secondsLeft: number | null;
  /** Whether fewer than `threshold` seconds are left. */
  isExpiring: boolean;
}

/**
 * The access token's expiry, ticking every second while signed in. Renewal moves it forward.
 *
 * @example
 * const { secondsLeft, isExpiring } = useSessionExpiry(60);
 */
export function useSessionExpiry(threshold = 60): SessionExpiry {
  const expiresAt = useSelectedAuthState(
    'useSessionExpiry',
    (state) => state.user?.expires_at ?? null,
  );
  const ticking = expiresAt !== null;
  const now = useSecondClock(ticking);
  if (expiresAt === null || now === 0) {
    return { expiresAt: null, secondsLeft: null, isExpiring: false };
  }
  const secondsLeft = Math.max(0, expiresAt - now);
  return {
    expiresAt: new Date(expiresAt * 1000),
    secondsLeft,
    isExpiring: secondsLeft < threshold,
  };
}
