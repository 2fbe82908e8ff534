/**
 * What the dashboard's browser test files share: Debian's chromium driven by playwright-core,
 * launched once per file before the file's own setup (a lab, sweeps), a folder for its
 * screenshots, and pages whose uncaught errors (and what their security policy blocked) are
 * collected. If the setup fails, every test of the file fails with that error: none is skipped.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Collects a page's uncaught errors, and what its Content-Security-Policy blocked (chromium reports
 * that on the console, not as an error): a script or style the policy refuses is a broken page too.
 */
export function recordPageErrors(page: Page, into: string[]): void {
  page.on('pageerror', (err) => into.push(`${page.url()}: ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() === 'error' && msg.text().includes('Content Security Policy')) into.push(`${page.url()}: ${msg.text()}`);
  });
}

export class BrowserTests {
  /** Where the file's screenshots go: test-artifacts/<name>/ (ignored by git). */
  readonly artifacts: string;
  /** Every uncaught error of the pages opened, as `url: message`. */
  readonly pageErrors: string[] = [];
  private browser: Browser | undefined;
  private setupError: Error | undefined;

  constructor(name: string) {
    this.artifacts = fileURLToPath(new URL(`../../../test-artifacts/${name}/`, import.meta.url));
  }

  /** Launches chromium, then runs the file's setup; a failure of either is kept for every test to throw. */
  async start(setup: () => Promise<void>): Promise<void> {
    try {
      if (!existsSync(CHROMIUM)) throw new Error(`no chromium at ${CHROMIUM}: install it (apt-get install chromium) or set CHROMIUM_PATH`);
      mkdirSync(this.artifacts, { recursive: true });
      this.browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
      await setup();
    } catch (err) {
      this.setupError = err as Error;
    }
  }

  async newPage(options: Parameters<Browser['newPage']>[0] = {}): Promise<Page> {
    if (this.setupError) throw this.setupError;
    const page = await this.browser!.newPage(options);
    page.setDefaultTimeout(15_000);
    recordPageErrors(page, this.pageErrors);
    return page;
  }

  async close(): Promise<void> {
    await this.browser?.close();
  }
}
