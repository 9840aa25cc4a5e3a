// The README is where npm users look: every public name of every entry point is in it, in
// backticks or imported by an example.
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';

const read = (path: string) => readFileSync(new URL(path, import.meta.url), 'utf8');
const readme = read('../README.md');
const entries = ['index', 'testing/index', 'react-router/index', 'verify-signature/index'];

test.each(entries)('every name src/%s.ts exports is named in the README', (entry) => {
  const source = read(`../src/${entry}.ts`);
  const names = [...source.matchAll(/^export (?:type )?\{([^}]*)\}/gm)].flatMap(([, list]) =>
    (list ?? '')
      .split(',')
      .map((name) => name.trim())
      .filter(Boolean),
  );
  expect(names.length).toBeGreaterThan(0);
  const named = (name: string) =>
    new RegExp(`\`${name}\\b|^import [^;]*\\b${name}\\b`, 'm').test(readme);
  expect(names.filter((name) => !named(name))).toEqual([]);
});
