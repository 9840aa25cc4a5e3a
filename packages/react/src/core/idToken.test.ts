import { expect, expectTypeOf, test } from 'vitest';
import page from '../../../../docs/errors.md?raw';
import readme from '../../README.md?raw';
import type { IdTokenCheck } from './idToken';

const checks = [
  'format',
  'iss',
  'aud',
  'azp',
  'exp',
  'iat',
  'nonce',
  'sub',
  'auth_time',
  'signature',
  'callback_iss',
] as const;

// `check` is what an app switches on: a value the docs do not explain, or one never raised, is
// a case the app handles for nothing. The type is checked by `tsc` (the typecheck task).
test("IdTokenCheck is the checks the README's error table and docs/errors.md name", () => {
  expectTypeOf<IdTokenCheck>().toEqualTypeOf<(typeof checks)[number]>();
  const row = readme.split('\n').find((line) => line.startsWith('| `id_token_invalid`')) ?? '';
  const named = [...row.matchAll(/`(\w+)`/g)].map(([, name]) => name);
  expect(named.slice(2).sort()).toEqual([...checks].sort());
  const entry = page.split('## id_token_invalid\n')[1]?.split('\n## ')[0] ?? '';
  for (const check of checks) expect(entry, check).toContain(`\`${check}\``);
});
