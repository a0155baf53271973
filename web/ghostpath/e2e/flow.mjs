// flow.mjs drives the GhostPath UI in headless Chromium through a whole
// session against a running `paige serve` whose Claude is scripted by
// llmtest (internal/ideate/web/e2e_test.go starts both and runs this):
//
//   create → round 1 → score → ask_user answer → round 2 → resolve →
//   spec rendered and downloaded → evolution report and lineage graph
//   (SVG and Markdown exports) → a second session paused at round 1 and
//   cancelled through the confirmation dialog → the home list paged
//   ("Load more"), searched and a session deleted → the lineage graph of a
//   ten-round session. Also: the main session renamed and exported whole
//   (Markdown, JSON); a session whose scores turn the model refuses keeps
//   its scored round, reopens without calling Claude, and resumes.
//
// The main session runs in a narrow (phone-sized) window and scores one
// premise with the keyboard only; the rest runs in a desktop window.
// Environment: BASE_URL (http://127.0.0.1:PORT), CHROMIUM (path to the
// browser), SCREENSHOT_DIR (optional: a PNG per step), PAUSE_PROBLEM (the
// problem of the session to cancel), TEN_ID and TEN_WINNER (the ten-round
// session and its winner's title).
// Exits 0 when every step passed, 1 with the failed step otherwise.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { refusedAfterScores, renameAndExport } from "./record.mjs";

const BASE_URL = process.env.BASE_URL;
const PAUSE_PROBLEM = process.env.PAUSE_PROBLEM;
const TEN_ID = process.env.TEN_ID;
const TEN_WINNER = process.env.TEN_WINNER;
const FAIL_PROBLEM = process.env.FAIL_PROBLEM;
const FAIL_QUESTION = process.env.FAIL_QUESTION;
const FILLERS = 25; // more than one page (20) of the home list
const CHROMIUM = process.env.CHROMIUM || "/usr/bin/chromium";
const SHOTS = process.env.SCREENSHOT_DIR || "";
const T = 30_000;

