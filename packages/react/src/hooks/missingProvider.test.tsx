import { renderHook } from '@testing-library/react';
import { describe, expect, test, vi } from 'vitest';
import { useAccess } from './useAccess';
import { useAccessToken } from './useAccessToken';
import { useAuth } from './useAuth';
import { useAuthActions } from './useAuthActions';
import { useAuthFetch } from './useAuthFetch';
import { useAuthHeaders } from './useAuthHeaders';
import { useAuthState } from './useAuthState';
import { useIdle } from './useIdle';
import { useSessionExpiry } from './useSessionExpiry';
import { useUser } from './useUser';

describe('outside AuthProvider every hook throws a config_invalid AuthError, naming itself and the fix', () => {
  test.each([
    ['useAuth', () => useAuth()],
    ['useAuthActions', () => useAuthActions()],
    ['useAuthState', () => useAuthState((state) => state.status)],
    ['useUser', () => useUser()],
    ['useAccessToken', () => useAccessToken()],
    ['useAuthFetch', () => useAuthFetch()],
    ['useAuthHeaders', () => useAuthHeaders()],
    ['useSessionExpiry', () => useSessionExpiry()],
    ['useIdle', () => useIdle()],
    ['useAccess', () => useAccess({ roles: ['admin'] })],
  ] as [string, () => unknown][])('%s', (name, hook) => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(() => renderHook(hook)).toThrow(
      expect.objectContaining({
        name: 'AuthError',
        code: 'config_invalid',
        field: name,
        message: expect.stringMatching(
          new RegExp(
            `^${name}\\(\\) must be used inside <AuthProvider>\\. Wrap your app in <AuthProvider config=`,
          ),
        ),
      }),
    );
  });
});

test('in production, the error outside AuthProvider still names the hook, in its short message', () => {
  vi.stubEnv('NODE_ENV', 'production');
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  expect(() => renderHook(() => useAuth())).toThrow(
    expect.objectContaining({
      code: 'config_invalid',
      field: 'useAuth',
      message:
        'oidc-kit config_invalid (useAuth): see https://github.com/oidc-kit/oidc-kit/blob/main/docs/errors.md#config_invalid',
    }),
  );
});
