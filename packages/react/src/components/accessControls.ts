import type { ArgTypes } from '@storybook/react-vite';

/** Storybook's control for a `roles` prop: the test users' roles as checkboxes, not raw JSON. */
export const roleControl = {
  control: 'check',
  options: ['user', 'admin'],
  description: 'Roles the user needs, any of them (read with the configured role reader).',
  table: { type: { summary: 'readonly string[]' } },
} satisfies ArgTypes[string];

/**
 * Storybook's control for a `scopes` prop: the test users' scopes (`openid profile email`) and one
 * they lack, as checkboxes; the props table would otherwise give the type as `unknown`.
 */
export const scopeControl = {
  control: 'check',
  options: ['openid', 'profile', 'email', 'orders:write'],
  description: 'Scopes the access token must have been granted, every one of them.',
  table: { type: { summary: 'readonly string[]' } },
} satisfies ArgTypes[string];
