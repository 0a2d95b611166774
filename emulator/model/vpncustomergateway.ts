// VPN customer gateways: the remote end of a connection. The record returns the pre-shared key (the spec shows it); the
// IKE/ESP settings have no field and are kept in VPN_CUSTOMER_GATEWAY_CRYPTO. Updates answer 202 and show after the
// delay.
import { parseIpv4 } from "../cidr";
import { badInput, conflict, type AccountScope, type DeferredChange, type EmulatorContext } from "../core";
import { requireRecord } from "../references";
import {
  VPN_CONNECTIONS,
  VPN_CUSTOMER_GATEWAY_CRYPTO,
  VPN_CUSTOMER_GATEWAYS,
  type VpnCustomerGatewayCryptoRecord,
  type VpnCustomerGatewayRecord,
} from "./collections";
import { filterRecords } from "./records";
import { cidrList } from "./rules-common";

export const ENCRYPTIONS = ["aes128", "aes192", "aes256", "3des"] as const;
export const HASHES = ["sha1", "sha256", "sha384", "sha512", "md5"] as const;
export const IKE_VERSIONS = ["ike", "ikev1", "ikev2"] as const;

/** Diffie-Hellman groups: number to MODP size. */
const DH_GROUPS: Record<string, string> = {
  "1": "768",
  "2": "1024",
  "5": "1536",
  "14": "2048",
  "15": "3072",
  "16": "4096",
  "17": "6144",
  "18": "8192",
};
export const DH_GROUP_LABELS = Object.entries(DH_GROUPS).map(([n, bits]) => `Group ${n}(modp${bits})`);

/** A label such as "Group 5(modp1536)"; the spec's sample spelling "modpb1536" is accepted too. */
function dhGroup(field: string, value: string): string {
  const match = /^Group (\d+)\(modpb?(\d+)\)$/.exec(value.trim());
  if (!match || DH_GROUPS[match[1]] !== match[2]) {
    throw badInput(field, `must be a Diffie-Hellman group label: ${DH_GROUP_LABELS.join(", ")}`);
  }
  return value.trim();
}

function oneOf(values: readonly string[]) {
  return (field: string, value: string): string => {
    if (!values.includes(value)) throw badInput(field, `must be one of ${values.join(", ")}`);
    return value;
  };
}

function lifetime(field: string, value: string): string {
  const n = /^\d{1,6}$/.test(value.trim()) ? Number(value.trim()) : NaN;
  if (!(n >= 1 && n <= 86400)) throw badInput(field, "must be a number of seconds from 1 to 86400");
  return String(n);
}

/** The string fields of add/update and their validation (returns the stored value). */
const STRING_FIELDS = {
  name: (_field: string, value: string) => value,
  gateway: (field: string, value: string) => {
    if (parseIpv4(value.trim()) === undefined) throw badInput(field, "must be an IPv4 address such as 198.51.100.7");
    return value.trim();
  },
  cidrlist: (field: string, value: string) => cidrList(field, value),
  ipsecpsk: (_field: string, value: string) => value,
  ikepolicy: dhGroup,
  esppolicy: (field: string, value: string) => (value === "None" ? value : dhGroup(field, value)),
  ikeEncryption: oneOf(ENCRYPTIONS),
  espEncryption: oneOf(ENCRYPTIONS),
  ikeHash: oneOf(HASHES),
  espHash: oneOf(HASHES),
  ikelifetime: lifetime,
  esplifetime: lifetime,
  ikeVersion: oneOf(IKE_VERSIONS),
} as const;
export type StringField = keyof typeof STRING_FIELDS;
export const STRING_INPUTS = Object.keys(STRING_FIELDS) as StringField[];
/** Required by add (the spec's list); ikeVersion is optional. */
export const REQUIRED_INPUTS: readonly StringField[] = STRING_INPUTS.filter((f) => f !== "ikeVersion");
export const BOOLEAN_INPUTS = ["forceencap", "splitConnection", "dpd"] as const;
type BooleanField = (typeof BOOLEAN_INPUTS)[number];

export type GatewayInput = Partial<Record<StringField, string>> & Partial<Record<BooleanField, boolean>>;

/** Input name to record field, where they differ. */
const RECORD_FIELD: Partial<Record<StringField, string>> = { cidrlist: "cidrList", ipsecpsk: "ipsecPresharedKey" };
const CRYPTO_FIELDS: readonly StringField[] = ["ikeEncryption", "ikeHash", "espEncryption", "espHash"];
/** Gateway field to the field of a VPN connection that copies it. */
export const CONNECTION_COPIES: Record<string, string> = {
  ikepolicy: "ikePolicy",
  esppolicy: "espPolicy",
  ipsecPresharedKey: "ipsecPresharedKey",
  gateway: "gateway",
};

