// Row 4: provider requests per sign-in and per reload with a valid session, in Chromium against
// the dev provider (a real OpenID Provider). Both libraries run the typical app entry of row 1,
// bundled for production, each on its own origin; Playwright counts every request the page sends
// to the provider, as the reference app's end-to-end test 10 does.
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { startDevProvider } from '@oidc-kit/dev-provider';
import { chromiumLaunchOptions } from '@oidc-kit/test-chromium';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';
import type { Browser, Page, Request } from 'playwright-core';
import { benchDir } from '../support/paths';
import { job } from '../support/job';
import { ports, runs } from '../support/settings';
import { runScenarios } from '../support/stats';
import type { Counts } from '../support/stats';

const apps = {
  'oidc-kit': { port: ports.oidcKit, entry: 'src/apps/oidc-kit.tsx' },
  'react-oidc-context': { port: ports.reactOidcContext, entry: 'src/apps/react-oidc-context.tsx' },
} as const;
type AppName = keyof typeof apps;
const provider = `http://localhost:${ports.provider}`;

async function bundleApp(name: AppName): Promise<string> {
  const result = await build({
    absWorkingDir: benchDir,
    entryPoints: [apps[name].entry],
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    jsx: 'automatic',
    write: false,
    define: {
      'process.env.NODE_ENV': '"production"',
      __OIDC_AUTHORITY__: JSON.stringify(provider),
      __OIDC_CLIENT_ID__: JSON.stringify(`bench-${name}`),
    },
    logLevel: 'warning',
  });
  return result.outputFiles[0]?.text ?? '';
}

/** Serves one app: its bundle at /app.js, and its page at every other path (a single-page app). */
function serve(port: number, script: string): Promise<Server> {
  const page =
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>bench</title></head>' +
    '<body><div id="root"></div><script type="module" src="/app.js"></script></body></html>';
  const server = createServer((request, response) => {
    const isScript = request.url === '/app.js';
    response.writeHead(200, {
      'Content-Type': isScript ? 'text/javascript' : 'text/html',
      'Cache-Control': 'no-store',
    });
    response.end(isScript ? script : page);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, 'localhost', () => resolve(server));
  });
}

function watchProvider(page: Page) {
  const requests: Request[] = [];
  page.on('request', (request) => {
    if (request.url().startsWith(provider)) requests.push(request);
  });
  const isToken = (request: Request) => new URL(request.url()).pathname === '/token';
  return {
    clear: () => requests.splice(0),
    counts: () => ({
      requests: requests.length,
      // Requests the app's script sent (discovery, token, JWKS, user info…), navigations aside.
      scripted: requests.filter((request) => ['fetch', 'xhr'].includes(request.resourceType()))
        .length,
      navigations: requests.filter((request) => request.resourceType() === 'document').length,
      token: requests.filter(isToken).length,
    }),
  };
}

async function signInAndReload(browser: Browser, name: AppName): Promise<Counts> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const watch = watchProvider(page);
    const userName = page.getByTestId('user-name');
    await page.goto(`http://localhost:${apps[name].port}/`);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${provider}/**`);
    await page.getByLabel('Username').fill('alice');
    await page.getByLabel('Password').fill('alice');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await userName.filter({ hasText: 'Alice Liddell' }).waitFor();
    await page.waitForTimeout(300);
    const signIn = watch.counts();
    watch.clear();
    await page.reload();
    await userName.filter({ hasText: 'Alice Liddell' }).waitFor();
    await page.waitForTimeout(300);
    const reload = watch.counts();
    return {
      signInRequests: signIn.requests,
      signInScripted: signIn.scripted,
      signInNavigations: signIn.navigations,
      signInToken: signIn.token,
      reloadRequests: reload.requests,
      reloadToken: reload.token,
    };
  } finally {
    await context.close();
  }
}

export interface RequestResults {
  iterations: number;
  chromium: string;
  scenarios: Awaited<ReturnType<typeof runScenarios>>;
}

void job('requests', async (): Promise<RequestResults> => {
  const launchOptions = chromiumLaunchOptions();
  const names = Object.keys(apps) as AppName[];
  const devProvider = await startDevProvider({
    port: ports.provider,
    quiet: true,
    clients: names.map((name) => ({
      client_id: `bench-${name}`,
      client_name: `Benchmark (${name})`,
      redirect_uris: [`http://localhost:${apps[name].port}/callback`],
      post_logout_redirect_uris: [`http://localhost:${apps[name].port}/`],
    })),
  });
  const servers = await Promise.all(
    names.map(async (name) => serve(apps[name].port, await bundleApp(name))),
  );
  const browser = await chromium.launch(launchOptions);
  try {
    const scenarios = await runScenarios(
      Object.fromEntries(names.map((name) => [name, () => signInAndReload(browser, name)])),
      runs.requests,
    );
    return { iterations: runs.requests, chromium: browser.version(), scenarios };
  } finally {
    await browser.close();
    for (const server of servers) server.close();
    await devProvider.stop();
  }
});
