/**
 * The functions of issue 25 against the emulator over HTTP: an instance's generated passwords (a
 * secret answer), an invoice's payment status, and the catalog rows (the cost-estimate key pair,
 * service categories, the prices the spec leaves "not shown", shared file storage, support, tax).
 * Each answer is compared with what the emulator answers to a plain HTTP request (or its seeded
 * catalog); who may call what is checked with each account's keys, and a 550 is explained.
 */
import * as pulumi from "@pulumi/pulumi";
import { startEmulator, type RunningEmulator } from "../../../emulator/index";
import type { Catalog, ZoneCatalog } from "../../../emulator/seeded-catalog";
import { RestCloudClient } from "../../../provider/client";
import * as restcloud from "../../../provider/functions";
import { FUNCTIONS, type InvokeOptions } from "../../../provider/functions";
import { invokeFunction } from "../../../provider/functions/define";
import { exampleCode, functionProgram } from "../../../provider/schema/examples";
import { currentModel } from "../../../provider/schema/generate";
import { packageSchema } from "../../../provider/schema/package-schema";

const DEMO = { apiKey: "demo-api-key", secretKey: "demo-secret-key" };
const ADMIN = { apiKey: "admin-api-key", secretKey: "admin-secret-key" };
const DEMO_EMAIL = "demo@restcloud.example";

let emulator: RunningEmulator;
let catalog: Catalog;
let frankfurt: ZoneCatalog;
let demo: InvokeOptions;
let admin: InvokeOptions;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, asyncDelayMs: 20 });
  catalog = emulator.context.catalog;
  frankfurt = catalog.zoneCatalog(catalog.zones.find((z) => z.name.startsWith("Frankfurt"))!.uuid)!;
  demo = { apiUrl: emulator.url, ...DEMO, zoneUuid: frankfurt.zone.uuid };
  admin = { apiUrl: emulator.url, ...ADMIN, zoneUuid: frankfurt.zone.uuid };
});
afterAll(() => emulator.stop());

/** A GET of the API with an account's keys: status and JSON body. */
async function get(path: string, keys: { apiKey: string; secretKey: string } = DEMO) {
  const response = await fetch(`${emulator.url}${path}`, {
    headers: { apikey: keys.apiKey, secretkey: keys.secretKey },
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function setFaultRules(rules: object[]): Promise<void> {
  const response = await fetch(`${emulator.url}/_emulator/faults`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ rules }),
  });
  if (!response.ok) throw new Error(`PUT /_emulator/faults: ${response.status} ${await response.text()}`);
}

/** An Output's value and secretness, outside a program. */
async function settle<T>(output: pulumi.Output<T>): Promise<{ value: T; secret: boolean }> {
  const value = await new Promise<T>((resolve) => output.apply((v) => resolve(v)));
  return { value, secret: await pulumi.isSecret(output) };
}

const NEW_FUNCTIONS = [
  "getInstancePasswords",
  "getInvoicePaymentStatus",
  "getPublicKey",
  "getServiceCategories",
  "getVmSchedulerCost",
  "getBandwidthCost",
  "getObjectStorageCost",
  "getSfsStorageOfferings",
  "getSupportCategories",
  "getSupportPlans",
  "getTax",
];

test("the new functions are registered; the secret ones declare their secret outputs", () => {
  const names = FUNCTIONS.map((f) => f.name);
  expect(names).toEqual(expect.arrayContaining(NEW_FUNCTIONS));
  const secret = Object.fromEntries(FUNCTIONS.filter((f) => f.secretOutputs).map((f) => [f.name, f.secretOutputs]));
  expect(secret).toEqual({ getInstancePasswords: ["passwords", "password"], getPublicKey: ["apiKey", "secretKey"] });
  // Only getHosts is an administrator's read (spec: "Host listing is typically an administrator-scoped read").
  expect(FUNCTIONS.filter((f) => f.adminOnly).map((f) => f.name)).toEqual(["getHosts"]);
});

