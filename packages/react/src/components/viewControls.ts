import type { ArgTypes } from '@storybook/react-vite';

/**
 * Storybook's props-table entries for the views a component takes as a node or a function (the
 * table would otherwise give their type as `union`); the stories set them, not a control.
 */
export const errorViewControl = {
  control: false,
  table: { type: { summary: 'ReactNode | ((error: AuthError, retry: () => void) => ReactNode)' } },
} satisfies ArgTypes[string];

export const signInNeededControl = {
  control: false,
  table: { type: { summary: 'ReactNode | ((signIn: () => void) => ReactNode)' } },
} satisfies ArgTypes[string];
