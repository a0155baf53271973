// flow.mjs drives the GhostPath UI in headless Chromium through a whole
// session against a running `paige serve` whose Claude is scripted by
// llmtest (internal/ideate/web/e2e_test.go starts both and runs this):
//
//   create → round 1 → score → ask_user answer → round 2 → resolve →
//   spec rendered and downloaded → evolution report.
//
// It runs in a narrow (phone-sized) window and scores one premise with the
// keyboard only. Environment: BASE_URL (http://127.0.0.1:PORT), CHROMIUM
// (path to the browser), SCREENSHOT_DIR (optional: a PNG per step).
// Exits 0 when every step passed, 1 with the failed step otherwise.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { chromium } from "playwright-core";

const BASE_URL = process.env.BASE_URL;
const CHROMIUM = process.env.CHROMIUM || "/usr/bin/chromium";
const SHOTS = process.env.SCREENSHOT_DIR || "";
const T = 30_000;

if (!BASE_URL) {
  console.error("flow: BASE_URL is required");
  process.exit(2);
}

const PROBLEM = "Our support team drowns in repeated tickets about the same three product bugs.";
let step = "launch";

function check(cond, what) {
  if (!cond) throw new Error(`check failed: ${what}`);
}

async function shot(page, name) {
  if (SHOTS) await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
}

async function noHorizontalScroll(page, where) {
  const { sw, iw } = await page.evaluate(() => ({ sw: document.documentElement.scrollWidth, iw: window.innerWidth }));
  check(sw <= iw, `${where}: page is ${sw}px wide in a ${iw}px window`);
}

const browser = await chromium.launch({
  executablePath: CHROMIUM,
  headless: true,
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
  ], // launch() gives the browser a fresh, empty profile of its own
});

