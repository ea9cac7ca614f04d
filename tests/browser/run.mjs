// End-to-end tests of the page `sudokit serve` serves, in Debian's Chromium driven by
// Playwright: node tests/browser/run.mjs [path/to/sudokit]. It starts the server on a free
// loopback port, plays the page as a person would, checks what the grid shows, and saves
// screenshots into tests/browser/screenshots/. Exit status 0 when every check holds.

import { spawn } from "node:child_process";
import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const here = dirname(fileURLToPath(import.meta.url));
const binary = process.argv[2] || join(here, "../../target/debug/sudokit");
const shots = join(here, "screenshots");
mkdirSync(shots, { recursive: true });

// Singles, pointing, a naked pair and an X-Wing.
const XWING = "....2.65.6.2.14...4....8.2..71......83.....16......78..6.5....3...14.5.8.84.9....";
// The position of examples/xy_wing.txt, whose next step is an XY-Wing.
const XY_POSITION = "16.87.34.28.46.7.147..516.89421358678569274137316489..697.1.584518794236324586179";
const GROUPED = "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";
const INKALA = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";

const server = spawn(binary, ["serve", "--addr", "127.0.0.1:0"], { stdio: ["ignore", "ignore", "pipe"] });
const base = await new Promise((resolve, reject) => {
  let seen = "";
  server.stderr.on("data", chunk => {
    seen += chunk;
    const found = /http:\/\/(127\.0\.0\.1:\d+)\//.exec(seen);
    if (found) resolve(`http://${found[1]}`);
  });
  server.on("exit", code => reject(new Error(`sudokit serve exited (${code}): ${seen}`)));
  setTimeout(() => reject(new Error(`no address from sudokit serve: ${seen}`)), 10000);
});

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
let failures = 0;
const checks = [];
function check(name, ok, detail = "") {
  checks.push(name);
  if (!ok) { failures++; console.log(`FAIL ${name} ${detail}`); } else console.log(`ok   ${name}`);
}

