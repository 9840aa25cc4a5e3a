import { expect, test } from 'vitest';
import readme from '../../README.md?raw';
import { canTransition } from './authState';
import type { AuthStatus } from './authState';

const statuses: AuthStatus[] = [
  'loading',
  'signing-in',
  'authenticated',
  'signing-out',
  'unauthenticated',
  'error',
];

test("the README's States table lists every move the state machine allows, and no other", () => {
  const table = readme.split('\n## States\n')[1]?.split('\n## ')[0] ?? '';
  const documented = new Map(
    [...table.matchAll(/^\| `([\w-]+)` +\|[^|]*\| ([^|]*?) *\|$/gm)]
      .slice(1)
      .map(([, from, to]) => [
        from,
        new Set([...(to ?? '').matchAll(/`([\w-]+)`/g)].map(([, status]) => status)),
      ]),
  );
  expect([...documented.keys()]).toEqual(statuses);
  for (const from of statuses) {
    const allowed = statuses.filter((to) => to !== from && canTransition(from, to));
    const listed = statuses.filter((to) => to !== from && documented.get(from)?.has(to));
    expect(listed, from).toEqual(allowed);
  }
});
