/**
 * The emulator's console (GET /_emulator/) in a real browser: headless Chromium (Debian's package,
 * /usr/bin/chromium, installed by scripts/install-browser.sh, which `npm run test:e2e` runs), driven by
 * playwright-core, watches a Pulumi program deploy a VPC, a tier and two instances, and the test
 * checks what a person would see: the rows appear with their states, the instances reach Running,
 * the request log shows the calls, a fault changed through the form takes effect, a click shows a
 * record's JSON (with no credential in it); then reset empties the page and a saved snapshot, loaded
 * back, restores it. A screenshot is left in tests/e2e/console/output/console.png.
 *
 * Never skipped: without Chromium the test fails, saying how to install it.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { DEMO_CREDENTIALS, startEmulator, type RunningEmulator } from "../../../emulator";
import { INSTANCES } from "../../../emulator/model/collections";
import { discoverCatalog, providerConfig } from "../catalog-ids";
import type { UpResult } from "@pulumi/pulumi/automation";
import { TestStack } from "../harness";

jest.setTimeout(120_000);

const CHROMIUM = process.env.RESTCLOUD_CHROMIUM || "/usr/bin/chromium";
const OUTPUT = path.join(__dirname, "output");
const SCREENSHOT = path.join(OUTPUT, "console.png");
/** Long enough for a person (and the page's one-second polling) to see an instance Starting. */
const ASYNC_DELAY_MS = 800;

interface Row {
  uuid: string;
  name: string;
  state: string;
}
interface LogRow {
  operation: string;
  status: string;
  fault: string;
}

