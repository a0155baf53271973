// routes.mjs drives the workbench as a developer keeps it open all day, in
// headless Chromium, against an offline `paige serve` on a copy of the demo
// project that internal/coach/workbench/e2e/routes_test.go started. The Go
// test acts as Claude Code and stops/starts the server (CONTROL_URL:
// POST /connect, /stop, /start):
//
//   every route loaded directly at 1280×800 and 1024×640, no page error →
//   the first-run panel names the install line and the MCP URL → Status →
//   Work without a session: tree, editor, terminal; new file, rename,
//   delete, search in files → a session at 1024×640: no control outside the
//   viewport, panes resize → Claude Code connects: the header says so and
//   the first-run panel goes → the server stops and starts: Memory, Status
//   and Work come back by themselves, with no reload.
//
// Environment: WORKBENCH_URL (with ?token=), CONTROL_URL, PROJECT_DIR,
// CHROMIUM, SCREENSHOT_DIR (optional: PNGs). Exits 0 when every step
// passed, 1 with the failed step otherwise.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { T, check, env, launch, shot, until } from "./harness.mjs";

const { WORKBENCH_URL, CONTROL_URL, PROJECT_DIR } = env("routes", "WORKBENCH_URL", "CONTROL_URL", "PROJECT_DIR");
const base = new URL(WORKBENCH_URL).origin;
const ROUTES = ["/", "/work", "/practice", "/memory", "/status"];
const SIZES = [{ width: 1280, height: 800 }, { width: 1024, height: 640 }];