describe("getInstancePasswords", () => {
  let instanceUuid: string;
  let expected: string;

  beforeAll(async () => {
    const client = new RestCloudClient({ apiUrl: emulator.url, ...DEMO });
    const zoneUuid = frankfurt.zone.uuid;
    const isolated = frankfurt.networkOfferings.find((o) => o.type === "Isolated")!;
    const plan = frankfurt.payAsYouGoOfferings.find((o) => !o.isCustom && o.core >= 2)!;
    const template = frankfurt.templates.find((t) => /ubuntu 24/i.test(t.name))!;
    const network = await client.network.create({ name: "pw-net", zoneUuid, networkOfferingUuid: isolated.uuid });
    const instance = await client.instance.create({
      name: "pw-vm",
      zoneUuid,
      templateUuid: template.uuid,
      computeOfferingUuid: plan.uuid,
      networkUuid: network.uuid,
    });
    instanceUuid = instance.uuid;
    const answer = await get(`/restapi/instance/instancePasswordList?uuid=${instanceUuid}`);
    expect(answer.status).toBe(200);
    const rows = answer.body.listInstancePasswordResponse as { password: string; name: string }[];
    expected = rows[0]!.password;
    expect(expected).toMatch(/^\w{8,}$/);
  });

  test("answers the generated password, as the API lists it", async () => {
    const result = await restcloud.getInstancePasswords({ instanceUuid }, demo);
    expect(result).toEqual({
      passwords: [{ password: expected, name: "pw-vm", uuid: instanceUuid, status: "Active" }],
      password: expected,
      instanceUuid,
    });
  });

  test("the Output form takes an Output argument and answers a secret Output (dynamic mode)", async () => {
    const { value, secret } = await settle(
      restcloud.getInstancePasswordsOutput({ instanceUuid: pulumi.output(Promise.resolve(instanceUuid)) }, demo),
    );
    expect(secret).toBe(true);
    expect(value.password).toBe(expected);
    // A function without secret outputs answers a plain Output.
    const zones = await settle(restcloud.getZones.output({}, demo));
    expect(zones.secret).toBe(false);
    expect(zones.value.zones.length).toBe(catalog.zones.length);
  });

  test("the native plugin's invoke answers it with the declared secret fields", async () => {
    const client = new RestCloudClient({ apiUrl: emulator.url, ...DEMO });
    const outcome = await invokeFunction(
      restcloud.getInstancePasswords.declaration as never,
      client,
      { instanceUuid },
      {},
    );
    expect(outcome).toEqual({ result: expect.objectContaining({ password: expected }) });
  });

  test("another account's instance is not found; an empty uuid is refused before any request", async () => {
    await expect(restcloud.getInstancePasswords({ instanceUuid }, admin)).rejects.toThrow(
      /restcloud\.getInstancePasswords: instancePasswordList failed: HTTP 404/,
    );
    await expect(restcloud.getInstancePasswords({ instanceUuid: " " }, demo)).rejects.toThrow(
      "restcloud.getInstancePasswords: invalid arguments: instanceUuid",
    );
  });
});

test("getInvoicePaymentStatus: each seeded invoice's status, by its payment reference", async () => {
  const seeded = catalog.invoicesFor(DEMO_EMAIL);
  for (const invoice of seeded) {
    const result = await restcloud.getInvoicePaymentStatus({ invoiceId: String(invoice.referenceNumber) }, demo);
    expect(result).toEqual({
      invoiceId: String(invoice.referenceNumber),
      invoiceNumber: String(invoice.invoiceNumber),
      clientEmail: DEMO_EMAIL,
      status: invoice.status,
      isPaid: invoice.status === "PAID",
    });
  }
  // The reference getInvoices answers works as the argument.
  const [listed] = (await restcloud.getInvoices({}, demo)).invoices;
  expect((await restcloud.getInvoicePaymentStatus({ invoiceId: String(listed!.referenceNumber) }, demo)).status).toBe(
    listed!.status,
  );
  await expect(restcloud.getInvoicePaymentStatus({ invoiceId: "999999999" }, demo)).rejects.toThrow(
    /restcloud\.getInvoicePaymentStatus: getInvoicePaymentStatus failed: HTTP 404/,
  );
});

test("getPublicKey: the pair the API answers without credentials, marked secret in the Output form", async () => {
  const plain = await get("/restapi/costestimate/getpublickey", { apiKey: "", secretKey: "" });
  expect(plain.status).toBe(200);
  expect(await restcloud.getPublicKey({}, demo)).toEqual(plain.body);
  const output = await settle(restcloud.getPublicKeyOutput({}, demo));
  expect(output).toEqual({ value: plain.body, secret: true });
});

test("getServiceCategories: each category with its resource kinds, in the language asked for", async () => {
  const { languages } = catalog;
  const english = await restcloud.getServiceCategories({ languageUuid: languages[0]!.uuid }, demo);
  const http = await get(`/restapi/costestimate/service-list?languageUuid=${languages[0]!.uuid}`);
  const expected = (http.body.serviceCategoryList as { uuid: string; name: string; resourceList: object[] }[]).map(
    (c) => ({ uuid: c.uuid, name: c.name, resources: c.resourceList }),
  );
  expect(english.categories).toEqual(expected);
  const german = await restcloud.getServiceCategories({ languageUuid: languages[1]!.uuid }, demo);
  expect(german.categories.map((c) => c.uuid)).toEqual(english.categories.map((c) => c.uuid));
  expect(german.categories.map((c) => c.name)).not.toEqual(english.categories.map((c) => c.name));
  await expect(restcloud.getServiceCategories({} as never, demo)).rejects.toThrow(
    "restcloud.getServiceCategories: invalid arguments: languageUuid",
  );
});

