import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const install =
  'Install one (Debian/Ubuntu: apt-get install chromium; macOS: brew install --cask chromium; Windows: winget install Hibbiki.Chromium) or set CHROMIUM_PATH.';

/**
 * Launch options for the system's Chromium (CHROMIUM_PATH, default /usr/bin/chromium): headless,
 * no sandbox (containers), and no background traffic, so checks see only the requests they make.
 */
export function chromiumLaunchOptions() {
  const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!existsSync(executablePath)) throw new Error(`No Chromium at ${executablePath}. ${install}`);
  return {
    executablePath,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  };
}

const axeSource = readFileSync(
  createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
  'utf8',
);

/**
 * The WCAG 2.2 A/AA violations axe-core finds in `context` (a CSS selector) of a Playwright page,
 * colour contrast included, as "rule: help (where)" lines; empty when there are none.
 */
export async function axeViolations(page, context = 'body') {
  // Evaluated, not added as a script tag: pages with a strict Content-Security-Policy (the dev
  // provider's) refuse script tags, and they are checked too.
  if (!(await page.evaluate('typeof axe === "object"'))) await page.evaluate(axeSource);
  return page.evaluate(async (selector) => {
    const result = await globalThis.axe.run(selector, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] },
    });
    return result.violations.map(
      (violation) =>
        `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(' ')).join(', ')})`,
    );
  }, context);
}
