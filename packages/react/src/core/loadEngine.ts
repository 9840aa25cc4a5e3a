import { authError } from './errors';
import type * as EngineModule from './engine';

let engine: typeof EngineModule | undefined;
let engineLoading: Promise<unknown> | undefined;

/** The engine's module once loaded, else undefined. */
export function loadedEngine(): typeof EngineModule | undefined {
  return engine;
}

/**
 * Runs `run` with the engine's module: at once when it is loaded (so a call starts in the same
 * tick as it would without the split), else once `loadEngine` has loaded it.
 */
export function withEngine<T>(run: (loaded: typeof EngineModule) => Promise<T>): Promise<T> {
  if (engine !== undefined) return run(engine);
  return loadEngine().then(() => run(engine as typeof EngineModule));
}

/**
 * Loads the engine (`SessionCore`, its parts and the authenticated fetch: one chunk an app's
 * bundler splits off), once for every client; a failed load is retried by the next call. Apps need
 * not call it: a client loads it when it starts or is first asked to act, so the first render does
 * not wait for it.
 */
export function loadEngine(): Promise<unknown> {
  engineLoading ??= import('./engine').then(
    (loaded) => {
      engine = loaded;
    },
    (cause: unknown) => {
      engineLoading = undefined;
      throw authError(
        'network',
        process.env.NODE_ENV !== 'production' && [
          'oidc-kit could not load a chunk of its own code (offline, or the app was redeployed meanwhile).',
          'Nothing was sent to the identity provider; the session is unchanged. Try again, or reload the page.',
        ],
        { cause },
      );
    },
  );
  return engineLoading;
}
