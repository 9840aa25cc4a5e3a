import { fileURLToPath } from 'node:url';
import type { StorybookConfig } from '@storybook/react-vite';

const source = (path: string) => fileURLToPath(new URL(`../src/${path}`, import.meta.url));

const config: StorybookConfig = {
  stories: ['../src/**/*.stories.tsx'],
  framework: { name: '@storybook/react-vite', options: {} },
  // A Docs page per component (the `autodocs` tag in preview.ts): props, controls, every story.
  addons: ['@storybook/addon-docs'],
  core: { disableTelemetry: true, disableWhatsNewNotifications: true },
  // This Storybook documents a library: no onboarding checklist in its sidebar.
  features: { sidebarOnboardingChecklist: false },
  viteFinal: (viteConfig) => ({
    ...viteConfig,
    resolve: {
      ...viteConfig.resolve,
      // Stories import the package by name, as an app would; serve it from source.
      alias: [
        { find: /^@oidc-kit\/react$/, replacement: source('index.ts') },
        { find: /^@oidc-kit\/react\/testing$/, replacement: source('testing/index.ts') },
        { find: /^@oidc-kit\/react\/react-router$/, replacement: source('react-router/index.ts') },
        {
          find: /^@oidc-kit\/react\/verify-signature$/,
          replacement: source('verify-signature/index.ts'),
        },
      ],
    },
  }),
};

export default config;
