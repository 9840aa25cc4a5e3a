import { expect, test } from '@playwright/test';
import type { Locator, Page } from '@playwright/test';
import { e2e } from './stack';
import { headerSignIn, luminance, signInFromHeader, snap, userName, watchConsole } from './support';

// The idle build: every tab signs out after 20 s without input in any of them, the warning 14 s
// before (so it shows after 6 s). Its pages here call no API (the API answers the main build's origin only).
test.use({ baseURL: e2e.idleApp });

const warning = (page: Page) => page.getByRole('alertdialog', { name: 'Are you still there?' });

/** Whether a border or an outline draws the element's edge. */
const hasEdge = (element: Locator) =>
  element.evaluate((dialog) => {
    const style = getComputedStyle(dialog);
    const drawn = (line: string, width: string) =>
      !['none', 'hidden'].includes(line) && Number.parseFloat(width) > 0;
    return (
      drawn(style.borderTopStyle, style.borderTopWidth) ||
      drawn(style.outlineStyle, style.outlineWidth)
    );
  });

/**
 * The dialogs in Chromium's own accessibility tree, what a screen reader is given: role, name and
 * description. Playwright's `ariaSnapshot()` is its own reading of the DOM, not this tree (it takes
 * role="none" on a <dialog> at its word, where Chromium keeps the dialog).
 */
async function dialogsInTree(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  const { nodes } = await cdp.send('Accessibility.getFullAXTree');
  await cdp.detach();
  return nodes
    .filter((node) => !node.ignored && /dialog/i.test(String(node.role?.value)))
    .map((node) => ({
      role: node.role?.value,
      name: node.name?.value ?? '',
      description: node.description?.value ?? '',
    }));
}

/**
 * Opens a modal <dialog> of the app's own (a form, a message): the browser's top layer, as the
 * warning. Its text is `text`, with one button, `button`, which takes focus.
 */
async function openAppDialog(page: Page, label: string, text: string, button: string) {
  await page.evaluate(
    ({ label, text, button }) => {
      const own = document.createElement('dialog');
      own.setAttribute('aria-label', label);
      const paragraph = document.createElement('p');
      paragraph.textContent = text;
      const action = document.createElement('button');
      action.type = 'button';
      action.textContent = button;
      own.append(paragraph, action);
      document.body.append(own);
      own.showModal();
    },
    { label, text, button },
  );
  return page.getByRole('dialog', { name: label });
}

test("the console watch hears the idle build's pages, so the checks below can fail", async ({
  page,
}) => {
  const watched = watchConsole(page);
  await page.goto('/');
  await page.evaluate(() => console.error('probe'));
  await expect.poll(() => watched).toEqual(['error: probe']);
});

