import { type Browser, chromium } from 'playwright-core';

/**
 * Headless Chromium for the browser tests and packages/contract/scripts/make-fixtures.js: Debian's package (`.ci/run`
 * installs it) unless CHROMIUM_PATH names another. playwright-core never downloads a browser.
 * @example const browser = await launchChromium(); const tab = await browser.newPage();
 */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}
