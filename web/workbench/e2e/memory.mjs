// memory.mjs drives the workbench's Memory page in headless Chromium
// against a running `paige serve` whose stores
// internal/coach/workbench/e2e/memory_test.go filled beforehand (learned
// entries, a seed proposal made by the learn → seed loop, coach memories):
//
//   open the workbench → Memory in the navigation → the three stores with
//   evidence and source sessions → search → pin an entry → edit it → accept
//   the proposal → forget an entry → edit a coach memory → forget another.
//
// The Go test then checks the stores on disk. Environment: WORKBENCH_URL,
// CHROMIUM, SCREENSHOT_DIR (optional: PNGs). Exits 0 when every step
// passed, 1 with the failed step otherwise.
import { T, check, env, launch, shot } from "./harness.mjs";

const { WORKBENCH_URL } = env("memory", "WORKBENCH_URL");

let step = "launch";
const shotFull = (page, name) => shot(page, name, { fullPage: true });

const browser = await launch();

try {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const pageErrors = [];
  page.on("pageerror", (e) => pageErrors.push(String(e)));
  const origin = new URL(WORKBENCH_URL).origin;
  const foreign = [];
  page.on("request", (r) => { if (!r.url().startsWith(origin) && !r.url().startsWith("data:")) foreign.push(r.url()); });

  step = "open the Memory page from the navigation";
  await page.goto(WORKBENCH_URL);
  await page.getByRole("link", { name: "Memory" }).click();
  await page.waitForURL(/\/memory$/, { timeout: T });
  check((await page.getByRole("link", { name: "Memory" }).getAttribute("aria-current")) === "page", "Memory is the current page");
  const learned = page.getByRole("region", { name: "Learned" });
  const proposals = page.getByRole("region", { name: "Proposals for your seed" });
  const memories = page.getByRole("region", { name: "Coach memories" });
  await learned.getByText("Start the app with mix phx.server").waitFor({ timeout: T });
  await learned.getByText(/Evidence: ran mix phx.server 4 times/).waitFor({ timeout: T });
  await learned.getByText("seed: pending").waitFor({ timeout: T });
  await proposals.getByText(/proposed from session:e2e-session-2/).waitFor({ timeout: T });
  await proposals.getByText(/From the learned preference/).waitFor({ timeout: T });
  await memories.getByText("Paired on the OAuth refresh race").waitFor({ timeout: T });
  await memories.getByText("this project").first().waitFor({ timeout: T });
  await shotFull(page, "08-memory");

  step = "search";
  const search = page.getByRole("searchbox", { name: "Search memory" });
  await search.fill("phx");
  await learned.getByText("User prefers pnpm over npm").waitFor({ state: "detached", timeout: T });
  check(await learned.getByText("Start the app with mix phx.server").isVisible(), "the phx entry stays");
  await search.fill("");
  await learned.getByText("User prefers pnpm over npm").waitFor({ timeout: T });

  step = "pin an entry";
  await page.getByRole("button", { name: /^Pin learned procedure/ }).click();
  await learned.getByText("pinned", { exact: true }).waitFor({ timeout: T });

  step = "edit it";
  await page.getByRole("button", { name: /^Edit learned procedure/ }).click();
  await page.getByRole("textbox", { name: /^New content of learned procedure/ }).fill("Start the app with iex -S mix phx.server");
  await page.getByRole("button", { name: "Save" }).click();
  await learned.getByText("Start the app with iex -S mix phx.server").waitFor({ timeout: T });

  step = "accept the proposal";
  await page.getByRole("button", { name: /^Accept proposal/ }).click();
  await proposals.locator('[data-status="accepted"]').waitFor({ timeout: T });
  await learned.getByText("seed: accepted").waitFor({ timeout: T });

  step = "forget an entry";
  await page.getByRole("button", { name: /^Forget learned rule/ }).click();
  await page.getByRole("button", { name: "Yes, forget" }).click();
  await learned.getByText("Never force-push to main").waitFor({ state: "detached", timeout: T });
  await learned.getByText("1 forgotten entry is kept out of every context.").waitFor({ timeout: T });

  step = "edit a coach memory";
  await page.getByRole("button", { name: /^Edit memory mem_e2e-coach_0/ }).click();
  await page.getByRole("textbox", { name: /^New content of memory mem_e2e-coach_0/ }).fill("OAuth refresh race: take the lock before refreshing");
  await page.getByRole("button", { name: "Save" }).click();
  await memories.getByText("OAuth refresh race: take the lock before refreshing").waitFor({ timeout: T });

  step = "forget another memory";
  await page.getByRole("button", { name: "Forget memory mem_e2e-coach_1" }).click();
  await page.getByRole("button", { name: "Yes, forget" }).click();
  await memories.getByText("Confused map iteration order").waitFor({ state: "detached", timeout: T });
  await shotFull(page, "09-memory-after");

  check(pageErrors.length === 0, `no page errors: ${pageErrors.join("; ")}`);
  check(foreign.length === 0, `no request to another host: ${foreign.join(", ")}`);
  console.log("memory journey: every step passed");
} catch (e) {
  console.error(`memory journey failed at "${step}": ${e.message}`);
  process.exitCode = 1;
} finally {
  await browser.close();
}
