import type { ArgTypes } from '@storybook/react-vite';

/** Storybook's control for a `roles` prop: the test users' roles as checkboxes, not raw JSON. */
export const roleControl = {
  control: 'check',
  options: ['user', 'admin'],
  description: 'Roles the user needs, any of them (read with the configured role reader).',
  table: { type: { summary: 'readonly string[]' } },
} satisfies ArgTypes[string];
