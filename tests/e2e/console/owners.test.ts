/**
 * The console's owners in a real browser (headless Chromium, as tests/e2e/console/console.test.ts;
 * no Pulumi program: the records are made through the REST API with the demo account's keys, some
 * tagged `pulumi-owner` with a full or a shortened URN, others not): each row of a taggable kind shows
 * its owner (logical name, stack, project) or "no owner", derived records show the record they belong
 * to, the other kinds "not taggable"; the panel "Records no stack owns" lists the unowned records by
 * kind with their parent, and follows the tags as they change. A screenshot is left in
 * tests/e2e/console/output/owners.png.
 *
 * Never skipped: without Chromium the test fails, saying how to install it.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { startEmulator, type RunningEmulator } from "../../../emulator";
import { request } from "../../integration/emulator/helpers";
import { buildScenario, OWNER_KEY, tag, type Scenario } from "../../integration/console/owners-scenario";

jest.setTimeout(60_000);

const CHROMIUM = process.env.RESTCLOUD_CHROMIUM || "/usr/bin/chromium";
const OUTPUT = path.join(__dirname, "output");

interface OwnerCell {
  ownership: string | null;
  stack: string | null;
  project: string | null;
  name: string | null;
  shortened: string | null;
  text: string;
}
interface UnownedRow {
  uuid: string;
  name: string;
  parent: string;
}

async function until<T>(what: string, probe: () => Promise<T | undefined | false>, timeoutMs = 10_000): Promise<T> {
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

/** The Owner cell of a record's row in its kind's table, as the page shows it. */
const ownerOf = (page: Page, kind: string, uuid: string): Promise<OwnerCell | null> =>
  page.evaluate(
    `(() => {
      const td = document.querySelector('#resources table[data-kind="${kind}"] tr[data-uuid="${uuid}"] td.owner');
      if (!td) return null;
      return {
        ownership: td.getAttribute("data-ownership"),
        stack: td.getAttribute("data-stack"),
        project: td.getAttribute("data-project"),
        name: td.getAttribute("data-name"),
        shortened: td.getAttribute("data-shortened"),
        text: td.innerText.replace(/\\s+/g, " ").trim(),
      };
    })()`,
  );

/** The panel "Records no stack owns": kind to rows, in the page's order. */
const unownedShown = (page: Page): Promise<Record<string, UnownedRow[]>> =>
  page.evaluate(
    `Object.fromEntries(Array.from(document.querySelectorAll("#unowned table[data-unowned-kind]")).map((table) => [
      table.getAttribute("data-unowned-kind"),
      Array.from(table.querySelectorAll("tbody tr")).map((tr) => ({
        uuid: tr.getAttribute("data-uuid"),
        name: tr.querySelector("td.name").textContent,
        parent: tr.querySelector("td.parent").textContent,
      })),
    ]))`,
  );

const text = async (page: Page, selector: string): Promise<string> =>
  ((await page.locator(selector).textContent()) ?? "").replace(/\s+/g, " ").trim();