test('11. idle sign-out across two tabs: the warning in both, Stay in one, input in the other, then both signed out', async ({
  context,
}) => {
  const first = await context.newPage();
  const second = await context.newPage();
  const watched = [watchConsole(first), watchConsole(second)];
  await signInFromHeader(first, 'alice', 'Alice Liddell');
  await second.goto('/profile');
  await expect(userName(second, 'Alice Liddell')).toBeVisible();

  // Nobody moves: 6 s after the sign-in the warning shows in both tabs, with a countdown.
  await expect(warning(first)).toBeVisible({ timeout: 10_000 });
  await expect(warning(second)).toBeVisible();
  await expect(warning(second)).toContainText(/signed out in 0:\d\d\./);
  await expect(warning(first).getByRole('button', { name: 'Stay signed in' })).toBeFocused();
  await snap(first, 'idle-warning');
  // In forced colours (Windows High Contrast) its background and shadow give way to the system
  // colours: only a border (or an outline) still shows where the dialog ends.
  await first.emulateMedia({ forcedColors: 'active' });
  expect(await hasEdge(warning(first)), 'the dialog shows its edge in forced colours').toBe(true);
  await first.emulateMedia({ forcedColors: 'none' });

  // Moving the mouse does not dismiss it; "Stay signed in" in one tab closes it in both.
  await first.mouse.move(20, 20);
  await first.mouse.move(240, 180);
  await first.mouse.wheel(0, 200);
  await expect(warning(first)).toBeVisible();
  await warning(second).getByRole('button', { name: 'Stay signed in' }).click();
  const stayed = Date.now();
  await expect(warning(second)).toBeHidden();
  await expect(warning(first)).toBeHidden();

  // Input in the first tab 3 s later keeps both alive past the moment the warning would show.
  await first.waitForTimeout(3_000);
  await first.mouse.move(300, 260);
  await first.keyboard.press('Shift');
  await first.waitForTimeout(stayed + 6_000 + 1_500 - Date.now());
  await expect(warning(first)).toBeHidden();
  await expect(warning(second)).toBeHidden();
  await expect(userName(second, 'Alice Liddell')).toBeVisible();

  // Then nobody again: the warning, and at the end both tabs sign out for inactivity.
  await expect(warning(second)).toBeVisible({ timeout: 10_000 });
  for (const page of [first, second]) {
    await expect(page).toHaveURL(`${e2e.idleApp}/signed-out`, { timeout: 20_000 });
    await expect(page.getByText('You were signed out after a period of inactivity.')).toBeVisible();
    await expect(headerSignIn(page)).toBeVisible();
  }
  await snap(second, 'idle-signed-out');

  // The provider's session ended too: signing in again asks for the password.
  await first.getByRole('button', { name: 'Sign in again' }).click();
  await expect(first).toHaveURL(new RegExp(`^${e2e.provider}/`));
  await expect(first.getByLabel('Password')).toBeVisible();
  expect(watched.flat()).toEqual([]);
});

test('closing the idle warning leaves the page scrolled where the user was reading', async ({
  browser,
}) => {
  // A phone-sized window, so that the home page scrolls well past the header's links.
  const context = await browser.newContext({
    baseURL: e2e.idleApp,
    viewport: { width: 375, height: 500 },
  });
  const page = await context.newPage();
  await signInFromHeader(page, 'alice', 'Alice Liddell');
  // Focus was last on a header link; then the user scrolled down to read.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Home' }).focus();
  await page.mouse.move(100, 300);
  await page.mouse.wheel(0, 600);
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(300);
  const reading = await page.evaluate(() => window.scrollY);

  await expect(warning(page)).toBeVisible({ timeout: 10_000 });
  await warning(page).getByRole('button', { name: 'Stay signed in' }).click();
  await expect(warning(page)).toBeHidden();
  // Focus is back on the link, and the page has not jumped back to it.
  await expect(
    page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Home' }),
  ).toBeFocused();
  expect(await page.evaluate(() => window.scrollY)).toBe(reading);
  await context.close();
});

test('in a dark scheme the warning is dark too, and readable (axe colour contrast)', async ({
  browser,
}) => {
  const context = await browser.newContext({ baseURL: e2e.idleApp, colorScheme: 'dark' });
  const page = await context.newPage();
  await signInFromHeader(page, 'alice', 'Alice Liddell');
  await expect(warning(page)).toBeVisible({ timeout: 10_000 });
  const background = await warning(page).evaluate(
    (dialog) => getComputedStyle(dialog).backgroundColor,
  );
  expect(luminance(background)).toBeLessThan(0.05);
  await snap(page, 'idle-warning-dark');
  await context.close();
});

test('at 400 % zoom (320 × 256 CSS px) every part of the idle warning can be scrolled into view', async ({
  browser,
}) => {
  const context = await browser.newContext({
    baseURL: e2e.idleApp,
    viewport: { width: 320, height: 256 },
  });
  const page = await context.newPage();
  await signInFromHeader(page, 'alice', 'Alice Liddell');
  await expect(warning(page)).toBeVisible({ timeout: 10_000 });
  const hidden = await warning(page).evaluate((dialog) => {
    dialog.scrollIntoView({ block: 'end' });
    return Math.ceil(dialog.getBoundingClientRect().bottom - window.innerHeight);
  });
  expect(
    hidden,
    'pixels of the dialog below the window, after scrolling to them',
  ).toBeLessThanOrEqual(0);
  await context.close();
});

