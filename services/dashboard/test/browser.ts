/**
 * What the dashboard's browser test files share: Debian's chromium driven by playwright-core,
 * launched once per file before the file's own setup (a lab, sweeps), the lab it serves pages
 * from, a folder for its screenshots, and pages whose uncaught errors (and what their security
 * policy blocked) are collected. If the setup fails, every test of the file fails with that
 * error: none is skipped. close() stops the browser, then the lab.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { api, startLab, waitForSweep, type LabOptions, type TestLab } from '../../coordinator/test/harness.js';

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
  private lab: TestLab | undefined;
  private setupError: Error | undefined;
  private readonly pageTimeout: number;

  /** `pageTimeout`: how long a page waits for a selector or navigation (a file whose sweeps take long asks more). */
  constructor(name: string, { pageTimeout = 15_000 }: { pageTimeout?: number } = {}) {
    this.artifacts = fileURLToPath(new URL(`../../../test-artifacts/${name}/`, import.meta.url));
    this.pageTimeout = pageTimeout;
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

  /** The file's lab (call it in start's setup); close() stops it after the browser. */
  async startLab(options: LabOptions): Promise<TestLab> {
    this.lab = await startLab(options);
    return this.lab;
  }

  /** Throws why the setup failed: for a file whose tests do not all open a page. */
  ready(): void {
    if (this.setupError) throw this.setupError;
  }

  /** A page in a context of its own (`options`: viewport and the like). */
  async newPage(options: Parameters<Browser['newPage']>[0] = {}): Promise<Page> {
    this.ready();
    const page = await this.browser!.newPage(options);
    page.setDefaultTimeout(this.pageTimeout);
    recordPageErrors(page, this.pageErrors);
    return page;
  }

  async close(): Promise<void> {
    await this.browser?.close();
    await this.lab?.close();
  }
}

/** Submits a sweep over the API and returns its id; a refusal stops the setup with the lab's answer. */
export async function submitSweep(lab: TestLab, spec: unknown): Promise<string> {
  const res = await api(lab.url, '/api/sweeps', { method: 'POST', json: spec });
  if (res.status !== 201) throw new Error(`POST /api/sweeps (${(spec as { name?: string }).name}): ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id as string;
}

/** Submits sweeps over the API, then waits for every one to finish; their ids by the specs' keys. */
export async function runSweeps(lab: TestLab, specs: Record<string, unknown>, timeoutMs = 120_000): Promise<Record<string, string>> {
  const ids: Record<string, string> = {};
  for (const [key, spec] of Object.entries(specs)) ids[key] = await submitSweep(lab, spec);
  for (const id of Object.values(ids)) await waitForSweep(lab, id, timeoutMs);
  return ids;
}
