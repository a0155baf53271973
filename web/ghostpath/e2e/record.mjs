// record.mjs holds the steps of flow.mjs about the user's record (issue 28):
// renaming and exporting a finished session, and a session whose scores turn
// the model refuses. Each takes what flow.mjs shares: the page, its check,
// shot and navFits helpers, at (names the current step), and the values it
// needs. See flow.mjs for how they run.

import { readFileSync } from "node:fs";

/** renameAndExport renames the finished main session and checks its Markdown and JSON exports are whole. */
export async function renameAndExport({ page, check, shot, at, T, PROBLEM, sessionId }) {
  at("rename the session");
  await page.getByRole("button", { name: "Rename" }).click();
  await page.getByLabel("Session name").fill("Ticket immune system ideas");
  await page.getByRole("button", { name: "Save name" }).click();
  await page.getByRole("heading", { level: 1, name: "Ticket immune system ideas" }).waitFor({ timeout: T });
  await page.reload();
  await page.getByRole("heading", { level: 1, name: "Ticket immune system ideas" }).waitFor({ timeout: T });
  await shot(page, "19-renamed");

  at("export the whole session as Markdown and JSON");
  const exported = async (name) => {
    const [d] = await Promise.all([page.waitForEvent("download", { timeout: T }), page.getByRole("link", { name }).click()]);
    return { name: d.suggestedFilename(), text: readFileSync(await d.path(), "utf8") };
  };
  const mdx = await exported("Markdown (.md)");
  check(mdx.name === `ghostpath-session-${sessionId}.md`, `Markdown export file name ${mdx.name}`);
  for (const s of [
    "# Ticket immune system ideas", PROBLEM, "## Round 1", "## Round 2", "- Score: 8.5/10", "- Comment: Love the self-healing angle",
    "### Antibody macros — ★ the user's winner", "- Score: 7.5/10", "- Combined from: Ticket immune system (round 1", "- Combined from: Customers fix bugs (round 1",
    "- Evolved from: Self-healing FAQ (round 1", `**Q:** ${"Should GhostPath favour speed over depth?"}`, "**A:** Speed first",
    "## Final spec", "# Spec: Ticket Immune System",
  ]) {
    check(mdx.text.includes(s), `the Markdown export holds ${JSON.stringify(s)}`);
  }
  const jsonx = await exported("JSON (.json)");
  const whole = JSON.parse(jsonx.text);
  check(
    whole.title === "Ticket immune system ideas" && whole.rounds.length === 2 && whole.answers.length === 1 &&
      whole.spec.startsWith("# Spec: Ticket Immune System") &&
      whole.rounds[1].premises.find((p) => p.title === "Antibody macros").parents.length === 2,
    `the JSON export is whole: ${jsonx.text.slice(0, 300)}`,
  );

}

/**
 * refusedAfterScores runs a session whose scores turn the model refuses: the round stays scored,
 * a reload calls nothing, the home list says it failed, and Resume continues it.
 */
export async function refusedAfterScores({ page, check, shot, navFits, at, T, BASE_URL, FAIL_PROBLEM, FAIL_QUESTION }) {
  at("a model error after the scores: the round stays scored");
  await page.getByLabel("What problem do you want to solve?").fill(FAIL_PROBLEM);
  await page.getByRole("button", { name: "Start exploring" }).click();
  await page.waitForURL(/\/ghostpath\/sessions\/[^/]+$/, { timeout: T });
  const failUrl = page.url();
  await page.getByRole("heading", { name: "Round 1" }).waitFor({ timeout: T });
  // (5 is where an unset slider rests: filling it changes nothing)
  for (const [i, v] of [4, 6, 7].entries()) await page.getByRole("slider").nth(i).fill(String(v));
  await page.getByRole("button", { name: "Next Round →" }).click();
  await page.getByRole("alert").filter({ hasText: "Claude declined" }).waitFor({ timeout: T });
  const failedRounds = page.getByRole("region", { name: "Your rounds" });
  await failedRounds.getByText("Your score: 6.0").waitFor({ timeout: T });
  check((await page.getByRole("slider").count()) === 0, "after the error, the scored round is not offered again");
  await shot(page, "20-failed-after-scores");

  at("a failed session reopened waits for Resume");
  await page.reload();
  await page.getByRole("alert").filter({ hasText: "Claude declined" }).waitFor({ timeout: T });
  check((await page.getByRole("slider").count()) === 0, "reopened, the scored round is not offered again");
  await failedRounds.getByText("Your score: 4.0").waitFor({ timeout: T });
  await page.goto(new URL("/ghostpath/", BASE_URL).href);
  const failedRow = page.getByRole("listitem").filter({ hasText: FAIL_PROBLEM });
  await failedRow.getByText(/^Failed: Claude declined/).waitFor({ timeout: T });
  await shot(page, "21-home-failed");
  await navFits(page, "home");
  await page.goto(failUrl);
  await page.getByRole("button", { name: "Resume" }).click();
  await page.getByRole("group", { name: FAIL_QUESTION }).waitFor({ timeout: T });

}
