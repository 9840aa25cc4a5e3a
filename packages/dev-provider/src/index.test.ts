// The README is where npm users look: every name the package exports is in it.
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';

it('names every export of src/index.ts in the README', () => {
  const read = (path: string) => readFileSync(new URL(path, import.meta.url), 'utf8');
  const readme = read('../README.md');
  const names = [...read('./index.ts').matchAll(/^export (?:type )?\{([^}]*)\}/gm)].flatMap(
    ([, list]) =>
      (list ?? '')
        .split(',')
        .map((name) => name.trim())
        .filter(Boolean),
  );
  expect(names.length).toBeGreaterThan(0);
  expect(names.filter((name) => !new RegExp(`\`${name}\\b`).test(readme))).toEqual([]);
});