describe("the console shows who owns each record", () => {
  let emulator: RunningEmulator;
  let browser: Browser;
  let page: Page;
  let world: Scenario;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    if (!fs.existsSync(CHROMIUM)) {
      throw new Error(
        `Chromium is missing (${CHROMIUM}): run 'bash scripts/install-browser.sh' (npm run test:e2e does), ` +
          "or set RESTCLOUD_CHROMIUM to a Chromium binary",
      );
    }
    fs.mkdirSync(OUTPUT, { recursive: true });
    emulator = await startEmulator({ port: 0, asyncDelayMs: 30 });
    world = await buildScenario(emulator);
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true });
    page = await (await browser.newContext({ viewport: { width: 1440, height: 1000 } })).newPage();
    page.setDefaultTimeout(10_000);
    page.on("pageerror", (err) => pageErrors.push(err.message));
    page.on("response", (response) => {
      if (response.status() >= 400)
        pageErrors.push(`${response.status()} ${response.request().method()} ${response.url()}`);
    });
  });

  afterAll(async () => {
    await browser?.close();
    await emulator?.stop();
  });

  test("each row shows its owner, no owner, its parent or not taggable; unowned records are listed by kind", async () => {
    await page.goto(`${emulator.url}/_emulator/#account=demo`);
    await until("the owners shown", async () => (await ownerOf(page, "vpc", world.vpc.uuid))?.ownership === "owned");

    // Owned: logical name, stack and project, from the full URN.
    expect(await ownerOf(page, "vpc", world.vpc.uuid)).toEqual({
      ownership: "owned",
      stack: "dev",
      project: "shop",
      name: "net",
      shortened: "false",
      text: "net stack dev · project shop",
    });
    expect(await ownerOf(page, "instance", world.web1.uuid)).toMatchObject({
      stack: "app-1",
      name: "web-1",
      text: "web-1 stack app-1 · project shop",
    });
    expect(await ownerOf(page, "network", world.backend.uuid)).toMatchObject({ stack: "app-1", name: "backend" });
    // A shortened URN: stack and project, the name unknown.
    expect(await ownerOf(page, "ipaddress", world.ownedIp.uuid)).toEqual({
      ownership: "owned",
      stack: "app-1",
      project: "shop",
      name: null,
      shortened: "true",
      text: "name not in the shortened URN stack app-1 · project shop",
    });
    expect(
      await page
        .locator(`#resources table[data-kind="ipaddress"] tr[data-uuid="${world.ownedIp.uuid}"] td.owner`)
        .getAttribute("title"),
    ).toBe(world.shortenedValue);

    // No owner.
    for (const [kind, uuid] of [
      ["network", world.tier.uuid],
      ["network", world.k8sNet.uuid],
      ["volume", world.scratch.uuid],
      ["ipaddress", world.looseIp.uuid],
      ["firewallrule", world.looseRule.uuid],
    ]) {
      expect(await ownerOf(page, kind, uuid)).toMatchObject({ ownership: "unowned", text: "no owner" });
    }
    // Derived: the parent's.
    expect(await ownerOf(page, "volume", world.rootOfWeb1.uuid)).toMatchObject({
      ownership: "derived",
      text: "belongs to instance web-1",
    });
    expect(await ownerOf(page, "volume", world.dataOfWeb1.uuid)).toMatchObject({
      text: "belongs to instance web-1",
    });
    for (const node of world.nodes) {
      expect(await ownerOf(page, "instance", node.uuid)).toMatchObject({
        ownership: "derived",
        text: "belongs to cluster kube",
      });
    }
    // Not taggable.
    for (const [kind, uuid] of [
      ["egressrule", world.egress.uuid],
      ["securitygroup", world.securityGroup.uuid],
      ["cluster", world.cluster.uuid],
    ]) {
      expect(await ownerOf(page, kind, uuid)).toMatchObject({ ownership: "not-taggable", text: "not taggable" });
    }

    // The panel: by kind, with name, uuid and parent.
    expect(await text(page, "#unowned-heading")).toBe("Records no stack owns 5");
    expect(await unownedShown(page)).toEqual({
      network: [
        { uuid: world.k8sNet.uuid, name: "k8s-net", parent: "" },
        { uuid: world.tier.uuid, name: "web-tier", parent: "vpc net" },
      ],
      volume: [{ uuid: world.scratch.uuid, name: "scratch", parent: "" }],
      ipaddress: [{ uuid: world.looseIp.uuid, name: world.looseIp.publicIpAddress, parent: "network backend" }],
      firewallrule: [
        { uuid: world.looseRule.uuid, name: "TCP 443", parent: `ipaddress ${world.looseIp.publicIpAddress}` },
      ],
    });

    // A click on a listed record shows it.
    await page.locator(`#unowned tr[data-uuid="${world.tier.uuid}"]`).click();
    await until("the tier's JSON", async () => (await text(page, "#record-json")).includes(world.tier.uuid));
    expect(JSON.parse((await page.locator("#record-json").textContent()) ?? "")).toMatchObject({ name: "web-tier" });

    await page.screenshot({ path: path.join(OUTPUT, "owners.png"), fullPage: true });
    expect(pageErrors).toEqual([]);
  });

  test("a claim through the API takes a record off the list; a deleted claim puts it back", async () => {
    const claim = await tag(
      emulator,
      "Volume",
      world.scratch.uuid,
      OWNER_KEY,
      "urn:pulumi:ci::shop::restcloud:index:Volume::scratch",
    );
    await until("scratch owned", async () => (await ownerOf(page, "volume", world.scratch.uuid))?.stack === "ci");
    expect(await ownerOf(page, "volume", world.scratch.uuid)).toMatchObject({
      name: "scratch",
      text: "scratch stack ci · project shop",
    });
    expect(await text(page, "#unowned-count")).toBe("4");
    expect(Object.keys(await unownedShown(page))).toEqual(["network", "ipaddress", "firewallrule"]);

    expect((await request(emulator, "DELETE", `/restapi/resourcetags/deleteResourceTag/${claim.uuid}`)).status).toBe(
      200,
    );
    await until("scratch unowned again", async () => (await text(page, "#unowned-count")) === "5");
    expect((await unownedShown(page)).volume).toEqual([{ uuid: world.scratch.uuid, name: "scratch", parent: "" }]);

    // Another account: nothing to list.
    await page.locator('#accounts button[data-account="admin"]').click();
    await until("admin's empty panel", async () => (await text(page, "#unowned")) === "No records.");
    expect(await text(page, "#unowned-count")).toBe("0");
    expect(pageErrors).toEqual([]);
  });
});
