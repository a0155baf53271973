// harness.mjs is what the workbench's browser scripts (journey.mjs,
// routes.mjs, memory.mjs) share: their environment, the checks, the wait,
// the screenshots and the headless Chromium they drive.
import { join } from "node:path";
import { chromium } from "playwright-core";

/** T is the timeout of every wait, in milliseconds. */
export const T = 30_000;

/**
 * env returns the environment variables names, after checking they are
 * set: a missing one ends the process with status 2, naming script.
 */
export function env(script, ...names) {
  const missing = names.filter((n) => !process.env[n]);
  if (missing.length > 0) {
    const list = names.length > 1 ? `${names.slice(0, -1).join(", ")} and ${names.at(-1)} are` : `${names[0]} is`;
    console.error(`${script}: ${list} required`);
    process.exit(2);
  }
  return Object.fromEntries(names.map((n) => [n, process.env[n]]));
}

/** check throws unless cond holds; what says what should have. */
export function check(cond, what) {
  if (!cond) throw new Error(`check failed: ${what}`);
}

/** shot saves a screenshot of page as <name>.png in SCREENSHOT_DIR, when set. */
export async function shot(page, name, options = {}) {
  const dir = process.env.SCREENSHOT_DIR || "";
  if (dir) await page.screenshot({ path: join(dir, `${name}.png`), ...options });
}

/** until waits for fn to resolve true, polling every 100 ms, for timeout at most. */
export async function until(what, fn, timeout = T) {
  const end = Date.now() + timeout;
  for (;;) {
    if (await fn()) return;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** launch starts headless Chromium (CHROMIUM, or /usr/bin/chromium) with nothing talking to the network on its own. */
export function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
}
