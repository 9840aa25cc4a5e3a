// The first hour of an npm user, automated: both published packages packed with `npm pack`,
// installed into a fresh Vite + React + strict TypeScript app whose code is the README's own
// snippets, typechecked, built, served on a port that is not Vite's default, and signed in to and
// out of with the packed dev provider in Chromium. Run by `npm test` (turbo's e2e task).
import { execFileSync, spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { stripVTControlCharacters } from 'node:util';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { chromiumLaunchOptions } from '@oidc-kit/test-chromium';

const root = fileURLToPath(new URL('../../', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'oidc-kit-packed-'));
const app = join(work, 'app');
const started = Date.now();
const children = [];

function step(text) {
  console.log(`packed: ${text} (${((Date.now() - started) / 1000).toFixed(0)} s)`);
}

function run(command, args, cwd) {
  return execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** The version the workspace has installed, so the app's install comes from npm's cache. */
function installed(name) {
  return JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')).version;
}

function pack(directory) {
  const [packed] = JSON.parse(
    run('npm', ['pack', '--json', '--pack-destination', work], join(root, directory)),
  );
  return join(work, packed.filename);
}

/** The body of the fenced block of `language` that follows `heading` in a README (the React one). */
function snippet(heading, language, file = 'packages/react/README.md') {
  const readme = readFileSync(join(root, file), 'utf8');
  const from = heading === null ? 0 : readme.indexOf(heading);
  if (from < 0) throw new Error(`${file} has no "${heading}" any more`);
  const match = new RegExp('```' + language + '\\n([\\s\\S]*?)```').exec(readme.slice(from));
  if (match === null) throw new Error(`no \`\`\`${language} block after "${heading}"`);
  return match[1];
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, 'localhost', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Starts `command`, resolving with the first match of `ready` in its output. */
function start(command, args, cwd, ready) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
    });
    children.push(child);
    let output = '';
    const timer = setTimeout(() => reject(new Error(`${command} not ready:\n${output}`)), 60_000);
    const read = (chunk) => {
      // Colours, should a tool print them anyway, would split `localhost:<port>`.
      output += stripVTControlCharacters(String(chunk));
      const match = ready.exec(output);
      if (match !== null) {
        clearTimeout(timer);
        resolve(match);
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.once('exit', (code) => reject(new Error(`${command} exited (${code}):\n${output}`)));
  });
}

/**
 * A README's tsx block after `heading` (null: the first), with its hosted-provider config swapped
 * for the local one.
 */
function quickStartOf(file, heading = null) {
  const code = snippet(heading, 'tsx', file).replace(
    /const config = \{[\s\S]*?\} satisfies AuthConfig;[^\n]*\n/,
    "import { config } from './config';\n",
  );
  if (!code.includes("import { config } from './config';")) {
    throw new Error(
      `the quick start of ${file} no longer declares \`const config = { … } satisfies AuthConfig\``,
    );
  }
  return code;
}

/** `src/main.tsx` rendering the component `name` of `./App` in StrictMode. */
function mainRendering(name) {
  return `import { StrictMode } from 'react';\nimport { createRoot } from 'react-dom/client';\nimport { ${name} } from './App';\n\ncreateRoot(document.getElementById('root')!).render(\n  <StrictMode>\n    <${name} />\n  </StrictMode>,\n);\n`;
}

