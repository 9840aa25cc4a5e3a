// Opens every story of the built Storybook in Chromium: it must render, log no errors and have
// no axe violations (colour contrast included, which jsdom cannot check). Screenshots go to
// screenshots/storybook/ (git-ignored) for people to look at.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { axeViolations, chromiumLaunchOptions } from '@oidc-kit/test-chromium';

const root = fileURLToPath(new URL('../storybook-static/', import.meta.url));
const shots = fileURLToPath(new URL('../screenshots/storybook/', import.meta.url));

const launchOptions = chromiumLaunchOptions(); // throws, saying how to install one, when missing
if (!existsSync(join(root, 'index.json'))) {
  console.error('storybook-static/ is missing: run `npm run build-storybook` first.');
  process.exit(1);
}

const types = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.woff2': 'font/woff2',
};
const server = createServer((request, response) => {
  const path = normalize(
    decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname),
  ).replace(/^(\.\.[/\\])+/, '');
  const file = join(root, path.endsWith('/') ? `${path}index.html` : path);
  if (!file.startsWith(root) || !existsSync(file)) {
    response.writeHead(404).end();
    return;
  }
  response.writeHead(200, { 'Content-Type': types[extname(file)] ?? 'application/octet-stream' });
  response.end(readFileSync(file));
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${server.address().port}`;

const index = JSON.parse(readFileSync(join(root, 'index.json'), 'utf8'));
const stories = Object.values(index.entries).filter((entry) => entry.type === 'story');
// A Docs page per component: every story file's title has one.
const docs = Object.values(index.entries).filter((entry) => entry.type === 'docs');
const titles = [...new Set(stories.map((story) => story.title))];
const undocumented = titles.filter((title) => !docs.some((entry) => entry.title === title));
mkdirSync(shots, { recursive: true });

/**
 * What axe cannot see in a modal dialog: in forced colours (Windows High Contrast) backgrounds and
 * shadows give way to the system colours, and only a border or an outline still draws its edge.
 */
async function dialogProblems(page) {
  const dialog = page.locator('[role=alertdialog], [role=dialog]').first();
  if ((await dialog.count()) === 0) return [];
  // A page in the dark colour scheme gets a dark dialog, not a white one over it.
  const scheme = await dialog.evaluate((element) => {
    const style = getComputedStyle(element);
    const [r, g, b] = style.backgroundColor.match(/[\d.]+/g).map(Number);
    return {
      dark: style.colorScheme === 'dark',
      background: style.backgroundColor,
      luminance: (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255,
    };
  });
  await page.emulateMedia({ forcedColors: 'active' });
  const edge = await dialog.evaluate((element) => {
    const style = getComputedStyle(element);
    const drawn = (line, width) =>
      !['none', 'hidden'].includes(style[line]) && parseFloat(style[width]) > 0;
    return drawn('borderTopStyle', 'borderTopWidth') || drawn('outlineStyle', 'outlineWidth');
  });
  await page.emulateMedia({ forcedColors: 'none' });
  // 400 % zoom of a 1280 × 1024 screen (WCAG 1.4.10): a dialog taller than the window must scroll.
  const size = page.viewportSize();
  await page.setViewportSize({ width: 320, height: 256 });
  const hidden = await dialog.evaluate((element) => {
    element.scrollIntoView({ block: 'end' });
    return Math.ceil(element.getBoundingClientRect().bottom - window.innerHeight);
  });
  await page.setViewportSize(size);
  return [
    ...(scheme.dark && scheme.luminance > 0.5
      ? [`the page's colour scheme is dark, the dialog is light (${scheme.background})`]
      : []),
    ...(edge
      ? []
      : ['forced colours: the dialog has no border or outline, so nothing shows its edge']),
    ...(hidden > 0
      ? [`at 320 × 256 px, the dialog's last ${hidden} px cannot be scrolled into view`]
      : []),
  ];
}

const browser = await chromium.launch(launchOptions);
const failures = [];
try {
  const page = await browser.newPage({ viewport: { width: 720, height: 360 } });
  const errors = [];
  page.on('console', (message) => {
    // Failed loads are reported below with their URL.
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) {
      errors.push(message.text());
    }
  });
  page.on('response', (response) => {
    const url = new URL(response.url());
    if (response.status() >= 400 && url.pathname !== '/favicon.ico')
      errors.push(`${response.status()} ${url.pathname}`);
  });
  page.on('pageerror', (error) => errors.push(error.message));
  for (const story of stories) {
    errors.length = 0;
    await page.goto(`${base}/iframe.html?id=${story.id}&viewMode=story`);
    await page
      .waitForFunction(
        () => (document.querySelector('#storybook-root')?.innerHTML ?? '') !== '',
        null,
        { timeout: 10_000 },
      )
      .catch(() => undefined);
    const html = await page.locator('#storybook-root').innerHTML();
    await page.screenshot({ path: join(shots, `${story.id}.png`) });
    const violations = await axeViolations(page, '#storybook-root');
    // "Loading" stories of templates may render nothing on purpose; everything else must show.
    const problems = [
      ...violations,
      ...(await dialogProblems(page)),
      ...errors.map((error) => `console: ${error}`),
    ];
    if (html.trim() === '' && !/loading|signing-in|signing-out/.test(story.id))
      problems.push('rendered nothing');
    console.log(
      `${problems.length === 0 ? 'ok  ' : 'FAIL'} ${story.id}${problems.length ? `\n     ${problems.join('\n     ')}` : ''}`,
    );
    if (problems.length > 0) failures.push(story.id);
  }
  for (const entry of docs) {
    errors.length = 0;
    await page.goto(`${base}/iframe.html?id=${entry.id}&viewMode=docs`);
    await page
      .waitForFunction(
        () => (document.querySelector('#storybook-docs')?.textContent ?? '').length > 40,
        null,
        { timeout: 15_000 },
      )
      .catch(() => undefined);
    const text = (await page.locator('#storybook-docs').textContent()) ?? '';
    await page.screenshot({ path: join(shots, `${entry.id}.png`), fullPage: true });
    const violations = await axeViolations(page, '#storybook-docs');
    const problems = [...violations, ...errors.map((error) => `console: ${error}`)];
    if (!text.includes(entry.title.split('/').pop())) problems.push('no Docs page rendered');
    // The component's description opens the page (its TSDoc, or the stories' own comment).
    if ((await page.locator('.sbdocs-title + :not(.sb-anchor)').count()) === 0)
      problems.push('no description under the title');
    // TSDoc shown raw: Markdown drops an example's JSX as unknown HTML, which leaves false code.
    for (const tag of text.match(/@example|\{@link[^}]*\}/g) ?? [])
      problems.push(`raw TSDoc on the page: ${tag}`);
    console.log(
      `${problems.length === 0 ? 'ok  ' : 'FAIL'} ${entry.id}${problems.length ? `\n     ${problems.join('\n     ')}` : ''}`,
    );
    if (problems.length > 0) failures.push(entry.id);
  }
  for (const title of undocumented) {
    console.log(`FAIL ${title}: no Docs page`);
    failures.push(title);
  }
} finally {
  await browser.close();
  server.close();
}
const checked = stories.length + docs.length + undocumented.length;
console.log(
  `\nStorybook in Chromium: ${stories.length} stories, ${docs.length} Docs pages, screenshots in screenshots/storybook/`,
);
console.log(`${checked - failures.length} passed, ${failures.length} failed`);
process.exit(failures.length === 0 ? 0 : 1);
