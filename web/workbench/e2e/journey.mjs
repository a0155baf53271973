// journey.mjs drives the Paige workbench in headless Chromium through the
// journey a user makes, against a running `paige serve` whose Claude is
// scripted by llmtest. internal/coach/workbench/e2e/journey_test.go starts
// both and runs this; it also acts as Claude Code over MCP, reached here
// through CONTROL_URL (POST /<step> → the test calls the MCP tools):
//
//   empty dashboard → start a session → open src/cart.ts, type, save (disk
//   changes) → terminal echoes a command → Claude highlights lines and hints
//   files → coaching pipeline (phases) → phase update → Explain This →
//   Observer nudge toast, mute → server restart (the view comes back without
//   a reload) → end the session over MCP (summary) → dashboard with the new
//   Dreyfus stage and kata → practice: open the kata, submit, review.
//
// Environment: WORKBENCH_URL (the URL `paige serve` prints, with ?token=),
// CONTROL_URL, PROJECT_DIR, CHROMIUM, SCREENSHOT_DIR (optional: PNGs).
// Exits 0 when every step passed, 1 with the failed step otherwise.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { T, check, env, launch, shot, until } from "./harness.mjs";

const { WORKBENCH_URL, CONTROL_URL, PROJECT_DIR } = env("journey", "WORKBENCH_URL", "CONTROL_URL", "PROJECT_DIR");

let step = "launch";
const timings = {};