let step = "launch";
async function control(name) {
  const res = await fetch(`${CONTROL_URL}/${name}`, { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" });
  if (!res.ok) throw new Error(`control ${name}: ${res.status} ${await res.text()}`);
}
const disk = (rel) => join(PROJECT_DIR, rel);

/** inside reports the named controls whose box is not wholly inside the viewport. */
async function outside(page, locators) {
  const vp = page.viewportSize();
  const bad = [];
  for (const [name, loc] of locators) {
    const b = await loc.boundingBox({ timeout: 5000 }).catch(() => null);
    if (!b || b.width === 0 || b.x < 0 || b.y < 0 || b.x + b.width > vp.width + 0.5 || b.y + b.height > vp.height + 0.5) bad.push(`${name} ${JSON.stringify(b)}`);
  }
  return bad;
}

const browser = await launch();

try {
  const context = await browser.newContext({ viewport: SIZES[0] });
  const errors = [];
  let expectOutage = false;
  const watch = (page) => {
    page.on("pageerror", (e) => errors.push(`${page.url()}: ${e}`));
    page.on("console", (m) => { if (m.type() === "error" && !expectOutage) errors.push(`${page.url()}: console: ${m.text()}`); });
  };

  step = "the token sets the terminal's cookie";
  const first = await context.newPage();
  watch(first);
  await first.goto(WORKBENCH_URL);
  await first.getByRole("status", { name: "Connection" }).getByText("connected").waitFor({ timeout: T });
  await first.close();

  for (const size of SIZES) {
    for (const route of ROUTES) {
      step = `load ${route} directly at ${size.width}×${size.height}`;
      const page = await context.newPage();
      watch(page);
      await page.setViewportSize(size);
      await page.goto(base + route);
      await page.getByRole("status", { name: "Connection" }).getByText("connected").waitFor({ timeout: T });
      await page.getByRole("navigation", { name: "Paige" }).waitFor({ timeout: T });
      if (route === "/work") await page.locator('[role=treeitem][data-path="src"]').waitFor({ timeout: T });
      if (route === "/status") await page.locator('[data-status-row="Version"]').waitFor({ timeout: T });
      if (route === "/memory") await page.getByRole("region", { name: "Learned" }).waitFor({ timeout: T });
      await page.waitForTimeout(300); // a render loop (React #185) shows up within a few frames
      check(errors.length === 0, `page errors on ${route}: ${errors.join(" | ")}`);
      await shot(page, `${size.width}-${route === "/" ? "dashboard" : route.slice(1)}`);
      await page.close();
    }
  }

  const page = await context.newPage();
  watch(page);
  step = "favicon";
  const fav = await page.request.get(`${base}/favicon.ico`);
  check(fav.status() === 200, `/favicon.ico: ${fav.status()}`);

  step = "first-run panel: the install line and the MCP URL";
  await page.goto(base + "/");
  const welcome = page.getByRole("region", { name: "Getting started" });
  await welcome.waitFor({ timeout: T });
  check((await welcome.locator('[data-copy="install command"]').first().textContent()) === "paige claude install", "names paige claude install");
  const add = await welcome.locator('[data-copy="claude mcp add command"]').textContent();
  check(add === `claude mcp add --transport http paige ${base}/mcp`, `names the MCP URL: ${add}`);
  check((await welcome.textContent()).includes("/paige:coach"), "says how to start coaching");
  await welcome.getByRole("button", { name: "Copy claude mcp add command" }).waitFor({ timeout: T });
  await page.getByRole("link", { name: "Claude Code connection" }).getByText("not set up").waitFor({ timeout: T });

  step = "status view";
  await page.getByRole("link", { name: "Status", exact: true }).click();
  await page.waitForURL(`${base}/status`, { timeout: T });
  const row = (k) => page.locator(`[data-status-row="${k}"]`);
  await row("Version").waitFor({ timeout: T });
  check((await row("MCP URL").textContent()) === `${base}/mcp`, "MCP URL");
  check((await row("Project").textContent()).endsWith("project"), "project dir");
  check((await row("Claude key").textContent()).startsWith("not set"), "no key");
  check((await row("Coaching session").textContent()).startsWith("none"), "no session");
  check((await row("Memory").textContent()).includes("embedded"), "memory backend");

  step = "Work without a session: tree, editor, terminal";
  await page.getByRole("link", { name: "Work", exact: true }).click();
  await page.locator('[role=treeitem][data-path="src"]').click();
  await page.locator('[role=treeitem][data-path="src/cart.ts"]').click();
  await page.locator(".view-lines").getByText("export function total").waitFor({ timeout: T });
  await page.getByTestId("terminal").waitFor({ timeout: T });
  check(await page.getByRole("button", { name: "End session" }).count() === 0, "no End session without a session");

  step = "new file, rename, delete";
  await page.locator('[role=treeitem][data-path="src"]').click(); // select the folder: new entries go in it
  await page.getByRole("button", { name: "New file" }).click();
  await page.getByRole("textbox", { name: "New file path" }).fill("src/notes.ts");
  await page.getByRole("button", { name: "Create" }).click();
  await page.locator('[role=tab][data-path="src/notes.ts"]').waitFor({ timeout: T });
  await page.locator('[role=treeitem][data-path="src/notes.ts"]').waitFor({ timeout: T });
  check(existsSync(disk("src/notes.ts")), "src/notes.ts on disk");
  await page.getByRole("button", { name: "Rename" }).click();
  await page.getByRole("textbox", { name: "New path" }).fill("src/todo.ts");
  await page.getByRole("button", { name: "Rename" }).last().click();
  await page.locator('[role=tab][data-path="src/todo.ts"]').waitFor({ timeout: T });
  await until("the rename on disk", () => existsSync(disk("src/todo.ts")) && !existsSync(disk("src/notes.ts")));
  await page.getByRole("button", { name: "Delete" }).click();
  await page.getByRole("button", { name: "Yes, delete" }).click();
  await until("the delete on disk", () => !existsSync(disk("src/todo.ts")));
  await until("the tab closed", async () => (await page.locator('[role=tab][data-path="src/todo.ts"]').count()) === 0);
  await until("the tree updated", async () => (await page.locator('[role=treeitem][data-path="src/todo.ts"]').count()) === 0);

  step = "search in files";
  await page.getByRole("tab", { name: "Search" }).click();
  await page.getByRole("searchbox", { name: "Search in files" }).fill("quantity");
  await page.getByRole("button", { name: "Search", exact: true }).click();
  const hit = page.locator('[data-hit^="src/cart.ts:"]').first();
  await hit.waitFor({ timeout: T });
  await hit.click();
  await page.locator('[role=tab][data-path="src/cart.ts"][aria-selected=true]').waitFor({ timeout: T });
  await page.getByRole("tab", { name: "Files" }).click();

  step = "a session at 1024×640: nothing clipped";
  await page.setViewportSize(SIZES[1]);
  await page.getByRole("button", { name: "Start a session" }).click();
  await page.getByRole("button", { name: "End session" }).waitFor({ timeout: T });
  const controls = [
    ["End session", page.getByRole("button", { name: "End session" })],
    ["Hide coaching panel", page.getByRole("button", { name: "Hide coaching panel" })],
    ["Mute nudges", page.getByRole("button", { name: "Mute nudges" })],
    ["Plan", page.getByRole("region", { name: "Phases" }).getByRole("heading", { name: "Plan" })],
    ["Hint level", page.getByRole("combobox", { name: "Hint level" })],
    ["tree", page.locator('[role=treeitem][data-path="src"]')],
    ["New file", page.getByRole("button", { name: "New file" })],
    ["editor", page.locator(".monaco-editor").first()],
    ["Explain This", page.getByRole("button", { name: "Explain This" })],
    ["terminal", page.getByTestId("terminal")],
    ["Connection", page.getByRole("status", { name: "Connection" })],
  ];
  let bad = await outside(page, controls);
  check(bad.length === 0, `outside 1024×640: ${bad.join("; ")}`);
  await shot(page, "1024-work-session");

  step = "panes resize";
  const sep = page.getByRole("separator", { name: "Resize the file tree" });
  const before = (await page.getByRole("tree", { name: "Files" }).boundingBox()).width;
  const sb = await sep.boundingBox();
  await page.mouse.move(sb.x + 2, sb.y + sb.height / 2);
  await page.mouse.down();
  await page.mouse.move(sb.x + 82, sb.y + sb.height / 2, { steps: 5 });
  await page.mouse.up();
  const after = (await page.getByRole("tree", { name: "Files" }).boundingBox()).width;
  check(after > before + 40, `the tree grew when dragged: ${before} → ${after}`);
  bad = await outside(page, controls);
  check(bad.length === 0, `outside 1024×640 after resizing: ${bad.join("; ")}`);

  step = "reload Work mid-session";
  await page.reload();
  await page.getByRole("button", { name: "End session" }).waitFor({ timeout: T });
  await page.locator('[role=treeitem][data-path="src"]').waitFor({ timeout: T });
  await page.getByRole("button", { name: "End session" }).click();
  await page.getByRole("dialog", { name: "Session summary" }).getByText("queued").waitFor({ timeout: T });
  await page.getByRole("button", { name: "Close", exact: true }).click();
  await page.setViewportSize(SIZES[0]);

  step = "Claude Code connects: the header says so, the first-run panel goes";
  await control("connect");
  await page.getByRole("link", { name: "Dashboard", exact: true }).click();
  await page.getByRole("link", { name: "Claude Code connection" }).getByText("Claude Code: connected").waitFor({ timeout: T });
  await until("the first-run panel gone", async () => (await page.getByRole("region", { name: "Getting started" }).count()) === 0);

  step = "server stops: Memory, Status and Work come back by themselves";
  await page.evaluate(() => { window.__samePage = true; });
  expectOutage = true;
  await control("stop");
  await page.getByRole("status", { name: "Connection" }).getByText("reconnecting").waitFor({ timeout: T });
  await page.getByRole("link", { name: "Memory", exact: true }).click();
  await page.getByText("Paige is not answering").waitFor({ timeout: T });
  await shot(page, "restart-memory-waiting");
  await control("start");
  await page.getByRole("region", { name: "Learned" }).waitFor({ timeout: T });
  await page.getByRole("status", { name: "Connection" }).getByText("connected").waitFor({ timeout: T });
  await until("the notice gone", async () => (await page.getByText("Paige is not answering").count()) === 0);
  expectOutage = false;
  await page.getByRole("link", { name: "Status", exact: true }).click();
  await row("Version").waitFor({ timeout: T });
  await page.getByRole("link", { name: "Work", exact: true }).click();
  await page.locator('[role=treeitem][data-path="src"]').waitFor({ timeout: T });
  check(await page.evaluate(() => window.__samePage === true), "no page reload");

  check(errors.length === 0, `page errors: ${errors.join(" | ")}`);
  check(readFileSync(disk("src/cart.ts"), "utf8").includes("export function total"), "cart.ts intact");
  console.log("routes: ok");
} catch (err) {
  console.error(`routes: step "${step}" failed: ${err.stack || err}`);
  process.exitCode = 1;
} finally {
  await browser.close();
}
