// Debian's Chromium (/usr/bin/chromium, `TOOLBOX_CHROMIUM` to use another) driven by playwright-core,
// which downloads no browser: for the HTML report tests, `npm run bench -- report` and the docs'
// screenshot. The flags keep Chromium off the network on these machines (no background
// networking, component updates, sync or QUIC), so that any request is the page's own.
import { existsSync } from 'node:fs';

export const CHROMIUM = process.env.TOOLBOX_CHROMIUM ?? '/usr/bin/chromium';
export const haveChromium = existsSync(CHROMIUM);
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** A headless Chromium browser (playwright-core's Browser). */
export async function launchChromium() {
  const { chromium } = await import('playwright-core');
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}
