import { z } from "zod";
import { defineResource, type OperationContext } from "../engine/declaration";
import { defaultValue, stateDefaults, withDefault } from "../engine/defaults";
import { byName } from "../engine/identity";
import { cidrList, ipv4Address } from "../engine/validators";
import { recordLookup, showing } from "../engine/waits";
import { args, byUuid, minutes, recordOutputs } from "./common";
import { liveCidrList, removeUntilGone } from "./networking-common";
import { text } from "../engine/inventory";

async function getGateway(ctx: OperationContext, id: string) {
  return byUuid(await ctx.client.vpnCustomerGateway.list({ uuid: id }), id);
}

/** The gateway as declared: the API drops the spaces of a CIDR list, the same blocks read as the declared text. */
const gatewayRecord = recordLookup("VPN customer gateway", async (ctx, id, state: { cidrList?: string }) => {
  const gateway = await getGateway(ctx, id);
  return gateway && { ...gateway, cidrList: liveCidrList(gateway.cidrList, state.cidrList) };
});
type Gateway = NonNullable<Awaited<ReturnType<typeof gatewayRecord.find>>>;

const encryption = z.enum(["aes128", "aes192", "aes256", "3des"], {
  error: "must be one of aes128, aes192, aes256, 3des",
});
const hash = z.enum(["sha1", "sha256", "sha384", "sha512", "md5"], {
  error: "must be one of sha1, sha256, sha384, sha512, md5",
});
/** A Diffie-Hellman group label as the API spells it. */
const dhGroup = z
  .string()
  .regex(/^Group \d+\(modpb?\d+\)$/, 'must be a Diffie-Hellman group label such as "Group 14(modp2048)"');
const lifetime = z.number().int().min(1, "must be at least 1 second").max(86400, "must be at most 86400 seconds");

const inputs = z.object({
  name: args.name("customer gateway").describe("The gateway's name, unique in the account."),
  gateway: ipv4Address.describe("The public IPv4 address of the remote VPN device."),
  cidrList: cidrList.describe(
    `The remote networks reached through the VPN, comma-separated CIDR blocks; they must not overlap the VPC's.`,
  ),
  ipsecPresharedKey: z
    .string()
    .min(1, "must not be empty")
    .describe("The IPsec pre-shared key: a secret, encrypted in state (inputs and outputs)."),
  ikePolicy: dhGroup.describe('The IKE Diffie-Hellman group, e.g. "Group 14(modp2048)".'),
  ikeEncryption: encryption.describe("The IKE encryption: aes128, aes192, aes256 or 3des."),
  ikeHash: hash.describe("The IKE hash: sha1, sha256, sha384, sha512 or md5."),
  ikeLifetime: withDefault(lifetime.optional().describe("The IKE (phase 1) lifetime in seconds."), 86400, {
    keptInState: true,
  }),
  ikeVersion: withDefault(
    z
      .enum(["ike", "ikev1", "ikev2"], { error: "must be one of ike, ikev1, ikev2" })
      .optional()
      .describe("The IKE version: ike (negotiated), ikev1 or ikev2."),
    "ike",
    { note: "the API's" },
  ),
  espPolicy: withDefault(
    z
      .union([z.literal("None"), dhGroup])
      .optional()
      .describe('Perfect forward secrecy for ESP: "None", or a Diffie-Hellman group label.'),
    "None",
    { keptInState: true },
  ),
  espEncryption: encryption.describe("The ESP encryption: aes128, aes192, aes256 or 3des."),
  espHash: hash.describe("The ESP hash: sha1, sha256, sha384, sha512 or md5."),
  espLifetime: withDefault(lifetime.optional().describe("The ESP (phase 2) lifetime in seconds."), 3600, {
    keptInState: true,
  }),
  deadPeerDetection: withDefault(z.boolean().optional().describe("Detect a dead remote peer (DPD)."), false, {
    note: "the API's",
  }),
  forceEncapsulation: withDefault(
    z.boolean().optional().describe("Force UDP encapsulation of ESP (NAT traversal)."),
    false,
    { note: "the API's" },
  ),
  splitConnection: withDefault(z.boolean().optional().describe("One connection per remote CIDR block."), false, {
    note: "the API's",
  }),
});
type GatewayInputs = z.infer<typeof inputs>;