test("over the app's own modal <dialog>, the warning can be answered: focus is in it and Stay keeps the session", async ({
  page,
}) => {
  const watched = watchConsole(page);
  await signInFromHeader(page, 'alice', 'Alice Liddell');
  // The app opens a modal dialog of its own (a form, a confirmation): the browser's top layer.
  const own = await openAppDialog(page, 'Edit the order', 'Editing the order', 'Save the order');
  await expect(own.getByRole('button', { name: 'Save the order' })).toBeFocused();

  await expect(warning(page)).toBeVisible({ timeout: 10_000 });
  const stay = warning(page).getByRole('button', { name: 'Stay signed in' });
  await expect(stay, 'focus is in the warning, not left in the app dialog').toBeFocused();
  await snap(page, 'idle-warning-over-app-dialog');
  // A real click, on top of the app's dialog: not intercepted, not inert.
  await stay.click({ timeout: 5_000 });
  await expect(warning(page)).toBeHidden();
  // Closed, the warning gives focus back to the app's dialog, which is still open.
  await expect(own.getByRole('button', { name: 'Save the order' })).toBeFocused();
  expect(
    await page.evaluate(() => document.querySelector('dialog[aria-label]')?.hasAttribute('open')),
  ).toBe(true);
  // Next time, Escape answers "stay" too, and leaves the app's dialog open.
  await expect(warning(page)).toBeVisible({ timeout: 10_000 });
  await expect(stay).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(warning(page)).toBeHidden();
  await expect(own.getByRole('button', { name: 'Save the order' })).toBeFocused();
  await expect(own).toBeVisible();
  // The session was kept: past the moment it would have ended, still signed in.
  await page.waitForTimeout(9_000);
  await expect(page).toHaveURL(`${e2e.idleApp}/`);
  await expect(userName(page, 'Alice Liddell')).toBeAttached();
  expect(watched).toEqual([]);
});

test('a screen reader is given one dialog: the alertdialog, with its name and description, no unnamed dialog around it', async ({
  page,
}) => {
  await signInFromHeader(page, 'alice', 'Alice Liddell');
  await expect(warning(page)).toBeVisible({ timeout: 10_000 });
  expect(await dialogsInTree(page)).toEqual([
    {
      role: 'alertdialog',
      name: 'Are you still there?',
      description: expect.stringMatching(/^For your security, you will be signed out in 0:\d\d\.$/),
    },
  ]);
});

test("an app's modal <dialog> opened while the warning shows does not cover it: a real click on Stay keeps the session", async ({
  page,
}) => {
  const watched = watchConsole(page);
  await signInFromHeader(page, 'alice', 'Alice Liddell');
  await expect(warning(page)).toBeVisible({ timeout: 10_000 });
  const shown = Date.now();
  // Then the app opens a modal dialog of its own (a message arrived, a timer of its own fired).
  const own = await openAppDialog(page, 'New message', 'Bob wrote to you.', 'Reply');
  await expect(own).toBeVisible();
  const stay = warning(page).getByRole('button', { name: 'Stay signed in' });
  await expect(
    stay,
    'focus is in the warning, not in the dialog that opened after it',
  ).toBeFocused();
  await snap(page, 'idle-warning-over-later-app-dialog');
  // A real mouse click: not intercepted by the app's dialog, the warning not inert below it.
  await stay.click({ timeout: 5_000 });
  await expect(warning(page)).toBeHidden();
  // Focus goes to the app's dialog, still open: the one part of the page that is not inert.
  await expect(own.getByRole('button', { name: 'Reply' })).toBeFocused();
  await expect(own).toBeVisible();
  // The session was kept: past the moment it would have ended, still signed in.
  await page.waitForTimeout(shown + 14_000 + 1_000 - Date.now());
  await expect(page).toHaveURL(`${e2e.idleApp}/`);
  await expect(userName(page, 'Alice Liddell')).toBeAttached();
  expect(watched).toEqual([]);
});
