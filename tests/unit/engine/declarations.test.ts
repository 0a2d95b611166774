/**
 * Rules every resource declaration keeps: each argument either replaces or is updated in place by a
 * step (never neither), is described, and the auto-named and zone arguments exist; its waits are
 * declared, and the engine alone runs them.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { DECLARATIONS } from "../../../provider/resources/registry";
import { TAGS_ARGUMENT } from "../../../provider/engine/tags";

describe.each(DECLARATIONS.map((d) => [d.type, d] as const))("%s", (_type, declaration) => {
  const argumentsOf = Object.keys(declaration.inputs.shape);
  const updated = declaration.updates.flatMap((step) => [...step.fields]);

  test("every argument replaces or is updated in place, not both", () => {
    const replaces = new Set<string>(declaration.replaceOn);
    expect(argumentsOf.filter((a) => !replaces.has(a) && !updated.includes(a))).toEqual([]);
    expect(argumentsOf.filter((a) => replaces.has(a) && updated.includes(a))).toEqual([]);
    expect([...replaces, ...updated].filter((a) => !argumentsOf.includes(a))).toEqual([]);
  });

  test("every argument and output is described", () => {
    const undocumented = [
      ...argumentsOf.filter((a) => !declaration.inputs.shape[a].description),
      ...Object.keys(declaration.outputs.shape).filter((o) => !declaration.outputs.shape[o].description),
    ];
    expect(undocumented).toEqual([]);
    expect(declaration.description.length).toBeGreaterThan(20);
  });

  test("auto-named, zone-defaulted and secret arguments exist", () => {
    for (const name of [declaration.autoName, declaration.zoneDefault, ...(declaration.secretInputs ?? [])]) {
      if (name !== undefined) expect(argumentsOf).toContain(name);
    }
  });
});

/** The kinds the API tags (createTags' resource types), by the declarations that say so: each takes `tags`. */
test("every kind with a tagType takes `tags`, updated in place and made after the create; no other kind does", () => {
  const tagged = DECLARATIONS.filter((d) => d.tagType !== undefined).map((d) => d.type);
  expect(tagged.sort()).toEqual(
    [
      "FirewallRule",
      "Instance",
      "LoadBalancerRule",
      "Network",
      "PortForwardingRule",
      "PublicIpAddress",
      "UploadedVolume",
      "VmSnapshot",
      "Volume",
      "VolumeSnapshot",
      "Vpc",
      "VpcTier",
    ].sort(),
  );
  for (const d of DECLARATIONS) {
    const takesTags = TAGS_ARGUMENT in d.inputs.shape;
    expect({ type: d.type, takesTags }).toEqual({ type: d.type, takesTags: d.tagType !== undefined });
    if (!takesTags) continue;
    expect(d.replaceOn).not.toContain(TAGS_ARGUMENT);
    expect(d.updates.filter((step) => step.fields.includes(TAGS_ARGUMENT as never)).map((s) => s.via)).toEqual([
      "createTags, deleteResourceTag",
    ]);
    expect(d.createdAs!({} as never)).toMatchObject({ [TAGS_ARGUMENT]: {} });
  }
});

const finishedByUpdates = DECLARATIONS.filter((d) => d.createdAs !== undefined);
test.each(finishedByUpdates.map((d) => [d.type, d] as const))(
  "%s: the arguments its create leaves (createdAs) are updated in place by a step",
  (_type, declaration) => {
    const updated = declaration.updates.flatMap((step) => [...step.fields]);
    const left = Object.keys(declaration.createdAs!({} as never));
    expect(left.length).toBeGreaterThan(0);
    expect(left.filter((field) => !updated.includes(field))).toEqual([]);
  },
);

test.each(DECLARATIONS.filter((d) => d.ready !== undefined).map((d) => [d.type, d] as const))(
  "%s: a declaration that awaits readiness says where its record is",
  (_type, declaration) => expect(declaration.record).toBeDefined(),
);

/*
 * Declarations only declare: the engine runs every wait (provider/engine/waits.ts). A resource file
 * yields waits; it never calls the client's waiters nor builds wait options.
 */
test("no resource file calls a waiter or builds wait options", () => {
  const dir = join(__dirname, "../../../provider/resources");
  const offences = readdirSync(dir)
    .filter((file) => file.endsWith(".ts"))
    .flatMap((file) =>
      readFileSync(join(dir, file), "utf8")
        .split("\n")
        .map((line, i) => ({ where: `${file}:${i + 1}`, line }))
        .filter(({ line }) =>
          /client\/waiters|\bwaitFor[A-Z]?\w*\(|\bpollUntil\(|\bwaitOptions\b|confirmGoneWait/.test(line),
        )
        .map(({ where, line }) => `${where}: ${line.trim()}`),
    );
  expect(offences).toEqual([]);
});