try {
  const page = await browser.newPage({ viewport: { width: 1100, height: 760 } });
  const errors = [];
  page.on("pageerror", e => errors.push(e.message));
  const cell = name => page.locator(`.cell[data-cell="${name}"]`);
  const status = () => page.locator("#message").textContent();

  // A shared link opens its puzzle.
  await page.goto(`${base}/?p=${XWING}`);
  check("the link's puzzle is on the grid", (await cell("r1c5").textContent()) === "2");
  check("empty cells show their candidates", (await cell("r1c1").locator(".marks span").allTextContents()).join("") === "1379");

  // Hints in rising detail, drawn on the grid.
  await page.click("#hint1");
  await page.waitForFunction(() => document.querySelector("#message").textContent.startsWith("Look"));
  check("level 1 names the technique", (await status()) === "Look for a Hidden Single.");
  await page.click("#hint2");
  await page.waitForFunction(() => document.querySelector("#message").textContent.includes("box 1"));
  check("level 2 says where", (await status()) === "Look for a Hidden Single on digit 8 in box 1.");
  check("level 2 shades the house", await cell("r2c2").evaluate(e => e.classList.contains("house")));
  await page.click("#hint3");
  await page.waitForFunction(() => document.querySelector("#message").textContent.startsWith("Hidden Single:"));
  check("level 3 shows the placement", (await cell("r1c3").locator(".marks span.place").textContent()) === "8");
  await page.screenshot({ path: join(shots, "hint.png") });

  // Typing, undo and checking entries.
  await cell("r1c3").click();
  await page.keyboard.press("Digit8");
  check("a typed digit is placed", (await cell("r1c3").textContent()) === "8");
  check("its peers lose the candidate", !(await cell("r1c1").locator(".marks").textContent()).includes("8"));
  await page.click("#undo");
  await cell("r1c3").click();
  await page.click('#pad button[aria-label="Digit 8"]');
  check("the digit pad places too", (await cell("r1c3").textContent()) === "8");
  await page.click("#undo");
  check("undo takes it back", (await cell("r1c3").locator(".marks span").allTextContents()).join("").includes("8"));
  await cell("r1c1").click();
  await page.keyboard.press("Digit1");
  await page.click("#check");
  await page.waitForFunction(() => /wrong|mistakes/.test(document.querySelector("#message").textContent));
  const solution = await (await fetch(`${base}/api/solve`, { method: "POST", body: JSON.stringify({ puzzle: XWING }) })).json();
  const wrongExpected = solution.solution[0] !== "1";
  check("checking marks a wrong entry", (await cell("r1c1").evaluate(e => e.classList.contains("wrong"))) === wrongExpected);
  await page.click("#undo");
  check("undo clears the check's marks", (await page.locator(".cell.wrong").count()) === 0);

  // The whole explanation, step by step.
  await page.click("#explain");
  await page.waitForSelector("#steps li");
  const count = await page.locator("#steps li").count();
  check("the explanation lists its steps", count > 10, `${count}`);
  await page.click("#next");
  check("Next moves to step 2", (await page.locator("#where").textContent()).startsWith("step 2 of"));
  const xwing = page.locator("#steps li", { hasText: "X-Wing" });
  await xwing.first().click();
  check("an X-Wing step strikes its eliminations", (await page.locator(".marks span.elim").count()) > 0);
  check("and shades its cells", (await page.locator(".cell.focus").count()) >= 4);
  await page.screenshot({ path: join(shots, "explain.png") });

  // A technique list limits the logic: with singles only, no hint for the XY-Wing position.
  await page.goto(`${base}/?p=${XY_POSITION}`);
  await page.fill("#techniques", "singles");
  await page.click("#hint1");
  await page.waitForFunction(() => document.querySelector("#message").textContent.length > 0);
  check("a technique list limits the hints", (await status()) === "no technique in use applies here");
  await page.fill("#techniques", "all");

  // A chain step draws its links as arrows: strong solid, weak dashed.
  await page.goto(`${base}/?p=${XY_POSITION}`);
  await page.click("#hint3");
  await page.waitForFunction(() => document.querySelector("#message").textContent.startsWith("XY-Wing"));
  check("a chain's strong links are drawn solid", (await page.locator("#arrows path.strong").count()) === 3);
  check("and its weak links dashed", (await page.locator("#arrows path.weak").count()) === 2);
  await page.screenshot({ path: join(shots, "chain.png") });
  const [download] = await Promise.all([page.waitForEvent("download"), page.click("#picture")]);
  const saved = join(shots, "picture.svg");
  await download.saveAs(saved);
  const { readFileSync } = await import("node:fs");
  const svg = readFileSync(saved, "utf8");
  check("Save picture downloads the step's SVG, arrows included", svg.startsWith("<svg") && svg.includes("XY-Wing") && svg.includes('class="weak"'));

  // A group is met at its candidate nearest the other end: in (3)r7c9-(3)r9c789, the weak
  // link ends at r9c9's 3 (top right of the cell, in a 900-unit grid), not mid-group.
  await page.goto(`${base}/?p=${GROUPED}`);
  await page.fill("#techniques", "grouped-aic");
  await page.click("#hint3");
  await page.waitForFunction(() => document.querySelector("#message").textContent.startsWith("Grouped AIC"));
  const ends = await page.locator("#arrows path.weak").evaluateAll(paths =>
    paths.map(p => p.getAttribute("d").split(" ").pop().split(",").map(Number)));
  check("a group's arrow meets its nearest candidate", ends.some(([x, y]) => Math.hypot(x - 883.3, y - 816.7) < 13), JSON.stringify(ends));
  await page.fill("#techniques", "all");

  // Rating, pasting, dark mode.
  await page.fill("#paste", INKALA);
  await page.click("#load");
  check("a pasted puzzle loads", (await cell("r1c1").textContent()) === "8");
  check("and the address follows", page.url().endsWith(`?p=${INKALA}`));
  await page.click("#rate");
  await page.waitForFunction(() => document.querySelector("#message").textContent.startsWith("ER="), null, { timeout: 30000 });
  check("rating shows ER/EP/ED", (await status()).startsWith("ER=10.7/10.7/9.7 (diabolical)"));
  await page.click("#dark");
  check("dark mode", await page.evaluate(() => document.documentElement.classList.contains("dark")));
  await page.screenshot({ path: join(shots, "dark.png") });
  check("buttons are labelled for screen readers", (await page.locator("button").evaluateAll(
    bs => bs.every(b => (b.getAttribute("aria-label") || b.textContent).trim().length > 0))));
  check("no script errors", errors.length === 0, errors.join("; "));
} catch (e) {
  failures++;
  console.log(`FAIL ${e.stack}`);
} finally {
  await browser.close();
  server.kill("SIGTERM");
}
console.log(`${checks.length - failures} of ${checks.length} checks passed`);
process.exit(failures ? 1 : 0);
