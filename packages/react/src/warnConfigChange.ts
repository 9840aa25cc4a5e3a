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
 * (another `client_id`, another `authority`) is ignored; this says so, and how to switch.
 */
export function warnConfigChange(
  mounted: Record<string, unknown>,
  current: Record<string, unknown>,
): boolean {
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
export function useConfigChangeWarning(config: object | undefined): void {
  const mountedConfig = useRef(config);
  const warned = useRef(false);
  useEffect(() => {
    const mounted = mountedConfig.current;
    if (warned.current || mounted === undefined || config === undefined || mounted === config) {
      return;
    }
    warned.current = warnConfigChange(
      mounted as Record<string, unknown>,
      config as Record<string, unknown>,
    );
  }, [config]);
}