/** Polls `probe` until it returns something other than undefined or false. */
async function until<T>(what: string, probe: () => Promise<T | undefined | false>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined && value !== false) return value;
      last = value;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what} (last: ${last})`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The rows of one kind's table, as the page shows them (read in one go, between two renders). */
const rowsOf = (page: Page, kind: string): Promise<Row[]> =>
  page.evaluate(
    `Array.from(document.querySelectorAll('#resources table[data-kind="${kind}"] tbody tr')).map((tr) => ({
      uuid: tr.getAttribute("data-uuid"),
      name: tr.querySelector("td.name").textContent,
      state: tr.querySelector("td.state-cell").getAttribute("data-state"),
    }))`,
  );

/** The request log's rows, newest first. */
const logRows = (page: Page): Promise<LogRow[]> =>
  page.evaluate(
    `Array.from(document.querySelectorAll("#request-log-body tr[data-seq]")).map((tr) => ({
      operation: tr.getAttribute("data-operation"),
      status: tr.getAttribute("data-status"),
      fault: tr.querySelector("td.fault").textContent,
    }))`,
  );

const text = async (page: Page, selector: string): Promise<string> =>
  ((await page.locator(selector).textContent()) ?? "").trim();

describe("the emulator's console in a real browser", () => {
  let emulator: RunningEmulator;
  let stack: TestStack;
  let browser: Browser;
  let page: Page;
  let zoneUuid: string;
  const pageErrors: string[] = [];
  const cleanups: (() => void)[] = [];
  /** Stops a deployment still running when the test ends early (a failed assertion), so that jest can exit. */
  const deployment = new AbortController();
  let up: Promise<UpResult> | undefined;

  beforeAll(async () => {
    if (!fs.existsSync(CHROMIUM)) {
      throw new Error(
        `Chromium is missing (${CHROMIUM}): run 'bash scripts/install-browser.sh' (npm run test:e2e does), ` +
          "or set RESTCLOUD_CHROMIUM to a Chromium binary",
      );
    }
    fs.mkdirSync(OUTPUT, { recursive: true });
    emulator = await startEmulator({ port: 0, asyncDelayMs: ASYNC_DELAY_MS });
    const { zoneUuid: zone, ...ids } = await discoverCatalog(emulator.url);
    zoneUuid = zone;
    stack = await TestStack.create({
      programDir: path.join(__dirname, "program"),
      config: { ...providerConfig(emulator.url, zoneUuid), ...ids },
    });
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true });
    const context = await browser.newContext({ viewport: { width: 1440, height: 1000 }, acceptDownloads: true });
    page = await context.newPage();
    page.setDefaultTimeout(10_000);
    page.on("pageerror", (err) => pageErrors.push(err.message));
    // Every request the page makes succeeds (a 404 or 400 of a control endpoint shows up here).
    page.on("response", (response) => {
      if (response.status() >= 400)
        pageErrors.push(`${response.status()} ${response.request().method()} ${response.url()}`);
    });
    page.on("console", (message) => {
      if (message.type() === "error" && !message.text().startsWith("Failed to load resource")) {
        pageErrors.push(message.text());
      }
    });
  });

  afterAll(async () => {
    deployment.abort();
    await up?.catch(() => undefined);
    await browser?.close();
    await stack?.dispose();
    await emulator?.stop();
    for (const cleanup of cleanups) cleanup();
  });

  /** A call of the demo account, timed; `/restapi` calls are the ones faults apply to. */
  async function timedVpcList(): Promise<{ status: number; ms: number }> {
    const started = Date.now();
    const response = await fetch(`${emulator.url}/restapi/vpc/vpcList?zoneUuid=${zoneUuid}`, {
      headers: { apikey: DEMO_CREDENTIALS.apiKey, secretkey: DEMO_CREDENTIALS.secretKey },
    });
    await response.arrayBuffer();
    return { status: response.status, ms: Date.now() - started };
  }

  async function setFaultThroughForm(field: string, value: string): Promise<void> {
    await page.locator(`#faults-form input[name="${field}"]`).fill(value);
    await page.getByRole("button", { name: "Apply" }).click();
    await until(`the console to show ${field} = ${value}`, async () =>
      (await text(page, `#faults-current dd[data-field="${field}"]`)) === value ? true : undefined,
    );
    expect(await text(page, "#faults-status")).toBe("Applied.");
    const settings = (await (await fetch(`${emulator.url}/_emulator/faults`)).json()) as Record<string, unknown>;
    expect(settings[field]).toBe(Number(value));
  }

  test("watches a deployment: rows and states appear, a fault change takes effect, the calls are logged", async () => {
    const started = Date.now();
    const response = await page.goto(`${emulator.url}/_emulator`);
    expect(response?.status()).toBe(200);
    expect(page.url()).toBe(`${emulator.url}/_emulator/`); // the redirect
    expect(await page.title()).toBe("RestCloud emulator console");
    await until("the console to reach the emulator", async () =>
      (await page.locator("#health").getAttribute("data-health")) === "ok" ? true : undefined,
    );
    const accounts = await page.locator("#accounts button").allTextContents();
    expect(accounts.join(" ")).toMatch(/demo/);
    expect(accounts.join(" ")).toMatch(/admin/);
    expect(await text(page, "#resources")).toBe("No resources in this account.");

    // The deployment runs while the page is watched (it is awaited further down).
    up = stack.stack.up({ color: "never", signal: deployment.signal });
    up.catch(() => undefined); // awaited below; no unhandled rejection meanwhile

    const vpc = await until("the VPC's row", async () => (await rowsOf(page, "vpc"))[0]);
    expect(await page.locator('#resources table[data-kind="vpc"] caption').textContent()).toMatch(/^vpc\s+1$/);
    expect(vpc.state).not.toBe("");

    // A fault change through the form, during the deployment: 150 ms of latency on every API call.
    await setFaultThroughForm("latencyMs", "150");
    expect((await timedVpcList()).ms).toBeGreaterThanOrEqual(150);
    await setFaultThroughForm("latencyMs", "0");

    // The instances appear, and each reaches Running; every state the page showed is kept.
    // The first time an instance shows Starting, a picture of the page mid-deployment.
    const seen: Record<string, string[]> = {};
    let pendingShown = 0;
    let midDeployment = false;
    const running = await until(
      "both instances Running",
      async () => {
        const rows = await rowsOf(page, "instance");
        for (const row of rows) {
          const states = (seen[`${row.name} ${row.uuid}`] ??= []);
          if (states[states.length - 1] !== row.state) states.push(row.state);
        }
        pendingShown = Math.max(pendingShown, await page.locator("#jobs-list li").count());
        if (!midDeployment && rows.some((r) => r.state === "Starting")) {
          midDeployment = true;
          await page.screenshot({ path: path.join(OUTPUT, "console-deploying.png"), fullPage: true });
        }
        return rows.length === 2 && rows.every((r) => r.state === "Running") ? rows : undefined;
      },
      45_000,
    );
    expect(running.map((r) => r.name).sort()).toEqual(["web-1", "web-2"]);
    for (const states of Object.values(seen)) {
      expect(states[states.length - 1]).toBe("Running");
      expect(states.every((s) => ["Starting", "Running"].includes(s))).toBe(true);
    }
    console.log(
      `instance states the page showed: ${JSON.stringify(seen)}; most pending work listed at once: ${pendingShown}`,
    );
    const tier = (await rowsOf(page, "network")).find((r) => r.name.includes("tier"));
    expect(tier?.state).toBeTruthy();

    // The request log shows the deployment's calls.
    const logged = await until("the calls in the request log", async () => {
      const rows = await logRows(page);
      const ops = new Set(rows.map((r) => r.operation));
      return ["createVpc", "createVpcNetwork", "createInstance"].every((op) => ops.has(op)) ? rows : undefined;
    });
    expect(logged.filter((r) => r.operation === "createInstance").map((r) => r.status)).toEqual(["200", "200"]);

    const result = await up;
    expect(result.summary.result).toBe("succeeded");
    expect([...(result.outputs.instanceIds.value as string[])].sort()).toEqual(running.map((r) => r.uuid).sort());

    // A failure rate of 1 through the form: the next call fails, and the log shows it as a fault.
    await setFaultThroughForm("failRate", "1");
    expect((await timedVpcList()).status).toBe(503);
    await until("the failed call in the request log", async () =>
      (await logRows(page)).find((r) => r.operation === "vpcList" && r.status === "503" && r.fault !== ""),
    );
    await setFaultThroughForm("failRate", "0");
    expect((await timedVpcList()).status).toBe(200);

    // A click shows a record's JSON; credentials are masked.
    await page.locator(`#resources tr[data-uuid="${vpc.uuid}"]`).click();
    await until("the VPC's JSON", async () =>
      (await text(page, "#record-json")).includes("10.30.0.0/16") ? true : undefined,
    );
    expect(JSON.parse(await text(page, "#record-json")).uuid).toBe(vpc.uuid);
    const web1 = running.find((r) => r.name === "web-1")!;
    await page.locator(`#resources tr[data-uuid="${web1.uuid}"]`).click();
    const instanceJson = JSON.parse(await text(page, "#record-json")) as Record<string, unknown>;
    expect(instanceJson).toMatchObject({ uuid: web1.uuid, displayName: "web-1", state: "Running" });
    const password = emulator.scope("demo").internal(INSTANCES)[web1.uuid]?.password;
    expect(typeof password).toBe("string");
    const html = await page.content();
    for (const secret of [password as string, DEMO_CREDENTIALS.apiKey, DEMO_CREDENTIALS.secretKey]) {
      expect(html).not.toContain(secret);
    }
    expect(await page.locator('#resources tr[aria-selected="true"]').getAttribute("data-uuid")).toBe(web1.uuid);

    await page.screenshot({ path: SCREENSHOT, fullPage: true });
    expect(pageErrors).toEqual([]);
    console.log(`deployment watched in ${Date.now() - started} ms; screenshot: ${SCREENSHOT}`);
  });

  test("reset empties the page; a snapshot saved before and loaded after brings everything back", async () => {
    const before = await rowsOf(page, "instance");
    expect(before).toHaveLength(2);

    const [download] = await Promise.all([page.waitForEvent("download"), page.locator("#snapshot-save").click()]);
    const snapshotDir = fs.mkdtempSync(path.join(os.tmpdir(), "restcloud-console-"));
    cleanups.push(() => fs.rmSync(snapshotDir, { recursive: true, force: true }));
    const snapshot = path.join(snapshotDir, download.suggestedFilename());
    await download.saveAs(snapshot);
    expect(download.suggestedFilename()).toMatch(/^restcloud-emulator-.*\.json$/);
    expect(() => JSON.parse(fs.readFileSync(snapshot, "utf8"))).not.toThrow();

    page.once("dialog", (dialog) => void dialog.accept());
    await page.locator("#reset").click();
    await until("an empty account", async () =>
      (await text(page, "#resources")) === "No resources in this account." ? true : undefined,
    );
    expect(await text(page, "#control-status")).toMatch(/^Reset/);

    await page.locator("#snapshot-file").setInputFiles(snapshot);
    await until("the snapshot loaded", async () => /loaded/.test(await text(page, "#control-status")));
    const after = await until("the instances back", async () => {
      const rows = await rowsOf(page, "instance");
      return rows.length === 2 ? rows : undefined;
    });
    expect(after.map((r) => [r.uuid, r.state]).sort()).toEqual(before.map((r) => [r.uuid, r.state]).sort());
    expect(pageErrors).toEqual([]);
  });
});
