import { expect, test } from 'vitest';
import { docsDescription } from './docsDescription';

test('an @example becomes a TSX code block, its JSX kept', () => {
  expect(
    docsDescription(
      "The element for the route.\n\n@example\n{ path: '/callback', element: <AuthCallback /> }",
    ),
  ).toBe(
    "The element for the route.\n\nExample:\n\n```tsx\n{ path: '/callback', element: <AuthCallback /> }\n```",
  );
});

test('several examples each get a block', () => {
  expect(docsDescription('Text.\n@example\n<A />\n@example\n<B />')).toBe(
    'Text.\n\nExample:\n\n```tsx\n<A />\n```\n\nExample:\n\n```tsx\n<B />\n```',
  );
});

test('{@link Name} becomes code, with or without a label', () => {
  expect(docsDescription('Default: {@link AuthSignInNeeded}, or {@link Foo | the foo}.')).toBe(
    'Default: `AuthSignInNeeded`, or `Foo`.',
  );
});

test('a description without tags is left as it is', () => {
  expect(docsDescription('Signs out: clears the local session.')).toBe(
    'Signs out: clears the local session.',
  );
});