/** Validate what is given; split it into record fields and crypto fields. */
function validate(input: GatewayInput): {
  record: Partial<VpnCustomerGatewayRecord>;
  crypto: Omit<VpnCustomerGatewayCryptoRecord, "uuid">;
} {
  const record: Record<string, string | boolean> = {};
  const crypto: Record<string, string> = {};
  for (const field of STRING_INPUTS) {
    const value = input[field];
    if (value === undefined) continue;
    const stored = STRING_FIELDS[field](field, value);
    if (CRYPTO_FIELDS.includes(field)) crypto[field] = stored;
    else record[RECORD_FIELD[field] ?? field] = stored;
  }
  for (const field of BOOLEAN_INPUTS) if (input[field] !== undefined) record[field] = input[field];
  return { record: record as Partial<VpnCustomerGatewayRecord>, crypto };
}

function assertNameFree(scope: AccountScope, name: string | undefined, except?: string): void {
  if (name === undefined) return;
  const other = Object.values(scope.collection(VPN_CUSTOMER_GATEWAYS)).find(
    (g) => g.name === name && g.uuid !== except,
  );
  if (other) throw conflict(`a VPN customer gateway named "${name}" already exists`);
}

/** Add: every input but ikeVersion is required (the routes check them), so `given` has each field. */
export function addVpnCustomerGateway(
  scope: AccountScope,
  ctx: EmulatorContext,
  input: GatewayInput,
): VpnCustomerGatewayRecord {
  const { record: given, crypto } = validate(input);
  assertNameFree(scope, input.name);
  const uuid = ctx.newUuid();
  const record: VpnCustomerGatewayRecord = {
    esplifetime: given.esplifetime ?? "",
    cidrList: given.cidrList ?? "",
    forceencap: given.forceencap ?? false,
    ikepolicy: given.ikepolicy ?? "",
    ipsecPresharedKey: given.ipsecPresharedKey ?? "",
    ikeVersion: given.ikeVersion ?? "ike",
    splitConnection: given.splitConnection ?? false,
    isActive: true,
    ikelifetime: given.ikelifetime ?? "",
    uuid,
    domainName: scope.account.name,
    name: given.name ?? "",
    dpd: given.dpd ?? false,
    esppolicy: given.esppolicy ?? "",
    gateway: given.gateway ?? "",
    status: "Active",
  };
  scope.collection(VPN_CUSTOMER_GATEWAYS)[uuid] = record;
  scope.collection(VPN_CUSTOMER_GATEWAY_CRYPTO)[uuid] = { uuid, ...crypto };
  scope.changed();
  return record;
}

export const listVpnCustomerGateways = (scope: AccountScope, filters: { uuid?: string }): VpnCustomerGatewayRecord[] =>
  filterRecords(scope, VPN_CUSTOMER_GATEWAYS, filters);

/** Accepted at once, applied after the delay to the gateway and the connections using it; answers the record as it is now. */
export function updateVpnCustomerGateway(
  scope: AccountScope,
  ctx: EmulatorContext,
  uuid: string,
  input: GatewayInput,
): VpnCustomerGatewayRecord {
  const current = requireRecord(scope, VPN_CUSTOMER_GATEWAYS, "VPN customer gateway", uuid);
  const { record: set, crypto } = validate(input);
  assertNameFree(scope, input.name, uuid);
  const given: Record<string, unknown> = set;
  const copies = Object.fromEntries(
    Object.entries(CONNECTION_COPIES).flatMap(([from, to]) => (from in given ? [[to, given[from]]] : [])),
  );
  const changes: DeferredChange[] = [
    { collection: VPN_CUSTOMER_GATEWAYS, uuid, set },
    { collection: VPN_CUSTOMER_GATEWAY_CRYPTO, uuid, set: crypto },
  ];
  if (Object.keys(copies).length > 0) {
    for (const connection of filterRecords(scope, VPN_CONNECTIONS, { customerGatewayUuid: uuid })) {
      changes.push({ collection: VPN_CONNECTIONS, uuid: connection.uuid, set: copies });
    }
  }
  ctx.later(scope, "updateVpnCustomerGateway", changes);
  return current;
}

/** A gateway that a VPN connection uses cannot go (409). */
export function deleteVpnCustomerGateway(scope: AccountScope, uuid: string): true {
  requireRecord(scope, VPN_CUSTOMER_GATEWAYS, "VPN customer gateway", uuid);
  const user = filterRecords(scope, VPN_CONNECTIONS, { customerGatewayUuid: uuid })[0];
  if (user) throw conflict(`VPN customer gateway ${uuid} is used by VPN connection ${user.uuid}`);
  scope.remove(VPN_CUSTOMER_GATEWAYS, uuid);
  scope.remove(VPN_CUSTOMER_GATEWAY_CRYPTO, uuid);
  scope.changed();
  return true;
}