try {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, acceptDownloads: true });
  const page = await context.newPage();
  const consoleErrors = [];
  page.on("console", (m) => m.type() === "error" && consoleErrors.push(m.text()));
  page.on("pageerror", (e) => consoleErrors.push(String(e)));

  step = "home: live length check";
  await page.goto(new URL("/ghostpath/", BASE_URL).href);
  const problem = page.getByLabel("What problem do you want to solve?");
  const start = page.getByRole("button", { name: "Start exploring" });
  await problem.fill("   short   ");
  await page.getByText("5 / 10,000 characters").waitFor({ timeout: T });
  check(await start.isDisabled(), "Start is disabled for 5 characters");
  await problem.fill(PROBLEM);
  await page.getByText(`${PROBLEM.length} / 10,000 characters`).waitFor({ timeout: T });
  check(await start.isEnabled(), "Start is enabled for a valid problem");
  await shot(page, "01-home");
  await noHorizontalScroll(page, "home");

  step = "create session";
  await start.click();
  await page.waitForURL(/\/ghostpath\/sessions\/[^/]+$/, { timeout: T });
  const sessionId = decodeURIComponent(new URL(page.url()).pathname.split("/").pop());

  step = "round 1: activity, tool error, context meter";
  await page.getByRole("heading", { name: "Round 1" }).waitFor({ timeout: T });
  check((await page.getByRole("article").count()) === 3, "round 1 shows three premise cards");
  // Guardrail bounces are progress, collapsed by default: a step, not a failure.
  const steps = page.getByRole("list", { name: "Agent steps", includeHidden: true });
  await steps.getByText(/GATES_NOT_SATISFIED/).waitFor({ state: "attached", timeout: T });
  check((await page.getByRole("list", { name: "Tool failures" }).count()) === 0, "a guardrail bounce is not shown as a failure");
  await page.getByText("Presenting the round").first().waitFor({ state: "attached", timeout: T });
  check((await page.getByRole("meter", { name: "Context used" }).count()) === 1, "context meter is shown");
  check(
    (await page.getByLabel("Agent messages").getAttribute("aria-live")) === "polite",
    "agent text is an aria-live region",
  );
  await shot(page, "02-round1");
  await noHorizontalScroll(page, "round 1");

  step = "round 1: score (Next Round enabled only when all scored)";
  const next = page.getByRole("button", { name: "Next Round →" });
  check(await next.isDisabled(), "Next Round disabled before scoring");
  const sliders = page.getByRole("slider");
  await sliders.nth(0).fill("8.5");
  await sliders.nth(1).fill("3.2");
  check(await next.isDisabled(), "Next Round disabled with one premise unscored");
  await sliders.nth(2).focus(); // keyboard only: End jumps to 10, ArrowLeft steps 0.1 down
  await page.keyboard.press("End");
  await page.keyboard.press("ArrowLeft");
  const vt = await sliders.nth(2).getAttribute("aria-valuetext");
  check(vt === "9.9 out of 10", `keyboard-scored slider says "${vt}", want "9.9 out of 10"`);
  await page.getByRole("textbox", { name: /^Comment on .* \(optional\)$/ }).nth(0).fill("Love the self-healing angle");
  check(await next.isEnabled(), "Next Round enabled when all are scored");
  await next.click();

  step = "ask_user: answer";
  await page.getByRole("group", { name: "Should GhostPath favour speed over depth?" }).waitFor({ timeout: T });
  await shot(page, "03-ask-user");
  const submit = page.getByRole("button", { name: "Submit response" });
  check(await submit.isDisabled(), "Submit disabled before choosing");
  await page.getByRole("radio", { name: /Speed first/ }).check();
  await submit.click();

  step = "round 2";
  await page.getByRole("heading", { name: "Round 2" }).waitFor({ timeout: T });
  check((await page.getByRole("article").count()) === 3, "round 2 shows three premise cards");
  await shot(page, "04-round2");

  step = "reload during round 2 re-shows the pending round";
  await page.reload();
  await page.getByRole("heading", { name: "Round 2" }).waitFor({ timeout: T });
  check((await page.getByRole("article").count()) === 3, "after reload, round 2 shows three premise cards");
  check((await page.getByRole("heading", { name: "Round 1" }).count()) === 0, "after reload, only the pending round is shown");

  step = "resolve: pick winner 2";
  await page.getByRole("button", { name: "✓ Problem Resolved" }).click();
  const picker = page.getByRole("group", { name: "Which premise solves your problem?" });
  await picker.getByRole("radio").nth(1).check();
  await shot(page, "05-resolve");
  await picker.getByRole("button", { name: "Generate final spec" }).click();

  step = "final spec rendered";
  const spec = page.getByRole("article", { name: "Spec content" });
  await spec.getByRole("heading", { level: 1, name: "Spec: Ticket Immune System" }).waitFor({ timeout: T });
  await spec.getByRole("heading", { level: 2, name: "1. Executive Summary" }).waitFor({ timeout: T });
  check((await spec.locator("table").count()) === 1, "spec table rendered");
  check((await spec.locator("script, img, iframe").count()) === 0, "spec injected no raw HTML");
  check(
    (await spec.textContent()).includes("<script>alert('x')</script>"),
    "raw HTML in the spec shows as text",
  );
  await page.getByText("Excellent choice!").first().waitFor({ state: "attached", timeout: T });
  await shot(page, "06-spec");
  await noHorizontalScroll(page, "spec");

  step = "final spec downloaded";
  const [download] = await Promise.all([
    page.waitForEvent("download", { timeout: T }),
    page.getByRole("link", { name: "Download spec (.md)" }).click(),
  ]);
  const file = readFileSync(await download.path(), "utf8");
  check(file.startsWith("# Spec: Ticket Immune System"), `downloaded spec starts with the title (got ${JSON.stringify(file.slice(0, 40))})`);
  check(download.suggestedFilename().endsWith(".md"), `download is a .md file (${download.suggestedFilename()})`);

  step = "report: evolution tree";
  await page.getByRole("link", { name: "Evolution report" }).click();
  const tree = page.getByRole("list", { name: "Evolution tree" });
  await tree.getByRole("heading", { name: "Round 1" }).waitFor({ timeout: T });
  await tree.getByRole("heading", { name: "Round 2" }).waitFor({ timeout: T });
  await tree.getByLabel("score 8.5 of 10").waitFor({ timeout: T });
  await tree.getByLabel("score 9.9 of 10").waitFor({ timeout: T });
  check((await tree.getByText("winner", { exact: true }).count()) === 1, "one winner in the tree");
  await shot(page, "07-report");
  await noHorizontalScroll(page, "report");

  step = "reload keeps the finished session";
  await page.goto(new URL(`/ghostpath/sessions/${encodeURIComponent(sessionId)}`, BASE_URL).href);
  await page.getByRole("article", { name: "Spec content" }).getByRole("heading", { level: 1 }).waitFor({ timeout: T });

  step = "home lists the session";
  await page.goto(new URL("/ghostpath/", BASE_URL).href);
  const listed = page.locator(`a[href="/ghostpath/sessions/${encodeURIComponent(sessionId)}"]`);
  await listed.waitFor({ timeout: T });
  check((await listed.textContent()) === PROBLEM, "the past session shows its problem");

  step = "wide window: report";
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(new URL(`/ghostpath/sessions/${encodeURIComponent(sessionId)}/report`, BASE_URL).href);
  await page.getByRole("list", { name: "Evolution tree" }).getByRole("heading", { name: "Round 2" }).waitFor({ timeout: T });
  await shot(page, "08-report-wide");
  await noHorizontalScroll(page, "wide report");

  step = "no console errors";
  check(consoleErrors.length === 0, `browser console errors: ${consoleErrors.join(" | ")}`);
  console.log(`flow: ok (session ${sessionId})`);
} catch (e) {
  console.error(`flow: FAILED at step "${step}": ${e?.message ?? e}`);
  process.exitCode = 1;
} finally {
  await browser.close();
}
