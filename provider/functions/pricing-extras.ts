// The look-ups of the cost-estimate rows no resource is priced by (key pair, service categories, unshown unit prices,
// SFS, support, tax): where the spec shows no answer, every field is optional and the whole answer is also `raw`.
import { z } from "zod";
import type { RestCloudClient } from "../client";
import { recordId, integerField, numberField, stringField, record } from "../client/schema";
import { defineFunction } from "./define";
import { inputs, out } from "./fields";

/** The whole answer, for `raw`: an object as it came, anything else as `{ value }`. */
const rawOf = (answer: unknown): Record<string, unknown> =>
  answer !== null && typeof answer === "object" && !Array.isArray(answer)
    ? (answer as Record<string, unknown>)
    : { value: answer };

const raw = z
  .record(z.string(), z.unknown())
  .describe(
    "The API's answer as it came (the spec does not show this call's answer): for fields a deployment adds " +
      "beyond the typed ones.",
  );

/**
 * The records of a list answer: under `key` (the emulator's envelope key), else under the first key
 * holding an array, else the answer itself when it is an array; each parsed tolerantly.
 */
function rowsOf<T extends z.ZodType>(answer: unknown, key: string, row: T): z.output<T>[] {
  let rows: unknown = undefined;
  if (Array.isArray(answer)) rows = answer;
  else if (answer !== null && typeof answer === "object") {
    const object = answer as Record<string, unknown>;
    rows = Array.isArray(object[key]) ? object[key] : Object.values(object).find(Array.isArray);
  }
  return (Array.isArray(rows) ? rows : []).flatMap((item) => {
    const parsed = row.safeParse(item);
    return parsed.success ? [parsed.data as z.output<T>] : [];
  });
}

/** One field of an object answer, tolerantly: a number, or a number in a string. */
const numberIn = (answer: unknown, key: string): number | undefined => {
  const parsed = numberField.safeParse(rawOf(answer)[key]);
  return parsed.success ? parsed.data : undefined;
};

// ---- the cost-estimate key pair ------------------------------------------------------------------

export const getPublicKey = defineFunction({
  name: "getPublicKey",
  description:
    "The key pair the cost-estimate catalog answers (the API's Get Public Key, which needs no credentials; the " +
    "spec calls it the public key pair used to sign cost-estimate requests). Despite the name both values are " +
    "secret: the answer is marked secret.",
  inputs: z.object({}),
  secretOutputs: ["apiKey", "secretKey"],
  outputs: z.object({
    apiKey: out.text("The pair's API key (secret)."),
    secretKey: out.text("The pair's secret key (secret)."),
  }),
  invoke: async (client) => {
    const pair = await client.costEstimate.publicKey();
    return { apiKey: pair.apiKey, secretKey: pair.secretKey };
  },
});

// ---- service categories --------------------------------------------------------------------------

export const getServiceCategories = defineFunction({
  name: "getServiceCategories",
  description:
    "The service categories of the catalog (compute, storage, network...), each with the kinds of resources " +
    "it covers, named in a language.",
  inputs: z.object({
    languageUuid: z
      .string()
      .trim()
      .min(1, "must not be empty")
      .describe(
        "The language the names are in (a language's uuid; the API requires one, the spec does not say where " +
          "languages are listed).",
      ),
  }),
  outputs: z.object({
    categories: out.list(
      z.object({
        uuid: out.uuid("service category"),
        name: out.name("service category"),
        resources: z
          .array(
            z.object({
              key: out.text('The resource kind\'s key (e.g. "INSTANCE").'),
              name: out.text("The resource kind's name, in the language asked for."),
            }),
          )
          .describe("The kinds of resources the category covers (the spec does not show these fields)."),
      }),
      "The categories, in the API's order.",
    ),
  }),
  invoke: async (client, args) => ({
    categories: (await client.costEstimate.serviceCategories({ languageUuid: args.languageUuid })).map((c) => ({
      uuid: c.uuid,
      name: c.name ?? "",
      resources: rowsOf(c.resourceList ?? [], "", record({ key: stringField, name: stringField })).map((r) => ({
        key: r.key,
        name: r.name,
      })),
    })),
  }),
});