/** claude asks the Go test to act as Claude Code (an MCP tool call). */
async function claude(name, args = {}) {
  const res = await fetch(`${CONTROL_URL}/${name}`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(args) });
  const text = await res.text();
  if (!res.ok) throw new Error(`claude ${name}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

const diskCart = () => readFileSync(join(PROJECT_DIR, "src/cart.ts"), "utf8");

const browser = await launch();

try {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const consoleErrors = [];
  page.on("pageerror", (e) => consoleErrors.push(String(e)));
  const requests = [];
  page.on("request", (r) => requests.push(r.url()));
  let sockets = 0;
  page.on("websocket", (ws) => { if (new URL(ws.url()).pathname === "/ws") sockets++; });

  step = "dashboard: empty, zeros";
  const t0 = Date.now();
  await page.goto(WORKBENCH_URL);
  await page.getByRole("status", { name: "Connection" }).getByText("connected").waitFor({ timeout: T });
  await page.locator('[data-stat="Sessions completed"]').getByText("0", { exact: true }).waitFor({ timeout: T });
  timings.interactiveMs = Date.now() - t0;
  check(new URL(page.url()).search === "", "the token is dropped from the address bar");
  check((await page.locator('[data-stat="Hints used"]').textContent()) === "0", "hints used is 0");
  await page.getByText("No skill assessed yet").waitFor({ timeout: T });
  await page.getByText("No katas yet").first().waitFor({ timeout: T });
  await page.getByRole("link", { name: "GhostPath" }).waitFor({ timeout: T });
  await shot(page, "01-dashboard");

  step = "start a session";
  await page.getByRole("button", { name: "Start a session" }).click();
  await page.waitForURL(/\/work$/, { timeout: T });
  await page.getByRole("treeitem", { name: "src" }).click();

  step = "open src/cart.ts, type, save";
  await page.locator('[role=treeitem][data-path="src/cart.ts"]').click();
  const editor = page.locator(".monaco-editor").first();
  await editor.waitFor({ timeout: T });
  await page.locator(".view-lines").getByText("export function total").waitFor({ timeout: T });
  await page.locator(".view-lines").click();
  await page.keyboard.press("Control+End");
  await page.keyboard.type("\n// checked by paige e2e\n", { delay: 30 });
  await page.getByRole("status", { name: "Save status" }).getByText("Unsaved").waitFor({ timeout: T });
  await page.keyboard.press("Control+s");
  await page.getByRole("status", { name: "Save status" }).getByText("Saved").waitFor({ timeout: T });
  check(diskCart().includes("// checked by paige e2e"), "src/cart.ts on disk has the typed line");
  const buffered = await claude("get_buffer", { path: "src/cart.ts" });
  check(JSON.stringify(buffered).includes("checked by paige e2e"), "Claude Code sees the buffer");

  step = "terminal echoes a command";
  const term = page.getByTestId("terminal");
  await term.waitFor({ timeout: T });
  await page.getByText("Terminal", { exact: true }).waitFor({ timeout: T });
  await term.click();
  await page.keyboard.type("echo paige-$((6*7))\n", { delay: 20 });
  await term.locator(".xterm-rows").getByText("paige-42", { exact: true }).waitFor({ timeout: T });
  await shot(page, "02-work");

  step = "Claude highlights lines and hints files";
  await claude("highlight", { path: "src/cart.ts", start: 8, end: 10, style: "warning", hoverText: "Quantities?" });
  await editor.locator(".pg-line-warning").first().waitFor({ timeout: T });
  await claude("hint", { hints: [{ path: "package.json", style: "obvious" }] });
  await page.locator('[role=treeitem][data-path="package.json"][data-hint="obvious"]').waitFor({ timeout: T });

  step = "coaching pipeline: phases appear, one is updated";
  await claude("pipeline");
  await page.locator('[data-phase="1"]').getByText("Read the cart").waitFor({ timeout: T });
  await page.locator('[data-phase="2"]').getByText("Multiply by quantity").waitFor({ timeout: T });
  await claude("phase", { phase: 1, status: "active" });
  await page.locator('[data-phase="1"][data-status="active"]').waitFor({ timeout: T });

  step = "Explain This on a selection";
  await page.locator(".view-lines").getByText("items.reduce").click();
  await page.keyboard.press("Home");
  await page.keyboard.press("Shift+End");
  await page.keyboard.press("Control+Shift+E");
  const explanation = page.getByRole("region", { name: "Explanation" });
  await explanation.getByText("reduce folds the items").waitFor({ timeout: T });
  await explanation.getByText("accumulator").waitFor({ timeout: T });
  await shot(page, "03-explain");
  await explanation.getByRole("button", { name: "package.json" }).click();
  await page.locator('[role=tab][data-path="package.json"]').waitFor({ timeout: T });

  step = "Observer nudge toast, mute";
  await claude("arm_nudge");
  await claude("phase", { phase: 1, status: "complete" });
  const nudge = page.locator('[role=status][data-kind="nudge"]');
  await nudge.waitFor({ timeout: T });
  check((await nudge.textContent()).includes("src/cart.ts"), "the nudge names the expected file");
  await shot(page, "04-nudge");
  await page.getByRole("button", { name: "Mute nudges" }).click();
  await page.getByTestId("observer-status").getByText("muted").waitFor({ timeout: T });

  step = "server restart: the view comes back without a reload";
  await page.evaluate(() => { window.__samePage = true; });
  const before = sockets;
  await claude("restart");
  await until("a new /ws connection", () => sockets > before);
  await page.getByRole("status", { name: "Connection" }).getByText("connected").waitFor({ timeout: T });
  check(await page.evaluate(() => window.__samePage === true), "no page reload");
  await page.locator('[data-phase="1"][data-status="complete"]').waitFor({ timeout: T });
  await page.locator('[role=tab][data-path="src/cart.ts"]').click();
  await page.locator(".view-lines").click();
  await page.keyboard.press("Control+End");
  await page.keyboard.type("// after restart\n", { delay: 30 });
  await page.keyboard.press("Control+s");
  await until("the edit after the restart on disk", () => diskCart().includes("// after restart"));

  step = "end the session over MCP: summary";
  await claude("end_session");
  const summary = page.getByRole("dialog", { name: "Session summary" });
  await summary.waitFor({ timeout: T });
  check((await summary.getByTestId("sum-katas").textContent()) === "1", "one kata written");
  check((await summary.getByTestId("sum-dreyfus").textContent()) === "1", "one Dreyfus update");
  await shot(page, "05-summary");

  step = "dashboard: new Dreyfus stage and kata";
  await summary.getByRole("button", { name: "Back to the dashboard" }).click();
  await page.waitForURL((u) => new URL(u).pathname === "/", { timeout: T });
  await page.getByRole("list", { name: "Skill stages" }).getByText("competent").waitFor({ timeout: T });
  check(await page.getByRole("img", { name: "Dreyfus stages by skill area" }).count() === 0, "one skill is a list, not a radar");
  await page.locator('[data-stat="Sessions completed"]').getByText("1", { exact: true }).waitFor({ timeout: T });
  const kataLink = page.getByRole("link", { name: "Sum with quantities" });
  await kataLink.waitFor({ timeout: T });
  await shot(page, "06-dashboard-after");

  step = "practice: open the kata, submit, see the review";
  await kataLink.click();
  await page.waitForURL(/\/practice\/.+$/, { timeout: T });
  await page.getByRole("heading", { name: "Sum with quantities" }).waitFor({ timeout: T });
  await page.locator(".view-lines").getByText("function sum").waitFor({ timeout: T });
  const constraints = page.getByRole("list", { name: "Constraints" });
  check((await constraints.locator("li").count()) === 3, "the kata's three constraints are listed");
  check((await constraints.locator('[data-unlocked="true"]').count()) === 0, "no constraint is unlocked before the first review");
  await page.getByRole("button", { name: "Submit" }).click();
  const review = page.getByRole("region", { name: "Review" });
  await review.getByText("Level 5").waitFor({ timeout: T });
  await review.getByText("Nice use of reduce").waitFor({ timeout: T });
  await review.getByText(/^Unlocked: /).waitFor({ timeout: T });
  await page.getByRole("region", { name: "Attempts" }).getByText("level 5").waitFor({ timeout: T });
  await until("a constraint unlocked at level 5", async () => (await constraints.locator('[data-unlocked="true"]').count()) >= 1);
  await shot(page, "07-practice");

  step = "practice: the kata's page loaded directly";
  await page.reload();
  await page.getByRole("heading", { name: "Sum with quantities" }).waitFor({ timeout: T });
  await page.getByRole("region", { name: "Attempts" }).getByText("level 5").waitFor({ timeout: T });

  step = "nothing from another host";
  const foreign = requests.filter((u) => new URL(u).host !== new URL(WORKBENCH_URL).host);
  check(foreign.length === 0, `requests to other hosts: ${foreign.join(", ")}`);
  check(consoleErrors.length === 0, `page errors: ${consoleErrors.join(" | ")}`);
  console.log(`journey: ok ${JSON.stringify(timings)}`);
} catch (err) {
  console.error(`journey: step "${step}" failed: ${err.stack || err}`);
  process.exitCode = 1;
} finally {
  await browser.close();
}
