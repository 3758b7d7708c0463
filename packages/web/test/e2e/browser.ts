// Shared by the browser tests: Debian's Chromium through playwright-core, axe-core run in the page,
// screenshots kept in test-results/ as artifacts (never compared).
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AideClient, type SystemFlavor } from '@aide/sdk';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterEach, expect, inject } from 'vitest';

const CHROMIUM = process.env['AIDE_CHROMIUM'] ?? '/usr/bin/chromium';
const SHOTS = fileURLToPath(new URL('../../test-results/', import.meta.url));
const axeSource = (createRequire(import.meta.url)('axe-core') as { source: string }).source;

export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1280, height: 900 };

/** An API client signed in as the seeded superuser of this run (the tests' set-up goes through it). */
export function adminClient(): AideClient {
  const admin = inject('admin');
  return new AideClient({
    baseUrl: inject('baseUrl'),
    username: admin.email,
    password: admin.password,
    fetch,
  });
}

/** A seeded flavor, which the tests' own systems are made with. */
export async function seededFlavor(api: AideClient, code = 'postgres14'): Promise<SystemFlavor> {
  const flavor = (await api.systemFlavors.list({ code })).items[0];
  if (!flavor) throw new Error(`the seeded flavor ${code} is missing`);
  return flavor;
}

/** A desktop-sized page of `browser`, signed in as `user` (the superuser by default). */
export async function signedInPage(browser: Browser, user = inject('admin')): Promise<Page> {
  const page = await browser.newPage({ viewport: DESKTOP });
  await signIn(page, inject('baseUrl'), user);
  return page;
}

export async function launch(): Promise<Browser> {
  mkdirSync(SHOTS, { recursive: true });
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

export async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
}

/**
 * Every axe violation of the current page, whatever its impact (minor and moderate too: issue 28 sets
 * zero as the bar), as `id: targets` lines.
 */
export async function axeViolations(page: Page): Promise<string[]> {
  // Through the DevTools protocol, which the page's Content-Security-Policy (no inline scripts) allows.
  await page.evaluate(axeSource);
  const result = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run(): Promise<{
            violations: { id: string; impact: string | null; nodes: { target: unknown[] }[] }[];
          }>;
        };
      }
    ).axe;
    return (await axe.run()).violations;
  });
  return result.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/**
 * Checks with axe the state every test of the enclosing file or describe ends in (issue 28: zero
 * violations on every page state the browser tests visit), on top of the checks tests make between.
 */
export function axeAfterEach(page: () => Page | undefined): void {
  afterEach(async () => {
    const current = page();
    // A test that never opened a page (an HTTP check) leaves about:blank: nothing to check.
    if (current && !current.isClosed() && current.url() !== 'about:blank')
      expect(await axeViolations(current)).toEqual([]);
  });
}

/** In-app navigation to a path under /ui (a page load would sign the user out). */
export async function go(page: Page, path: string): Promise<void> {
  await page.evaluate((to) => {
    window.history.pushState(null, '', `/ui${to}`);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
}

/** Signs in through the login form and waits for the systems page. */
export async function signIn(page: Page, baseUrl: string, user: { email: string; password: string }) {
  await page.goto(`${baseUrl}/ui/`);
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Systems' }).waitFor();
}

/**
 * The elements that stick out of the viewport sideways (outermost only; what scrolls inside its own
 * `.scroll` box does not count), as `tag.class` strings: empty when the page needs no sideways scroll.
 */
export async function sidewaysOverflow(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const out: string[] = [];
    const walk = (el: Element) => {
      if (el.closest('.scroll') && !el.classList.contains('scroll')) return;
      // An <svg> clips what it draws to its own box (a panned graph's nodes lie outside it).
      if (el.parentElement?.closest('svg')) return;
      if (el.getBoundingClientRect().right > width + 1) {
        const inner = [...el.children].some((c) => c.getBoundingClientRect().right > width + 1);
        if (!inner || el.classList.contains('scroll'))
          out.push(
            `${el.tagName.toLowerCase()}.${[...el.classList].join('.')} "${(el.textContent ?? '').slice(0, 30)}"`,
          );
      }
      for (const c of el.children) walk(c);
    };
    walk(document.body);
    const scroll = document.documentElement.scrollWidth;
    if (out.length === 0 && scroll > width) out.push(`the document: ${scroll}px wide for ${width}px`);
    return out;
  });
}
