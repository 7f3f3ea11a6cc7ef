import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Debian's chromium (apt-get install -y chromium), or CHROMIUM_PATH. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Why a browser cannot run here, or undefined when it can. */
export function chromiumMissing(): string | undefined {
  return existsSync(CHROMIUM)
    ? undefined
    : `no chromium at ${CHROMIUM} (apt-get install -y chromium, or set CHROMIUM_PATH)`;
}

/** Launches headless chromium with the flags that work as root in a container; `env` adds variables. */
export function launchChromium(env: Record<string, string> = {}): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    env: { ...process.env, ...env },
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}
