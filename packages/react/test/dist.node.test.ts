// Runs against the built package (`npm run build` first; turbo's `test` task depends on `build`),
// through the package's own exports map, as an app would import it.
import { readFileSync } from 'node:fs';
import { createRequire, SourceMap } from 'node:module';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, test } from 'vitest';
import type * as ReactRouterEntry from '@oidc-kit/react/react-router';

const require = createRequire(import.meta.url);
const entries = [
  '@oidc-kit/react',
  '@oidc-kit/react/testing',
  '@oidc-kit/react/react-router',
  '@oidc-kit/react/verify-signature',
];

function load(entry: string) {
  try {
    return { esm: import(entry), cjs: require(entry) as Record<string, unknown> };
  } catch (error) {
    throw new Error(`Cannot load ${entry} from dist: run \`npm run build\` first.`, {
      cause: error,
    });
  }
}

describe.each(entries)('%s', (entry) => {
  test('exports the same names through import and require', async () => {
    const { esm, cjs } = load(entry);
    const esmNames = Object.keys(await esm)
      .filter((name) => name !== 'default')
      .sort();
    expect(esmNames.length).toBeGreaterThan(0);
    expect(Object.keys(cjs).sort()).toEqual(esmNames);
  });

  test("keeps the 'use client' directive first in both builds", () => {
    for (const condition of [
      require.resolve(entry),
      require.resolve(entry).replace(/\.cjs$/, '.js'),
    ]) {
      expect(readFileSync(condition, 'utf8').startsWith("'use client';")).toBe(true);
    }
  });
});

test('source maps point at the source below the added directive, in both builds', () => {
  const main = require.resolve('@oidc-kit/react');
  for (const file of [main, main.replace(/\.cjs$/, '.js')]) {
    const lines = readFileSync(file, 'utf8').split('\n');
    const map = new SourceMap(JSON.parse(readFileSync(`${file}.map`, 'utf8')) as never);
    const line = lines.findIndex((text) => text.includes('function configInvalid('));
    const entry = map.findEntry(line, (lines[line] as string).indexOf('configInvalid'));
    const source = readFileSync(new URL('../src/core/configInvalid.ts', import.meta.url), 'utf8');
    const sourceLine = source
      .split('\n')
      .findIndex((text) => text.includes('function configInvalid('));
    expect(entry).toMatchObject({
      originalSource: '../src/core/configInvalid.ts',
      originalLine: sourceLine,
    });
  }
});

test('the main entry works from both builds', async () => {
  const esm = await import('@oidc-kit/react');
  const cjs = require('@oidc-kit/react') as typeof esm;
  for (const build of [esm, cjs]) {
    let caught: unknown;
    try {
      build.validateConfig({
        authority: 'http://id.example.com',
        client_id: 'a',
        redirect_uri: 'https://a.example/cb',
      });
    } catch (error) {
      caught = error;
    }
    expect(build.isAuthError(caught, 'config_invalid')).toBe(true);
    expect(build.safeReturnTo('//evil.example', 'https://a.example')).toBe('/');
  }
});

test('the subpath entries use the main entry, not a copy of it', () => {
  for (const entry of ['@oidc-kit/react/react-router', '@oidc-kit/react/testing']) {
    for (const file of [require.resolve(entry), require.resolve(entry).replace(/\.cjs$/, '.js')]) {
      const code = readFileSync(file, 'utf8');
      expect(code).toMatch(/from ["']@oidc-kit\/react["']|require\(["']@oidc-kit\/react["']\)/);
      expect(code).not.toContain('function safeReturnTo');
    }
  }
});

test('the testing and react-router entries work from both builds', async () => {
  const esm = await import('@oidc-kit/react/testing');
  const cjs = require('@oidc-kit/react/testing') as typeof esm;
  expect(esm.createTestUser({ name: 'Ann' }).profile.name).toBe('Ann');
  expect(cjs.createTestUser({ name: 'Ann' }).profile.name).toBe('Ann');
  const router = require('@oidc-kit/react/react-router') as typeof ReactRouterEntry;
  expect(router.returnToFromRequest(new Request('https://a.example/x?y=1'))).toBe('/x?y=1');
});

test('the main and testing entries never import react-router (an optional peer)', () => {
  for (const entry of ['@oidc-kit/react', '@oidc-kit/react/testing']) {
    for (const file of [require.resolve(entry), require.resolve(entry).replace(/\.cjs$/, '.js')]) {
      expect(readFileSync(file, 'utf8')).not.toMatch(/["']react-router["']/);
    }
  }
  const routerEntry = readFileSync(require.resolve('@oidc-kit/react/react-router'), 'utf8');
  expect(routerEntry).toMatch(/require\(["']react-router["']\)/);
});

test('only the verify-signature entry imports jose (an optional peer): other apps never bundle it', () => {
  for (const entry of [
    '@oidc-kit/react',
    '@oidc-kit/react/testing',
    '@oidc-kit/react/react-router',
  ]) {
    for (const file of [require.resolve(entry), require.resolve(entry).replace(/\.cjs$/, '.js')]) {
      const code = readFileSync(file, 'utf8');
      expect(code, file).not.toMatch(/["']jose["']/);
      // Nor through a chunk of the main entry.
      for (const chunk of code.matchAll(/from ["'](\.\/[^"']+)["']/g)) {
        const path = new URL(chunk[1] as string, `file://${file}`).pathname;
        expect(readFileSync(path, 'utf8'), path).not.toMatch(/["']jose["']/);
      }
    }
  }
  const verifier = readFileSync(require.resolve('@oidc-kit/react/verify-signature'), 'utf8');
  expect(verifier).toMatch(/require\(["']jose["']\)/);
});

test('development checks are left to the app’s bundler (process.env.NODE_ENV is not baked in)', () => {
  for (const file of [
    require.resolve('@oidc-kit/react'),
    require.resolve('@oidc-kit/react').replace(/\.cjs$/, '.js'),
  ]) {
    expect(readFileSync(file, 'utf8')).toContain('process.env.NODE_ENV !== "production"');
  }
});

test('shortening internal names leaves the keys oidc-client-ts reads alone (its settings)', () => {
  // The build shortens the engine's member names (tsup.config.ts); a name oidc-client-ts also
  // reads, such as its `stateStore` setting, would silently drop that setting.
  const main = require.resolve('@oidc-kit/react');
  for (const file of [main, main.replace(/\.cjs$/, '.js')]) {
    const code = readFileSync(file, 'utf8');
    for (const setting of ['stateStore:', 'userStore:', 'silent_redirect_uri:', 'response_mode:']) {
      expect(code, `${setting} in ${file}`).toContain(setting);
    }
  }
});

test('an app that loads both builds (a CommonJS dependency beside ESM code) has one AuthContext', async () => {
  // The dual-package hazard: each build would create its own context, and a hook of one build
  // would not find the provider of the other ("must be used inside <AuthProvider>").
  const esm = await import('@oidc-kit/react');
  const cjs = require('@oidc-kit/react') as typeof esm;
  expect(cjs.AuthContext).toBe(esm.AuthContext);
  const { MockAuthProvider, createTestUser } = await import('@oidc-kit/react/testing');
  const Name = () => cjs.useUser()?.name;
  const html = renderToString(
    createElement(
      MockAuthProvider,
      { state: 'authenticated', user: createTestUser({ name: 'Ann' }) },
      createElement(Name),
    ),
  );
  expect(html).toBe('Ann');
});
