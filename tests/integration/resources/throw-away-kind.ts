// A kind that exists only for new-kind.test.ts: written as a file under provider/resources would be
// (the test copies it there, with `../../../provider/` made `../`), to show one file is enough.
import { z } from "zod";
import { defineResource } from "../../../provider/engine/declaration";
import { byName } from "../../../provider/engine/identity";
import { text } from "../../../provider/engine/inventory";
import { perMonth } from "../../../provider/pricing";

/** Its records are the zone's Linux templates, so that the emulator has some to list and tag. */
export const throwAwayDeclaration = defineResource({
  type: "ThrowAway",
  description: "A throw-away kind of the tests: one file, found by every part that reads the registry.",
  price: perMonth("Throw-away", { call: "ipCost", field: "ipCost" }),
  inputs: z.object({
    name: z.string().optional().describe("Its name."),
    zoneUuid: z.string().optional().describe("Its zone."),
  }),
  outputs: z.object({ uuid: z.string().optional().describe("Its id.") }),
  autoName: "name",
  zoneDefault: "zoneUuid",
  replaceOn: ["name", "zoneUuid"],
  updates: [],
  defaultTimeouts: { create: 60_000, update: 60_000, delete: 60_000 },
  identity: { scope: (inputs) => `${inputs.zoneUuid!}/${inputs.name}`, candidates: async () => [], ...byName },
  tagType: "Template",
  inventory: {
    list: async (lists) =>
      (
        await lists.client.costEstimate.templates({
          zoneUuid: lists.zoneUuid,
          platform: "LINUX",
          distribution: "OS_ONLY",
        })
      ).map((template) => ({ id: template.uuid!, name: text(template.name) })),
  },
  create: async () => {
    throw new Error("a throw-away kind creates nothing");
  },
  read: async () => undefined,
  // eslint-disable-next-line require-yield
  async *delete() {
    return;
  },
});
