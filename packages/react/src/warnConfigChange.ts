import { useEffect, useRef } from 'react';

/**
 * The settings that differ between two configs, by value: strings, numbers, booleans and arrays
 * of them; objects JSON cannot write (a `UserManager`), by identity. Functions are left out, as
 * an inline config makes new ones on every render.
 */
export function changedSettings(
  mounted: Record<string, unknown>,
  current: Record<string, unknown>,
): string[] {
  const comparable = (value: unknown) => {
    if (typeof value === 'function') return undefined;
    try {
      return JSON.stringify(value);
    } catch {
      // A circular structure (a `UserManager` refers to itself through its services).
      return value;
    }
  };
  return [...new Set([...Object.keys(mounted), ...Object.keys(current)])].filter(
    (key) => comparable(mounted[key]) !== comparable(current[key]),
  );
}

/**
 * Development builds only: `AuthProvider` reads its config once, when it mounts. A later change
 * (another `client_id`, another `authority`, or a config that was missing then) is ignored; this
 * says so, and how to switch.
 */
export function warnConfigChange(
  mounted: Record<string, unknown> | null | undefined,
  current: Record<string, unknown>,
): boolean {
  if (mounted == null) {
    // Its config_invalid error stays: the client was made, without a config, at the mount.
    console.warn(
      'oidc-kit: <AuthProvider> mounted without a config and got one later; it is ignored, as the provider reads its config once, and the missing config stays its error. For a config loaded at run time, render the provider once the config is there, e.g. {config && <AuthProvider config={config}>...</AuthProvider>}.',
    );
    return true;
  }
  const changed = changedSettings(mounted, current);
  if (changed.length === 0) return false;
  console.warn(
    `oidc-kit: the config of <AuthProvider> changed after it mounted (${changed.join(', ')}); the change is ignored, as the provider reads its config once. To switch to another config, remount the provider with a key, e.g. <AuthProvider key={config.client_id} config={config}>. After a hot reload that edited the config, reload the page instead.`,
  );
  return true;
}

/**
 * Development builds only (`AuthProvider` calls it under a `NODE_ENV` check, so production
 * bundles hold neither the hook nor its refs): warns once when the config prop changes after mount.
 */
export function useConfigChangeWarning(config: object | null | undefined): void {
  const mountedConfig = useRef(config);
  const warned = useRef(false);
  useEffect(() => {
    const mounted = mountedConfig.current;
    // No config now: a client is given (or it went away, which changes nothing either).
    if (warned.current || config == null || mounted === config) return;
    warned.current = warnConfigChange(
      mounted as Record<string, unknown> | undefined,
      config as Record<string, unknown>,
    );
  }, [config]);
}
