/**
 * The read-only functions of issue 25 with the real Pulumi CLI against the emulator, in both modes
 * (programs/reads: an instance, then every new function; each mode on an emulator of its own, side
 * by side):
 * - the instance's generated password, read through getInstancePasswordsOutput with the instance's
 *   id, is the one the API lists; exported, it is a secret output: `pulumi stack output` hides it,
 *   `--show-secrets` shows it, and it appears in plain text nowhere else: not in `pulumi stack
 *   export` (without --show-secrets), not in the state file, not in what `up` printed; the same for
 *   the cost-estimate key pair's secret key (getPublicKeyOutput);
 * - the plain functions answer what the emulator answers (payment status, catalog rows);
 * - the requests the functions sent, in the emulator's request log.
 */
import * as path from "node:path";
import { startEmulator } from "../../emulator";
import { CATALOG_IDS } from "../../emulator/seeded-catalog";
import { discoverCatalog, type CatalogIds } from "./catalog-ids";
import { TestStack } from "./harness";
import { callApi, catalogConfig } from "./reliability/helpers";

jest.setTimeout(180_000);

const PROGRAM = path.join(__dirname, "programs", "reads");
const PUBLIC_SECRET_KEY = "restcloud-costestimate-public-secret-key";

let catalog: CatalogIds;

beforeAll(async () => {
  const scout = await startEmulator({ port: 0 });
  catalog = await discoverCatalog(scout.url);
  await scout.stop();
});

/** How many requests of an operation the emulator's request log holds. */
async function served(apiUrl: string, operation: string): Promise<number> {
  const response = await fetch(`${apiUrl}/_emulator/requests?operation=${encodeURIComponent(operation)}`);
  if (!response.ok) throw new Error(`GET /_emulator/requests: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { entries: unknown[] }).entries.length;
}

describe.each([["dynamic"], ["native"]])("the read-only functions in the %s mode", (mode) => {
  test("secret answers stay secret in the state, the outputs and the CLI's output; plain answers as the API's", async () => {
    const emulator = await startEmulator({ port: 0, asyncDelayMs: 20 });
    const stack = await TestStack.create({
      programDir: PROGRAM,
      stackName: `reads-${mode}`,
      config: {
        ...catalogConfig(emulator.url, catalog),
        ...(mode === "native" ? { "restcloud:mode": "native" } : {}),
        invoiceId: "",
        languageUuid: CATALOG_IDS.languages.de,
      },
    });
    try {
      // The payment reference of the demo account's first invoice, as the API lists it.
      const invoices = JSON.parse((await callApi(emulator.url, "GET", "/restapi/invoice/listByClient")).body) as {
        listInvoiceResponse: { referenceNumber: number; status: string }[];
      };
      const invoice = invoices.listInvoiceResponse[0]!;
      await stack.setConfig("invoiceId", String(invoice.referenceNumber));

      const up = await stack.up();
      expect(up.changes).toEqual({ create: 3 });
      const instanceId = up.outputs.instanceId as string;

      // The password the API generated, asked for directly.
      const listed = JSON.parse(
        (await callApi(emulator.url, "GET", `/restapi/instance/instancePasswordList?uuid=${instanceId}`)).body,
      ) as { listInstancePasswordResponse: { password: string }[] };
      const password = listed.listInstancePasswordResponse[0]!.password;
      expect(password).toMatch(/^\w{8,}$/);

      // The program could use it: the stack's outputs (decrypted by the Automation API) hold it, marked secret.
      const outputs = await stack.stack.outputs();
      expect(outputs.password).toEqual({ value: password, secret: true });
      expect(outputs.publicSecretKey).toEqual({ value: PUBLIC_SECRET_KEY, secret: true });
      expect(outputs.passwordCount?.secret).toBe(true);
      expect(outputs.paymentStatus).toEqual({ value: invoice.status, secret: false });

      // Nowhere in plain text: the state (export and file), `up`'s output, `stack output` without --show-secrets.
      const exported = await stack.cliOk(["stack", "export"]);
      const hidden = await stack.cliOk(["stack", "output", "--json"]);
      const shown = await stack.cliOk(["stack", "output", "--json", "--show-secrets"]);
      for (const [where, text] of Object.entries({
        "stack export": exported.stdout,
        "the state file": stack.stateFileText(),
        "up's stdout": up.stdout,
        "up's stderr": up.stderr,
        "stack output": hidden.stdout,
      })) {
        expect({ where, password: text.includes(password) }).toEqual({ where, password: false });
        expect({ where, publicSecretKey: text.includes(PUBLIC_SECRET_KEY) }).toEqual({ where, publicSecretKey: false });
      }
      expect(exported.stdout).toContain("4dabf18193072939515e22adb298388d");
      expect(JSON.parse(hidden.stdout)).toMatchObject({ password: "[secret]", publicSecretKey: "[secret]" });
      expect(JSON.parse(shown.stdout)).toMatchObject({ password, publicSecretKey: PUBLIC_SECRET_KEY });

      // The plain answers, as the emulator's catalog has them.
      const zone = emulator.context.catalog.zoneCatalog(catalog.zoneUuid)!;
      expect(up.outputs).toMatchObject({
        paymentIsPaid: invoice.status === "PAID",
        vmSchedulerCost: expect.any(Number),
        bandwidthCost: expect.any(Number),
        objectStorageCost: expect.any(Number),
        sfsOfferings: zone.sfsStorageOfferings.map((o) => o.name),
        supportPlans: emulator.context.catalog.supportPlans
          .filter((p) => p.categoryUuid === emulator.context.catalog.supportCategories[0]!.uuid)
          .map((p) => p.name),
        tax: `${zone.tax.taxName} ${zone.tax.taxPercentage}%`,
      });
      expect((up.outputs.serviceCategories as string[]).length).toBeGreaterThan(0);

      // Each function's operation reached the API (the emulator's request log).
      for (const operation of [
        "instancePasswordList",
        "getInvoicePaymentStatus",
        "getpublickey",
        "service-list",
        "vm-scheduler-cost",
        "bandwidth-cost",
        "object-storage-cost",
        "list-sfs-storage-offerings",
        "list-all-support-category",
        "list-all-support-plans",
        "tax",
      ]) {
        const count = await served(emulator.url, operation);
        expect({ operation, served: count > 0 }).toEqual({ operation, served: true });
      }

      const destroyed = await stack.destroy();
      expect(destroyed.changes).toEqual({ delete: 3 });
    } finally {
      await stack.dispose();
      await emulator.stop();
    }
  });
});