test("the prices the spec does not show: the typed price, the raw answer, the default zone", async () => {
  const zone = frankfurt.zone.uuid;
  const rows = {
    getVmSchedulerCost: ["vm-scheduler-cost", "vmSchedulerCost"],
    getBandwidthCost: ["bandwidth-cost", "bandwidthCost"],
    getObjectStorageCost: ["object-storage-cost", "objectStorageCost"],
  } as const;
  for (const [fn, [path, field]] of Object.entries(rows)) {
    const http = await get(`/restapi/costestimate/${path}?zoneUuid=${zone}`);
    expect(typeof http.body[field]).toBe("number");
    const result = await (restcloud[fn as keyof typeof rows] as (a: object, o: InvokeOptions) => Promise<object>)(
      {},
      demo,
    );
    expect({ fn, result }).toEqual({ fn, result: { zoneUuid: zone, [field]: http.body[field], raw: http.body } });
  }
  await expect(restcloud.getBandwidthCost({}, { ...demo, zoneUuid: undefined })).rejects.toThrow(
    /restcloud\.getBandwidthCost: zoneUuid is not given and no default zone is set/,
  );
});

test("getSfsStorageOfferings, getSupportCategories, getSupportPlans, getTax against the emulator's answers", async () => {
  const zone = frankfurt.zone.uuid;
  const sfs = await restcloud.getSfsStorageOfferings({}, demo);
  expect(sfs.offerings).toEqual(
    frankfurt.sfsStorageOfferings.map((o) => ({
      uuid: o.uuid,
      name: o.name,
      description: o.description,
      costPerGb: o.costForGb,
      minSizeGb: o.minSize,
      maxSizeGb: o.maxSize,
    })),
  );
  expect(sfs.raw).toEqual((await get(`/restapi/costestimate/list-sfs-storage-offerings?zoneUuid=${zone}`)).body);

  const { categories } = await restcloud.getSupportCategories(undefined, demo);
  expect(categories).toEqual(catalog.supportCategories.map((c) => ({ ...c })));
  const all = await restcloud.getSupportPlans({}, demo);
  expect(all.plans).toEqual(catalog.supportPlans.map((p) => ({ ...p })));
  const technical = await restcloud.getSupportPlans({ categoryUuid: categories[0]!.uuid }, demo);
  expect(technical.plans.map((p) => p.uuid)).toEqual(
    catalog.supportPlans.filter((p) => p.categoryUuid === categories[0]!.uuid).map((p) => p.uuid),
  );
  expect(technical.plans.length).toBeLessThan(all.plans.length);

  expect(await restcloud.getTax({}, demo)).toEqual({
    zoneUuid: zone,
    taxName: frankfurt.tax.taxName,
    taxPercentage: frankfurt.tax.taxPercentage,
    raw: { ...frankfurt.tax },
  });
});

test("who may call them: a regular account and an administrator alike, as the emulator answers over HTTP", async () => {
  const zone = frankfurt.zone.uuid;
  const paths = [
    "/restapi/costestimate/getpublickey",
    "/restapi/costestimate/service-list?languageUuid=x",
    `/restapi/costestimate/vm-scheduler-cost?zoneUuid=${zone}`,
    `/restapi/costestimate/bandwidth-cost?zoneUuid=${zone}`,
    `/restapi/costestimate/object-storage-cost?zoneUuid=${zone}`,
    `/restapi/costestimate/list-sfs-storage-offerings?zoneUuid=${zone}`,
    "/restapi/costestimate/list-all-support-category",
    "/restapi/costestimate/list-all-support-plans",
    `/restapi/costestimate/tax?zoneUuid=${zone}`,
  ];
  for (const path of paths) {
    expect({ path, demo: (await get(path, DEMO)).status, admin: (await get(path, ADMIN)).status }).toEqual({
      path,
      demo: 200,
      admin: 200,
    });
  }
  // The one administrator's read of the package, for contrast.
  expect((await get("/restapi/host/hostList", DEMO)).status).toBe(550);
});

test("a 550 (valid keys, no right) fails saying so, naming the function", async () => {
  await setFaultRules([{ operation: "tax", effect: "status", status: 550, when: "before" }]);
  try {
    await expect(restcloud.getTax({}, demo)).rejects.toThrow(
      /^restcloud\.getTax: tax failed: HTTP 550 \w+: permission denied: the account whose keys the call uses may not do this/,
    );
  } finally {
    await setFaultRules([]);
  }
});

test("schema.json marks the secret outputs; each language's doc example exports them as secrets", () => {
  const model = currentModel();
  const schema = packageSchema(model) as {
    functions: Record<string, { outputs: { properties: Record<string, { secret?: boolean }> } }>;
  };
  const secretOf = (fn: string) =>
    Object.entries(schema.functions[`restcloud:index:${fn}`]!.outputs.properties)
      .filter(([, p]) => p.secret)
      .map(([name]) => name)
      .sort();
  expect(secretOf("getInstancePasswords")).toEqual(["password", "passwords"]);
  expect(secretOf("getPublicKey")).toEqual(["apiKey", "secretKey"]);
  expect(secretOf("getTax")).toEqual([]);
  const passwords = model.functions.find((f) => f.name === "getInstancePasswords")!;
  const code = exampleCode(model, functionProgram(passwords));
  expect(code.typescript).toContain("passwords: pulumi.secret(result.passwords)");
  expect(code.python).toContain('pulumi.export("passwords", pulumi.Output.secret(result.passwords))');
  expect(code.go).toContain('ctx.Export("passwords", pulumi.ToSecret(result.Passwords))');
  expect(code.yaml).toContain("fn::secret: ${result.passwords}");
});