if (!BASE_URL || !PAUSE_PROBLEM || !TEN_ID || !TEN_WINNER || !FAIL_PROBLEM || !FAIL_QUESTION) {
  console.error("flow: BASE_URL, PAUSE_PROBLEM, TEN_ID, TEN_WINNER, FAIL_PROBLEM and FAIL_QUESTION are required");
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

// TEN_PROBLEM_START is how the ten-round session's problem begins (e2e_tenrounds_test.go).
const TEN_PROBLEM_START = "Ten rounds: how might";

const TOPICS = [
  "How might we sort the support inbox by urgency without reading every ticket",
  "Our onboarding emails are ignored; how do new users learn the three key features",
  "Standups take 40 minutes for a team of six",
  "Customers cannot find the export button in the reports page",
  "Night-shift nurses lose handover notes between systems",
];

// filler is the problem of the i-th extra session (1-based): varied, each with its own case number.
function filler(i) {
  return `${TOPICS[(i - 1) % TOPICS.length]} (case ${String(i).padStart(2, "0")})`;
}

// api calls the GhostPath API from the page (same origin, as the UI does) and returns its JSON.
async function api(page, method, path, body) {
  const res = await page.evaluate(
    async ([m, p, b]) => {
      const r = await fetch(p, { method: m, headers: b ? { "Content-Type": "application/json" } : {}, body: b ? JSON.stringify(b) : undefined });
      return { status: r.status, text: await r.text() };
    },
    [method, path, body],
  );
  check(res.status < 300, `${method} ${path}: ${res.status} ${res.text.slice(0, 200)}`);
  return res.text ? JSON.parse(res.text) : null;
}

// navFits checks every link of Paige's navigation bar is inside the window (none cut off).
async function navFits(page, where) {
  const { iw, out } = await page.evaluate(() => ({
    iw: window.innerWidth,
    out: [...document.querySelectorAll('nav[aria-label="Paige"] a')]
      .filter((a) => { const r = a.getBoundingClientRect(); return r.left < 0 || r.right > window.innerWidth; })
      .map((a) => a.textContent),
  }));
  check(out.length === 0, `${where}: navigation links cut off in a ${iw}px window: ${out.join(", ")}`);
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
  await navFits(page, "round 1");

  step = "round 1: score (Next Round enabled only when all scored)";
  const next = page.getByRole("button", { name: "Next Round →" });
  check(await next.isDisabled(), "Next Round disabled before scoring");
  const sliders = page.getByRole("slider");
  for (let i = 0; i < 3; i++) {
    check((await sliders.nth(i).getAttribute("aria-valuetext")) === "not scored yet", `slider ${i} starts unset`);
  }
  check((await page.getByText("Not scored yet").count()) === 3, "each card says it is not scored yet");
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
  const evolvedCard = page.getByRole("article").filter({ hasText: "Immune memory for bugs" });
  await evolvedCard.getByText("Evolved from “Self-healing FAQ”").waitFor({ timeout: T });
  await evolvedCard.getByText("immunology").waitFor({ timeout: T });
  await page.getByRole("article").filter({ hasText: "Antibody macros" }).getByText("Combined from “Ticket immune system” + “Customers fix bugs”").waitFor({ timeout: T });
  await page.getByRole("article").filter({ hasText: "Fever alerts" }).getByText("Every ticket needs a human reply").waitFor({ timeout: T });
  await shot(page, "04-round2");

  step = "reload during round 2 re-shows the pending round";
  await page.reload();
  await page.getByRole("heading", { name: "Round 2" }).waitFor({ timeout: T });
  check((await page.getByRole("article").count()) === 3, "after reload, round 2 shows three premise cards");
  check((await page.getByRole("heading", { name: "Round 1" }).count()) === 0, "after reload, only the pending round is open for scoring");
  const yours = page.getByRole("region", { name: "Your rounds" });
  await yours.getByText("Your score: 8.5").waitFor({ timeout: T });
  await yours.getByText("Love the self-healing angle", { exact: false }).waitFor({ timeout: T });
  check((await yours.getByRole("slider").count()) === 0, "a scored round cannot be scored again");

  step = "resolve: pick winner 2 (scored on the page, not sent with Next Round)";
  await page.getByRole("slider").nth(1).fill("7.5");
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
  check((await tree.getByText("★ your winner", { exact: true }).count()) === 1, "one winner in the tree, the user's");
  for (const parent of ["Ticket immune system", "Customers fix bugs"]) {
    check((await tree.getByRole("link", { name: parent }).count()) === 1, `the tree names ${parent} as a parent of the combination`);
  }
  await shot(page, "07-report");
  await noHorizontalScroll(page, "report");

  step = "report: lineage graph";
  const graph = page.getByRole("img", { name: "Lineage graph" });
  await graph.waitFor({ timeout: T });
  check((await graph.locator("[data-node]").count()) === 6, "the graph has the 6 premises as nodes");
  const edge = async (kind) => graph.locator(`path[data-kind="${kind}"] title`).allTextContents();
  const evolved = await edge("evolved");
  const combined = await edge("combined");
  check(evolved.length === 1 && evolved[0] === "Immune memory for bugs: evolved from Self-healing FAQ", `evolved edges: ${JSON.stringify(evolved)}`);
  check(
    combined.length === 2 &&
      combined.includes("Antibody macros: combined from Ticket immune system") &&
      combined.includes("Antibody macros: combined from Customers fix bugs"),
    `combined edges (every parent): ${JSON.stringify(combined)}`,
  );
  const winnerNode = graph.locator("[data-winner]");
  check((await winnerNode.count()) === 1, "one winner node");
  const winnerText = await winnerNode.textContent();
  check(
    winnerText.includes("Antibody macros") && winnerText.includes("★ winner") && winnerText.includes("score 7.5"),
    `the winner node shows the user's pick and score: ${JSON.stringify(winnerText)}`,
  );
  const graphText = await graph.textContent();
  for (const s of ["score 8.5", "score 3.2", "score 9.9", "Round 1", "Round 2"]) check(graphText.includes(s), `the graph shows "${s}"`);

  step = "report: graph exported as SVG";
  const [svgDownload] = await Promise.all([
    page.waitForEvent("download", { timeout: T }),
    page.getByRole("button", { name: "Download graph (.svg)" }).click(),
  ]);
  const svgText = readFileSync(await svgDownload.path(), "utf8");
  check(svgDownload.suggestedFilename() === `ghostpath-${sessionId}-lineage.svg`, `SVG file name ${svgDownload.suggestedFilename()}`);
  check(svgText.startsWith("<svg") && svgText.includes('xmlns="http://www.w3.org/2000/svg"'), `SVG export is an SVG document (${svgText.slice(0, 60)})`);
  for (const s of ["Antibody macros", "evolved from Self-healing FAQ", "combined from Ticket immune system", "combined from Customers fix bugs", "★ winner", "score 9.9"]) {
    check(svgText.includes(s), `the SVG export holds "${s}"`);
  }

  step = "report: final spec exported as Markdown";
  const [mdDownload] = await Promise.all([
    page.waitForEvent("download", { timeout: T }),
    page.getByRole("link", { name: "Download the final spec (.md)" }).click(),
  ]);
  const md = readFileSync(await mdDownload.path(), "utf8");
  check(md.startsWith("# Spec: Ticket Immune System") && mdDownload.suggestedFilename().endsWith(".md"), `report's Markdown export (${mdDownload.suggestedFilename()})`);

  step = "reload keeps the finished session";
  await page.goto(new URL(`/ghostpath/sessions/${encodeURIComponent(sessionId)}`, BASE_URL).href);
  await page.getByRole("article", { name: "Spec content" }).getByRole("heading", { level: 1 }).waitFor({ timeout: T });

  const shared = { page, check, shot, navFits, at: (name) => (step = name), T, BASE_URL, PROBLEM, sessionId, FAIL_PROBLEM, FAIL_QUESTION };
  await renameAndExport(shared);

  step = "home lists the session by its name and state";
  await page.goto(new URL("/ghostpath/", BASE_URL).href);
  const listed = page.locator(`a[href="/ghostpath/sessions/${encodeURIComponent(sessionId)}"]`);
  await listed.waitFor({ timeout: T });
  const listedText = await listed.textContent();
  check(listedText.includes("Ticket immune system ideas") && listedText.includes("Spec written"), `the past session shows its name and state: ${listedText}`);

  await refusedAfterScores(shared);

  step = "wide window: report";
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(new URL(`/ghostpath/sessions/${encodeURIComponent(sessionId)}/report`, BASE_URL).href);
  await page.getByRole("list", { name: "Evolution tree" }).getByRole("heading", { name: "Round 2" }).waitFor({ timeout: T });
  await shot(page, "08-report-wide");
  await noHorizontalScroll(page, "wide report");

  step = "paused session: reaches round 1";
  await page.goto(new URL("/ghostpath/", BASE_URL).href);
  await page.getByLabel("What problem do you want to solve?").fill(PAUSE_PROBLEM);
  await page.getByRole("button", { name: "Start exploring" }).click();
  await page.waitForURL(/\/ghostpath\/sessions\/[^/]+$/, { timeout: T });
  const pausedId = decodeURIComponent(new URL(page.url()).pathname.split("/").pop());
  await page.getByRole("heading", { name: "Round 1" }).waitFor({ timeout: T });
  await page.getByRole("button", { name: "Next Round →" }).waitFor({ timeout: T });
  await shot(page, "09-round-unscored");
  const activity = page.locator("details").filter({ has: page.getByRole("list", { name: "Agent steps", includeHidden: true }) });
  check(!(await activity.evaluate((d) => d.open)), "agent activity is collapsed by default");
  if (SHOTS) await activity.screenshot({ path: join(SHOTS, "10-activity-collapsed.png") });
  await activity.locator("summary").click();
  check(await activity.evaluate((d) => d.open), "agent activity opens on click");
  await page.getByRole("list", { name: "Agent steps" }).getByText(/GATES_NOT_SATISFIED/).waitFor({ timeout: T });
  if (SHOTS) await activity.screenshot({ path: join(SHOTS, "11-activity-open.png") });

  step = "paused session: cancel asks first, keeping it keeps it";
  await page.getByRole("button", { name: "Cancel session" }).click();
  const dialog = page.getByRole("alertdialog", { name: "Cancel this session?" });
  await dialog.waitFor({ timeout: T });
  if (SHOTS) await page.screenshot({ path: join(SHOTS, "12-cancel-confirm.png") }); // the viewport, where the dialog is
  await dialog.getByRole("button", { name: "No, keep it" }).click();
  check((await page.getByRole("alertdialog").count()) === 0, "keeping closes the dialog");
  check((await page.getByRole("article").count()) === 3, "kept: the round is still there");

  step = "paused session: cancelled";
  await page.getByRole("button", { name: "Cancel session" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Yes, cancel it" }).click();
  await page.getByRole("alert").getByText("This session was cancelled.").waitFor({ timeout: T });
  check((await page.getByRole("slider").count()) === 0, "a cancelled session shows no sliders");
  check((await page.getByRole("button", { name: "Cancel session" }).count()) === 0, "nothing left to cancel");
  const pausedDetail = await api(page, "GET", `/api/v1/sessions/${encodeURIComponent(pausedId)}`);
  check(pausedDetail.status === "cancelled", `the server says ${pausedDetail.status}`);
  await page.reload();
  await page.getByText("This session was cancelled. Its rounds are in the").waitFor({ timeout: T });

  step = "home list: more sessions than one page";
  for (let i = 1; i <= FILLERS; i++) {
    await api(page, "POST", "/api/v1/sessions", { problem: filler(i) });
  }
  await page.goto(new URL("/ghostpath/", BASE_URL).href);
  const rows = page.getByRole("list").filter({ has: page.getByRole("button", { name: /^Delete session: / }) }).getByRole("listitem");
  const heading = page.getByRole("heading", { name: /^Past sessions/ });
  const total = FILLERS + 4; // the main, the failed, the paused and the ten-round session
  await heading.getByText(`(${total})`).waitFor({ timeout: T });
  await rows.nth(19).waitFor({ timeout: T });
  check((await rows.count()) === 20, `the first page shows 20 sessions, not ${await rows.count()}`);
  // Other sessions' runs may still write a tool call while the fillers are
  // made; among the fillers, whose activity is their creation, the newest
  // comes first.
  const firstTexts = await rows.allTextContents();
  const newest = firstTexts.findIndex((t) => t.includes(filler(FILLERS)));
  const older = firstTexts.findIndex((t) => t.includes(filler(FILLERS - 1)));
  check(newest >= 0 && older > newest, `the newest activity comes first (newest filler at ${newest}, the one before at ${older})`);
  check((await page.getByText(filler(1), { exact: true }).count()) === 0, "the oldest filler is not on the first page");
  await shot(page, "13-home-list");

  step = "home list: Load more reaches the older sessions";
  await page.getByRole("button", { name: "Load more" }).click();
  await page.getByText(filler(1), { exact: true }).waitFor({ timeout: T });
  await rows.nth(total - 1).waitFor({ timeout: T });
  check((await rows.count()) === total, `after Load more: ${await rows.count()} of ${total}`);
  check((await page.getByRole("button", { name: "Load more" }).count()) === 0, "no Load more after the last page");
  check((await rows.nth(total - 1).textContent()).includes(TEN_PROBLEM_START), "the ten-round session (oldest activity) comes last");
  const statusOf = (problem) => rows.filter({ hasText: problem }).getByText(/^(created|active|resolved|cancelled)$/).textContent();
  check((await statusOf(PAUSE_PROBLEM)) === "cancelled", "the home list shows the paused session as cancelled");

  step = "home list: search by problem text";
  const search = page.getByRole("searchbox", { name: "Search sessions by problem" });
  await search.fill("CASE 07");
  await page.getByText("(1)", { exact: true }).waitFor({ timeout: T });
  await rows.filter({ hasText: filler(7) }).waitFor({ timeout: T });
  check((await rows.count()) === 1, `search "CASE 07" shows ${await rows.count()} rows`);
  await shot(page, "14-home-search");
  await search.fill("no session has this text");
  await page.getByText("No session matches your search.").waitFor({ timeout: T });
  await search.fill("");
  await heading.getByText(`(${total})`).waitFor({ timeout: T });

  step = "home list: delete a session after confirmation";
  await search.fill("pause me");
  await rows.filter({ hasText: PAUSE_PROBLEM }).waitFor({ timeout: T });
  check((await rows.count()) === 1, `search "pause me" shows ${await rows.count()} rows`);
  await page.getByRole("button", { name: `Delete session: ${PAUSE_PROBLEM.slice(0, 80)}` }).click();
  const del = page.getByRole("alertdialog", { name: "Delete this session?" });
  await del.getByText("This cannot be undone.", { exact: false }).waitFor({ timeout: T });
  await del.getByRole("button", { name: "Yes, delete it" }).click();
  await page.getByText("No session matches your search.").waitFor({ timeout: T });
  await search.fill("");
  await heading.getByText(`(${total - 1})`).waitFor({ timeout: T });
  // Asked from Node, not the page: the expected 404 must not count as a console error.
  const gone = (await page.request.get(new URL(`/api/v1/sessions/${encodeURIComponent(pausedId)}`, BASE_URL).href)).status();
  check(gone === 404, `the deleted session answers ${gone}`);

  step = "ten rounds: lineage graph";
  await page.goto(new URL(`/ghostpath/sessions/${encodeURIComponent(TEN_ID)}/report`, BASE_URL).href);
  const tenGraph = page.getByRole("img", { name: "Lineage graph" });
  await tenGraph.waitFor({ timeout: T });
  check((await tenGraph.locator("[data-node]").count()) === 30, "ten rounds draw 30 nodes");
  check((await tenGraph.locator('path[data-kind="evolved"]').count()) === 18, "ten rounds draw 18 evolved-from edges");
  check((await tenGraph.locator('path[data-kind="combined"]').count()) === 18, "ten rounds draw 18 combined-from edges (both parents of 9 combinations)");
  const tenWinner = tenGraph.locator("[data-winner]");
  check((await tenWinner.count()) === 1 && (await tenWinner.textContent()).includes(TEN_WINNER), "the ten-round winner is marked");
  const tenText = await tenGraph.textContent();
  check(["Round 10", "score 8.6", "score 8.2"].every((x) => tenText.includes(x)), "round 10 and the scores are drawn");
  await noHorizontalScroll(page, "ten-round report");
  await shot(page, "15-lineage-10-rounds");
  await page.setViewportSize({ width: 390, height: 844 });
  await noHorizontalScroll(page, "ten-round report, narrow");
  await shot(page, "16-lineage-10-rounds-narrow");

  step = "no console errors";
  check(consoleErrors.length === 0, `browser console errors: ${consoleErrors.join(" | ")}`);
  console.log(`flow: ok (session ${sessionId})`);
} catch (e) {
  console.error(`flow: FAILED at step "${step}": ${e?.message ?? e}`);
  process.exitCode = 1;
} finally {
  await browser.close();
}
