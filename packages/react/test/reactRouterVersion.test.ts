import { version } from 'react-router/package.json';
import { expect, test } from 'vitest';

// The router entry supports React Router 7 and 8; each vitest project runs on one of them.
test('runs on the React Router major this project is for', () => {
  const expected = process.env.EXPECTED_REACT_ROUTER_MAJOR;
  expect(expected).toMatch(/^(7|8)$/);
  expect(version.split('.')[0]).toBe(expected);
});
