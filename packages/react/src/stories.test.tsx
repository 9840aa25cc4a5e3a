import { composeStories } from '@storybook/react-vite';
import type { Meta, StoryFn } from '@storybook/react-vite';
import { render } from '@testing-library/react';
import axe from 'axe-core';
import { beforeEach, describe, expect, test } from 'vitest';
import { writeGuardAttempt } from './core/guardAttempts';

type StoryModule = { default: Meta } & Record<string, StoryFn>;
const modules = import.meta.glob<StoryModule>('./**/*.stories.tsx', { eager: true });

beforeEach(() => {
  sessionStorage.clear();
  writeGuardAttempt(null);
});

test('every component has stories', () => {
  const titles = Object.values(modules).map((module) => module.default.title);
  expect(titles.sort()).toEqual([
    'Components/Authorized',
    'Components/Default views',
    'Components/IdleWarning',
    'Components/RequireAuth',
    'Components/SignInButton',
    'Components/SignOutButton',
    'Components/SignedIn and SignedOut',
    'React Router/AuthCallback',
  ]);
});

describe.each(Object.entries(modules))('%s', (_file, module) => {
  const stories = Object.entries(composeStories(module));
  test.each(stories)('%s renders with no axe violations', async (_name, Story) => {
    const { container } = render(<Story />);
    // jsdom cannot compute colours; contrast is checked in Chromium by the Storybook e2e run.
    const results = await axe.run(container, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] },
      rules: { 'color-contrast': { enabled: false } },
    });
    expect(results.violations.map((violation) => `${violation.id}: ${violation.help}`)).toEqual([]);
  });
});

test('the axe check can fail: it finds an unlabelled button', async () => {
  const { container } = render(<button type="button" />);
  const results = await axe.run(container, { runOnly: { type: 'tag', values: ['wcag2a'] } });
  expect(results.violations.map((violation) => violation.id)).toContain('button-name');
});