// ---- prices of features no resource creates -------------------------------------------------------

/** A price row the spec leaves "not shown": asked with the zone, answered as `{<field>: N}` by the emulator. */
function unshownPrice<F extends "vmSchedulerCost" | "bandwidthCost" | "objectStorageCost">(options: {
  name: string;
  field: F;
  what: string;
  /** The thing priced, short: "VM schedule". */
  short: string;
  unit: string;
  call: (client: RestCloudClient, zoneUuid: string) => Promise<unknown>;
}) {
  const shape = {
    zoneUuid: z.string().describe("The zone the price is for."),
    [options.field]: out.number(`The price, ${options.unit}; absent when the answer has no such number.`),
    raw,
  } as { zoneUuid: z.ZodString; raw: typeof raw } & Record<F, z.ZodOptional<z.ZodNumber>>;
  return defineFunction({
    name: options.name,
    description:
      `The price of ${options.what} in a zone. The spec does not show this call's parameters or answer: the ` +
      `zone is sent as \`zoneUuid\`, and the price read from \`${options.field}\` (also in \`raw\`).`,
    inputs: z.object({ zoneUuid: inputs.zoneUuid(`${options.short} price`) }),
    zoneDefault: "zoneUuid",
    outputs: z.object(shape),
    invoke: async (client, { zoneUuid }) => {
      const answer = await options.call(client, zoneUuid);
      return { zoneUuid, [options.field]: numberIn(answer, options.field), raw: rawOf(answer) } as never;
    },
  });
}

export const getVmSchedulerCost = unshownPrice({
  name: "getVmSchedulerCost",
  field: "vmSchedulerCost",
  what: "a VM schedule (scheduled start and stop of instances)",
  short: "VM schedule",
  unit: "per schedule and month in the emulator",
  call: (client, zoneUuid) => client.costEstimate.vmSchedulerCost({ zoneUuid }),
});

export const getBandwidthCost = unshownPrice({
  name: "getBandwidthCost",
  field: "bandwidthCost",
  what: "bandwidth",
  short: "bandwidth",
  unit: "per GB beyond the free allowance in the emulator",
  call: (client, zoneUuid) => client.costEstimate.bandwidthCost({ zoneUuid }),
});

export const getObjectStorageCost = unshownPrice({
  name: "getObjectStorageCost",
  field: "objectStorageCost",
  what: "object storage",
  short: "object storage",
  unit: "per GB and month in the emulator",
  call: (client, zoneUuid) => client.costEstimate.objectStorageCost({ zoneUuid }),
});

// ---- shared file storage -------------------------------------------------------------------------

const sfsOfferingRow = record({
  uuid: recordId,
  name: stringField,
  description: stringField,
  costForGb: numberField,
  minSize: integerField,
  maxSize: integerField,
});

export const getSfsStorageOfferings = defineFunction({
  name: "getSfsStorageOfferings",
  description:
    "The shared file storage (SFS, NFS) offerings of a zone, with their price per GB and size limits. The spec " +
    "does not show this call's parameters or answer: the zone is sent as `zoneUuid`, the offerings read from " +
    "`listSfsStorageOffering` (else the answer's first list).",
  inputs: z.object({ zoneUuid: inputs.zoneUuid("shared file storage offerings") }),
  zoneDefault: "zoneUuid",
  outputs: z.object({
    offerings: out.list(
      z.object({
        uuid: out.uuid("offering"),
        name: out.text("The offering's name."),
        description: out.text("What the offering is."),
        costPerGb: out.number("Price per GB (per GB and month in the emulator)."),
        minSizeGb: out.number("The smallest share, in GB."),
        maxSizeGb: out.number("The largest share, in GB."),
      }),
      "The offerings, in the API's order.",
    ),
    raw,
  }),
  invoke: async (client, { zoneUuid }) => {
    const answer = await client.costEstimate.sfsStorageOfferings({ zoneUuid });
    return {
      offerings: rowsOf(answer, "listSfsStorageOffering", sfsOfferingRow).map((o) => ({
        uuid: o.uuid,
        name: o.name,
        description: o.description,
        costPerGb: o.costForGb,
        minSizeGb: o.minSize,
        maxSizeGb: o.maxSize,
      })),
      raw: rawOf(answer),
    };
  },
});

