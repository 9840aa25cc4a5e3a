// What npm shows and ships for each published package of the repository.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';

const published = ['packages/react', 'packages/dev-provider'];
const root = fileURLToPath(new URL('../../../', import.meta.url));

describe.each(published)('%s/package.json', (directory) => {
  const manifest = JSON.parse(readFileSync(`${root}${directory}/package.json`, 'utf8')) as {
    files: string[];
    repository?: { url?: string; directory?: string };
    homepage?: string;
    bugs?: { url?: string };
  };

  test('links to the repository, its page for the package, and the issue tracker', () => {
    expect(manifest.repository?.url).toBe('git+https://github.com/oidc-kit/oidc-kit.git');
    expect(manifest.repository?.directory).toBe(directory);
    expect(manifest.homepage).toBe(
      `https://github.com/oidc-kit/oidc-kit/tree/main/${directory}#readme`,
    );
    expect(manifest.bugs?.url).toBe('https://github.com/oidc-kit/oidc-kit/issues');
  });

  test('lists only files that exist (dist is built before the tests)', () => {
    for (const entry of manifest.files) {
      expect(existsSync(`${root}${directory}/${entry}`), entry).toBe(true);
    }
  });
});

test('the main entry exports no UNSAFE_ names: the entries share their internals another way', async () => {
  const names = Object.keys(await import('@oidc-kit/react'));
  expect(names.filter((name) => name.startsWith('UNSAFE_'))).toEqual([]);
});