/** The arguments as the API's add/update body. */
function body(v: GatewayInputs) {
  return {
    name: v.name!,
    gateway: v.gateway,
    cidrlist: v.cidrList,
    ipsecpsk: v.ipsecPresharedKey,
    ikepolicy: v.ikePolicy,
    ikeEncryption: v.ikeEncryption,
    ikeHash: v.ikeHash,
    ikelifetime: String(v.ikeLifetime ?? defaultValue(inputs.shape.ikeLifetime)),
    ikeVersion: v.ikeVersion,
    esppolicy: v.espPolicy ?? defaultValue(inputs.shape.espPolicy),
    espEncryption: v.espEncryption,
    espHash: v.espHash,
    esplifetime: String(v.espLifetime ?? defaultValue(inputs.shape.espLifetime)),
    dpd: v.deadPeerDetection,
    forceencap: v.forceEncapsulation,
    splitConnection: v.splitConnection,
  };
}

/**
 * The record fields that show the arguments (to await an update). The encryption and hash choices
 * have no record field: an update of those alone cannot be seen, and is not awaited.
 */
function visible(v: GatewayInputs) {
  const sent = body(v);
  return {
    name: sent.name,
    gateway: sent.gateway,
    ipsecPresharedKey: sent.ipsecpsk,
    ikepolicy: sent.ikepolicy,
    esppolicy: sent.esppolicy,
    ikelifetime: sent.ikelifetime,
    esplifetime: sent.esplifetime,
    ikeVersion: sent.ikeVersion,
    dpd: sent.dpd,
    forceencap: sent.forceencap,
    splitConnection: sent.splitConnection,
  };
}

/** The customer (remote) end of a site-to-site VPN. */
export const vpnCustomerGatewayDeclaration = defineResource({
  type: "VpnCustomerGateway",
  description:
    "The customer (remote) end of a site-to-site VPN: its public address, the networks behind it, the IKE and ESP policies and the pre-shared key (a secret).",
  inputs,
  outputs: z.object({
    ...recordOutputs,
    domainName: z.string().optional().describe("The account's domain."),
  }),
  autoName: "name",
  defaults: stateDefaults(inputs),
  secretInputs: ["ipsecPresharedKey"],
  // The record shows no IKE or ESP algorithm.
  unreadable: ["ikeEncryption", "ikeHash", "espEncryption", "espHash"],
  replaceOn: [],
  updates: [
    {
      fields: [
        "name",
        "gateway",
        "cidrList",
        "ipsecPresharedKey",
        "ikePolicy",
        "ikeEncryption",
        "ikeHash",
        "ikeLifetime",
        "ikeVersion",
        "espPolicy",
        "espEncryption",
        "espHash",
        "espLifetime",
        "deadPeerDetection",
        "forceEncapsulation",
        "splitConnection",
      ],
      via: "updateVpnCustomerGateway",
      awaits: ["visible"],
      async *apply(ctx, id, news) {
        await ctx.client.vpnCustomerGateway.update({ uuid: id, ...body(news) });
        yield showing<Gateway>({ ...visible(news), cidrList: news.cidrList });
      },
    },
  ],
  defaultTimeouts: { create: minutes(5), update: minutes(5), delete: minutes(5) },
  identity: {
    scope: (inputs) => `account/${inputs.name}`,
    candidates: (ctx, _inputs, where) => ctx.client.vpnCustomerGateway.list({}, { where }),
    ...byName,
  },
  inventory: {
    accountWide: true,
    list: async (lists) =>
      (await lists.client.vpnCustomerGateway.list({})).map((gateway) => ({
        id: gateway.uuid,
        name: text(gateway.name),
      })),
  },
  create: async (ctx, inputs) => {
    const gateway = await ctx.client.vpnCustomerGateway.create(body(inputs), { verify: ctx.findCreated });
    return { id: gateway.uuid };
  },
  read: async (ctx, id, state) => {
    const gateway = await getGateway(ctx, id);
    if (!gateway) return undefined;
    const seconds = (value: string | undefined) => (value === undefined ? undefined : Number(value));
    return {
      inputs: {
        name: gateway.name,
        gateway: gateway.gateway,
        cidrList: liveCidrList(gateway.cidrList, state.cidrList),
        ipsecPresharedKey: gateway.ipsecPresharedKey,
        ikePolicy: gateway.ikepolicy,
        ikeLifetime: seconds(gateway.ikelifetime),
        ikeVersion: gateway.ikeVersion as GatewayInputs["ikeVersion"],
        espPolicy: gateway.esppolicy,
        espLifetime: seconds(gateway.esplifetime),
        deadPeerDetection: gateway.dpd,
        forceEncapsulation: gateway.forceencap,
        splitConnection: gateway.splitConnection,
      },
      outputs: {
        uuid: gateway.uuid,
        status: gateway.status,
        isActive: gateway.isActive,
        domainName: gateway.domainName,
      },
    };
  },
  record: gatewayRecord,
  delete: (ctx, id, state) =>
    removeUntilGone(ctx, id, state, {
      lookup: gatewayRecord,
      remove: () => ctx.client.vpnCustomerGateway.delete({ uuid: id }),
    }),
});
