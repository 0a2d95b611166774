// Weak site-to-site VPN settings, as far as the API exposes them: a VpnCustomerGateway's IKE and ESP encryption,
// hash and Diffie-Hellman group, perfect forward secrecy, the IKE version and the pre-shared key's length. The key
// is a secret: a message says it is short, never what it is or how long.
import type { ResourceValidationPolicy } from "@pulumi/policy";
import { vpnCustomerGatewayDeclaration } from "../resources/registry";
import { kindOfTypeToken } from "../type-tokens";
import { UNKNOWN } from "../wire";
import { argumentText, plainProps } from "./stack-resources";

export interface VpnConfig {
  /** Encryption algorithms counted as weak (the API offers aes128, aes192, aes256 and 3des). */
  readonly weakEncryption?: readonly string[];
  /** Hash algorithms counted as weak (the API offers sha1, sha256, sha384, sha512 and md5). */
  readonly weakHashes?: readonly string[];
  /** The smallest Diffie-Hellman group, in bits of its modulus (modp2048: 2048). */
  readonly minDhGroupBits?: number;
  /** Whether ESP must use perfect forward secrecy (an espPolicy other than None). */
  readonly requirePerfectForwardSecrecy?: boolean;
  /** Whether ikeVersion ikev1 is allowed. */
  readonly allowIkeV1?: boolean;
  /** The shortest pre-shared key, in characters. */
  readonly minPresharedKeyLength?: number;
}

/** What counts as weak when the config says nothing: NIST SP 800-77r1's floor (no 3DES, MD5, SHA-1, DH under 2048). */
export const VPN_DEFAULTS: Required<VpnConfig> = {
  weakEncryption: ["3des"],
  weakHashes: ["md5", "sha1"],
  minDhGroupBits: 2048,
  requirePerfectForwardSecrecy: true,
  allowIkeV1: false,
  minPresharedKeyLength: 20,
};

/** The modulus size of a group label as the API spells it: "Group 14(modp2048)" → 2048. */
const dhBits = (label: string): number | undefined => {
  const match = /modpb?(\d+)/i.exec(label);
  return match ? Number(match[1]) : undefined;
};

type Props = Parameters<typeof argumentText>[1];

/** A setting, or its declared default; undefined when not known at preview (`pulumi up`'s analysis sees it). */
function setting(props: Props, property: string): string | undefined {
  const value = argumentText(vpnCustomerGatewayDeclaration.type, props, property);
  return value === UNKNOWN ? undefined : value;
}

/** The weak settings of a gateway's properties, one phrase each. */
export function weakVpnSettings(props: Props, given: VpnConfig): string[] {
  const config = { ...VPN_DEFAULTS, ...given };
  const weak: string[] = [];
  const lower = (list: readonly string[]) => list.map((item) => item.toLowerCase());
  for (const property of ["ikeEncryption", "espEncryption"]) {
    const value = setting(props, property);
    if (value && lower(config.weakEncryption).includes(value.toLowerCase())) weak.push(`${property} ${value}`);
  }
  for (const property of ["ikeHash", "espHash"]) {
    const value = setting(props, property);
    if (value && lower(config.weakHashes).includes(value.toLowerCase())) weak.push(`${property} ${value}`);
  }
  for (const property of ["ikePolicy", "espPolicy"]) {
    const value = setting(props, property);
    const bits = value === undefined ? undefined : dhBits(value);
    if (bits !== undefined && bits < config.minDhGroupBits)
      weak.push(`${property} ${value} (a Diffie-Hellman group under ${config.minDhGroupBits} bits)`);
  }
  if (config.requirePerfectForwardSecrecy && setting(props, "espPolicy")?.toLowerCase() === "none")
    weak.push("espPolicy None (no perfect forward secrecy)");
  if (!config.allowIkeV1 && setting(props, "ikeVersion") === "ikev1") weak.push("ikeVersion ikev1");
  const key = props.ipsecPresharedKey;
  if (typeof key === "string" && key !== UNKNOWN && key.length < config.minPresharedKeyLength)
    weak.push(`an ipsecPresharedKey shorter than ${config.minPresharedKeyLength} characters`);
  return weak;
}

export const weakVpnPolicy: ResourceValidationPolicy = {
  name: "no-weak-vpn-settings",
  description:
    "No VPN customer gateway uses 3DES, MD5 or SHA-1, a Diffie-Hellman group under 2048 bits, ESP without perfect forward secrecy, IKEv1 or a short pre-shared key.",
  enforcementLevel: "mandatory",
  configSchema: {
    properties: {
      weakEncryption: {
        type: "array",
        items: { type: "string" },
        default: [...VPN_DEFAULTS.weakEncryption],
        description: "Encryption algorithms counted as weak (of aes128, aes192, aes256, 3des).",
      },
      weakHashes: {
        type: "array",
        items: { type: "string" },
        default: [...VPN_DEFAULTS.weakHashes],
        description: "Hash algorithms counted as weak (of sha1, sha256, sha384, sha512, md5).",
      },
      minDhGroupBits: {
        type: "integer",
        minimum: 0,
        default: VPN_DEFAULTS.minDhGroupBits,
        description: 'The smallest Diffie-Hellman group allowed, in bits ("Group 14(modp2048)": 2048).',
      },
      requirePerfectForwardSecrecy: {
        type: "boolean",
        default: VPN_DEFAULTS.requirePerfectForwardSecrecy,
        description: 'Whether espPolicy must name a Diffie-Hellman group rather than "None".',
      },
      allowIkeV1: {
        type: "boolean",
        default: VPN_DEFAULTS.allowIkeV1,
        description: "Whether ikeVersion ikev1 is allowed.",
      },
      minPresharedKeyLength: {
        type: "integer",
        minimum: 0,
        default: VPN_DEFAULTS.minPresharedKeyLength,
        description: "The shortest ipsecPresharedKey allowed, in characters.",
      },
    },
  },
  validateResource: (args, report) => {
    if (kindOfTypeToken(args.type) !== vpnCustomerGatewayDeclaration.type) return;
    const weak = weakVpnSettings(plainProps(args.props), args.getConfig<VpnConfig>());
    if (weak.length > 0) report(`VpnCustomerGateway ${args.name} has weak settings: ${weak.join("; ")}`);
  },
};