// ---- support -------------------------------------------------------------------------------------

const supportCategoryRow = record({ uuid: recordId, name: stringField, description: stringField });
const supportPlanRow = record({
  uuid: recordId,
  categoryUuid: stringField,
  name: stringField,
  description: stringField,
  responseTimeHours: numberField,
  cost: numberField,
});

export const getSupportCategories = defineFunction({
  name: "getSupportCategories",
  description:
    "The support categories (e.g. technical, billing). The spec does not show this call's answer: the " +
    "categories are read from `listSupportCategory` (else the answer's first list).",
  inputs: z.object({}),
  outputs: z.object({
    categories: out.list(
      z.object({
        uuid: out.uuid("support category"),
        name: out.text("The category's name."),
        description: out.text("What the category covers."),
      }),
      "The categories, in the API's order.",
    ),
    raw,
  }),
  invoke: async (client) => {
    const answer = await client.costEstimate.supportCategories({});
    return {
      categories: rowsOf(answer, "listSupportCategory", supportCategoryRow).map((c) => ({
        uuid: c.uuid,
        name: c.name,
        description: c.description,
      })),
      raw: rawOf(answer),
    };
  },
});

export const getSupportPlans = defineFunction({
  name: "getSupportPlans",
  description:
    "The support plans, with their response time and price, of every support category or of one. The spec does " +
    "not show this call's parameters or answer: a category is sent as `categoryUuid`, the plans read from " +
    "`listSupportPlan` (else the answer's first list).",
  inputs: z.object({
    categoryUuid: z
      .string()
      .trim()
      .min(1, "must not be empty")
      .optional()
      .describe("Only the plans of this support category (getSupportCategories lists them); when absent, every plan."),
  }),
  outputs: z.object({
    plans: out.list(
      z.object({
        uuid: out.uuid("support plan"),
        categoryUuid: out.text("The plan's support category."),
        name: out.text("The plan's name."),
        description: out.text("What the plan offers."),
        responseTimeHours: out.number("The promised response time, in hours."),
        cost: out.number("The plan's price (per month in the emulator)."),
      }),
      "The plans, in the API's order.",
    ),
    raw,
  }),
  invoke: async (client, args) => {
    const answer = await client.costEstimate.supportPlans(
      args.categoryUuid === undefined ? {} : { categoryUuid: args.categoryUuid },
    );
    return {
      plans: rowsOf(answer, "listSupportPlan", supportPlanRow).map((p) => ({
        uuid: p.uuid,
        categoryUuid: p.categoryUuid,
        name: p.name,
        description: p.description,
        responseTimeHours: p.responseTimeHours,
        cost: p.cost,
      })),
      raw: rawOf(answer),
    };
  },
});

// ---- tax -----------------------------------------------------------------------------------------

const taxRecord = record({ taxName: stringField, taxPercentage: numberField, zoneUuid: stringField });

export const getTax = defineFunction({
  name: "getTax",
  description:
    "The tax applied to prices in a zone (its name and rate). The spec does not show this call's parameters or " +
    "answer: the zone is sent as `zoneUuid`, the tax read from `taxName` and `taxPercentage`.",
  inputs: z.object({ zoneUuid: inputs.zoneUuid("tax") }),
  zoneDefault: "zoneUuid",
  outputs: z.object({
    zoneUuid: z.string().describe("The zone the tax is for."),
    taxName: out.text('The tax\'s name (e.g. "VAT").'),
    taxPercentage: out.number("The tax rate, in percent."),
    raw,
  }),
  invoke: async (client, { zoneUuid }) => {
    const answer = await client.costEstimate.tax({ zoneUuid });
    const parsed = taxRecord.safeParse(rawOf(answer));
    const tax = parsed.success ? parsed.data : {};
    return { zoneUuid, taxName: tax.taxName, taxPercentage: tax.taxPercentage, raw: rawOf(answer) };
  },
});
