import { existsSync } from 'node:fs';

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