/** Signs in as `user` (alice by default) at the provider page the browser is on. */
async function signInAs(page, issuer, user = 'alice') {
  await page.waitForURL(`${issuer}/**`);
  await page.getByLabel('Username').fill(user);
  await page.getByLabel('Password').fill(user);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Throws unless the page is at `origin` + `/orders` with nothing after the path. */
function expectOrders(page, origin) {
  const landed = new URL(page.url());
  if (landed.origin !== origin || landed.pathname !== '/orders' || landed.search !== '') {
    throw new Error(`after sign-in the page is at ${page.url()}, not ${origin}/orders`);
  }
}

/** Runs `drive(page)` in a fresh Chromium, failing on page errors and showing where it stopped. */
async function inChromium(drive) {
  const browser = await chromium.launch(chromiumLaunchOptions());
  try {
    const page = await browser.newPage();
    const problems = [];
    page.on('pageerror', (error) => problems.push(String(error)));
    await drive(page);
    if (problems.length > 0) throw new Error(`page errors:\n${problems.join('\n')}`);
  } catch (error) {
    const page = browser.contexts()[0]?.pages()[0];
    const seen =
      page === undefined ? '' : `\nat ${page.url()}:\n${await page.locator('body').innerText()}`;
    throw new Error(`${error instanceof Error ? error.message : String(error)}${seen}`);
  } finally {
    await browser.close();
  }
}

/** Builds the app into `outDir` and serves it on a free port that is not Vite's default. */
async function buildAndServe(outDir) {
  run(
    join(app, 'node_modules/.bin/vite'),
    ['build', '--logLevel', 'error', '--outDir', outDir],
    app,
  );
  const port = await freePort();
  await start(
    join(app, 'node_modules/.bin/vite'),
    ['preview', '--port', String(port), '--strictPort', '--host', 'localhost', '--outDir', outDir],
    app,
    /localhost:\d+/,
  );
  return `http://localhost:${port}`;
}

async function main() {
  step('packing @oidc-kit/react and @oidc-kit/dev-provider');
  const react = pack('packages/react');
  const provider = pack('packages/dev-provider');

  step('installing them into a fresh Vite app');
  mkdirSync(join(app, 'src'), { recursive: true });
  const write = (path, text) => writeFileSync(join(app, path), text);
  write(
    'package.json',
    JSON.stringify(
      {
        name: 'packed-app',
        private: true,
        type: 'module',
        dependencies: {
          '@oidc-kit/react': `file:${react}`,
          'oidc-client-ts': installed('oidc-client-ts'),
          react: installed('react'),
          'react-dom': installed('react-dom'),
          'react-router': installed('react-router'),
        },
        devDependencies: {
          '@oidc-kit/dev-provider': `file:${provider}`,
          '@types/react': installed('@types/react'),
          '@types/react-dom': installed('@types/react-dom'),
          '@vitejs/plugin-react': installed('@vitejs/plugin-react'),
          typescript: installed('typescript'),
          vite: installed('vite'),
        },
      },
      null,
      2,
    ),
  );
  run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'], app);

  step('starting the packed dev provider on a free port');
  const [, issuer] = await start(
    join(app, 'node_modules/.bin/oidc-kit-dev-provider'),
    ['--port', '0'],
    app,
    /ready at (http:\/\/localhost:\d+)/,
  );

  step('writing the app from the README: "Try it locally" config, quick-start component');
  const config = snippet('## Try it locally in 2 minutes', 'ts').replaceAll(
    'http://localhost:4000',
    issuer,
  );
  if (config === snippet('## Try it locally in 2 minutes', 'ts')) {
    throw new Error("the README's local config no longer names http://localhost:4000");
  }
  write('src/config.ts', config);
  write('src/App.tsx', quickStartOf('packages/react/README.md'));
  write('src/main.tsx', mainRendering('Root'));
  write(
    'index.html',
    '<!doctype html>\n<html lang="en">\n  <head><meta charset="UTF-8" /><title>Packed app</title></head>\n  <body>\n    <div id="root"></div>\n    <script type="module" src="/src/main.tsx"></script>\n  </body>\n</html>\n',
  );
  write(
    'vite.config.ts',
    "import react from '@vitejs/plugin-react';\nimport { defineConfig } from 'vite';\n\nexport default defineConfig({ plugins: [react()] });\n",
  );
  write(
    'tsconfig.json',
    JSON.stringify(
      {
        compilerOptions: {
          target: 'ES2022',
          lib: ['ES2022', 'DOM', 'DOM.Iterable'],
          module: 'ESNext',
          moduleResolution: 'bundler',
          jsx: 'react-jsx',
          strict: true,
          noUncheckedIndexedAccess: true,
          exactOptionalPropertyTypes: true,
          noEmit: true,
          skipLibCheck: false,
          types: ['vite/client'],
        },
        include: ['src'],
      },
      null,
      2,
    ),
  );

  step('typechecking (strict) and building');
  run(join(app, 'node_modules/.bin/tsc'), ['-p', '.'], app);
  const origin = await buildAndServe('dist');
  for (const asset of readdirSync(join(app, 'dist/assets'))) {
    // jose's error codes survive minification: its code must not be in an app that never verifies.
    if (readFileSync(join(app, 'dist/assets', asset), 'utf8').includes('ERR_JWKS')) {
      throw new Error(`the build bundles jose (${asset}) though the app never verifies signatures`);
    }
  }

  step(`signing in and out in Chromium, served on ${origin} (not Vite's default port)`);
  await inChromium(async (page) => {
    await page.goto(`${origin}/orders`);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await signInAs(page, issuer);
    await page.getByText('Hello Alice Liddell').waitFor({ timeout: 15_000 });
    expectOrders(page, origin);
    // The example API is down: the quick start's call must not leave an unhandled rejection.
    await page.route('https://api.example.com/**', (route) => route.abort());
    const failed = page.waitForEvent('requestfailed');
    await page.getByRole('button', { name: 'Call the API' }).click();
    await failed;
    await page.waitForTimeout(200);
    await page.getByRole('button', { name: 'Sign out' }).click();
    // The local config returns to the app's root after sign-out.
    await page.waitForURL(`${origin}/`, { timeout: 15_000 });
    await page.getByRole('button', { name: 'Sign in' }).waitFor({ timeout: 15_000 });
  });

  step("the repository README's example: /orders signs a visitor in and shows the orders");
  write('src/App.tsx', quickStartOf('README.md'));
  write('src/main.tsx', mainRendering('App'));
  run(join(app, 'node_modules/.bin/tsc'), ['-p', '.'], app);
  const rootOrigin = await buildAndServe('dist-root');
  await inChromium(async (page) => {
    await page.goto(`${rootOrigin}/orders`);
    // RequireAuth sends the signed-out visitor to the provider by itself.
    await signInAs(page, issuer);
    await page
      .getByRole('heading', { name: 'Orders for Alice Liddell' })
      .waitFor({ timeout: 15_000 });
    expectOrders(page, rootOrigin);
  });

  step('the React Router example: a cancelled sign-in on /admin offers to sign in again');
  write(
    'src/main.tsx',
    quickStartOf('packages/react/README.md', '### `@oidc-kit/react/react-router`'),
  );
  run(join(app, 'node_modules/.bin/tsc'), ['-p', '.'], app);
  const routerOrigin = await buildAndServe('dist-router');
  await inChromium(async (page) => {
    await page.goto(`${routerOrigin}/admin`);
    await page.waitForURL(`${issuer}/**`);
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.getByText('Sign-in was cancelled.').waitFor({ timeout: 15_000 });
    await page.getByRole('button', { name: 'Sign in' }).click();
    await signInAs(page, issuer, 'bob');
    await page.getByRole('heading', { name: 'Admin: Bob Stone' }).waitFor({ timeout: 15_000 });
    if (new URL(page.url()).pathname !== '/admin') {
      throw new Error(`after sign-in the page is at ${page.url()}, not ${routerOrigin}/admin`);
    }
  });
  step('ok');
}

try {
  await main();
} catch (error) {
  console.error(`packed: FAILED: ${error instanceof Error ? error.message : String(error)}`);
  if (error?.stdout) console.error(error.stdout);
  if (error?.stderr) console.error(error.stderr);
  process.exitCode = 1;
} finally {
  for (const child of children) child.kill();
  if (existsSync(work)) rmSync(work, { recursive: true, force: true });
}
