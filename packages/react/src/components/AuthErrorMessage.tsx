import type { ReactNode } from 'react';
import type { AuthError } from '../core/errors';
import { describeSignInError } from './describeSignInError';
import { TitledView } from './TitledView';

/** Props of {@link AuthErrorMessage}. */
export interface AuthErrorMessageProps {
  error: AuthError;
  /** Starts sign-in again. */
  retry: () => void;
  title?: string;
  retryLabel?: string;
  /** The sentence for the error. Default: {@link describeSignInError}. */
  describe?: (error: AuthError) => ReactNode;
}

/**
 * The guard's default after a failed sign-in: an alert named by `title`, what happened, and a
 * button to retry. Every text is a prop; no heading, so it fits any page's outline.
 */
export function AuthErrorMessage({
  error,
  retry,
  title = 'Sign-in failed',
  retryLabel = 'Try again',
  describe = describeSignInError,
}: AuthErrorMessageProps): ReactNode {
  return (
    <TitledView alert title={title}>
      <p>{describe(error)}</p>
      <button type="button" onClick={retry}>
        {retryLabel}
      </button>
    </TitledView>
  );
}
