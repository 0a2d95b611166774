/**
 * The networking declarations, without a server: check refuses what the API would refuse with a
 * reason naming the field, diff sorts changes into updates and replacements, and the pre-shared key
 * is secret. (That each argument replaces or updates in place, and that the docs say which, is
 * checked for every declaration: engine/declarations.test.ts, descriptions.test.ts.)
 */
import { z } from "zod";
import type { ResourceDeclaration } from "../../../provider/engine/declaration";
import { Engine } from "../../../provider/engine/engine";
import { UNKNOWN, containsUnknown } from "../../../provider/wire";
import {
  internalLoadBalancerDeclaration,
  loadBalancerRuleDeclaration,
  portForwardingRuleDeclaration,
  remoteAccessVpnDeclaration,
  securityGroupDeclaration,
  securityGroupEgressRuleDeclaration,
  securityGroupFirewallRuleDeclaration,
  securityGroupPortForwardingRuleDeclaration,
  staticNatDeclaration,
  vpnConnectionDeclaration,
  vpnCustomerGatewayDeclaration,
} from "../../../provider/resources/registry";
import { BY_TYPE } from "../../../provider/resources/registry";
import { liveCidrList } from "../../../provider/resources/networking-common";

const NETWORKING = [
  securityGroupDeclaration,
  securityGroupFirewallRuleDeclaration,
  securityGroupEgressRuleDeclaration,
  securityGroupPortForwardingRuleDeclaration,
  staticNatDeclaration,
  remoteAccessVpnDeclaration,
  portForwardingRuleDeclaration,
  loadBalancerRuleDeclaration,
  internalLoadBalancerDeclaration,
  vpnCustomerGatewayDeclaration,
  vpnConnectionDeclaration,
] as unknown as ResourceDeclaration[];

function engine(declaration: unknown): Engine {
  return new Engine(declaration as ResourceDeclaration, {
    client: () => {
      throw new Error("check and diff must not need a client");
    },
    settings: () => ({ zoneUuid: "zone-1" }),
    containsUnknown,
  });
}

/** The failures of check, by field. */
function failures(declaration: unknown, news: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(
    engine(declaration)
      .check({}, news)
      .failures.map((f) => [f.property, f.reason]),
  );
}

const GATEWAY = {
  name: "office",
  gateway: "198.51.100.7",
  cidrList: "192.168.10.0/24",
  ipsecPresharedKey: "s3cret",
  ikePolicy: "Group 14(modp2048)",
  ikeEncryption: "aes256",
  ikeHash: "sha256",
  espEncryption: "aes128",
  espHash: "sha1",
};
const FORWARD = {
  ipAddressUuid: "ip-1",
  protocol: "TCP",
  publicPort: 2222,
  privatePort: 22,
  instanceUuid: "vm-1",
  networkUuid: "net-1",
};
const LB = { name: "web", ipAddressUuid: "ip-1", networkUuid: "net-1", publicPort: 80, privatePort: 8080 };

describe.each(NETWORKING.map((d) => [d.type, d] as const))("%s", (_type, declaration) => {
  const shape = declaration.inputs.shape as Record<string, z.ZodType>;

  test("is registered for the runtime", () => {
    expect(BY_TYPE.get(declaration.type)).toBe(declaration);
  });

  test("every output is described and none is named like an argument", () => {
    for (const [key, schema] of Object.entries(declaration.outputs.shape as Record<string, z.ZodType>)) {
      expect([key, schema.description]).toEqual([key, expect.any(String)]);
      expect(Object.keys(shape)).not.toContain(key);
    }
  });
});

describe("check", () => {
  test("a port-forwarding rule's private range is as long as its public one", () => {
    expect(failures(portForwardingRuleDeclaration, { ...FORWARD, publicEndPort: 2224, privateEndPort: 23 })).toEqual({
      privateEndPort: "the private range must be as long as the public one (3 ports)",
    });
    expect(failures(portForwardingRuleDeclaration, { ...FORWARD, publicEndPort: 2220 })).toEqual({
      publicEndPort: "must not be below publicPort (2222)",
    });
    expect(failures(portForwardingRuleDeclaration, { ...FORWARD, publicEndPort: 2224, privateEndPort: 24 })).toEqual(
      {},
    );
  });

  test("ports not known yet (preview) pass the range rules", () => {
    expect(failures(portForwardingRuleDeclaration, { ...FORWARD, publicPort: UNKNOWN, privateEndPort: 30 })).toEqual(
      {},
    );
    expect(
      failures(securityGroupFirewallRuleDeclaration, { securityGroupUuid: "sg", protocol: UNKNOWN, icmpType: 8 }),
    ).toEqual({});
  });

  test("a security group rule: ports for TCP and UDP, ICMP fields for ICMP only, a valid protocol", () => {
    const rule = { securityGroupUuid: "sg-1" };
    expect(
      failures(securityGroupFirewallRuleDeclaration, { ...rule, protocol: "TCP", startPort: 22, icmpType: 8 }),
    ).toEqual({ icmpType: "does not apply to protocol TCP" });
    expect(failures(securityGroupEgressRuleDeclaration, { ...rule, protocol: "UDP" })).toEqual({
      startPort: "is required for UDP",
    });
    expect(failures(securityGroupEgressRuleDeclaration, { ...rule, protocol: "ICMP", startPort: 1 })).toEqual({
      startPort: "must not be set for ICMP",
    });
    expect(
      failures(securityGroupFirewallRuleDeclaration, { ...rule, protocol: "ICMP", icmpType: 8, icmpCode: 0 }),
    ).toEqual({});
    expect(
      failures(securityGroupPortForwardingRuleDeclaration, { ...rule, ...FORWARD, protocol: "ICMP" }),
    ).toMatchObject({
      protocol: "must be TCP or UDP",
      ipAddressUuid: "is not an argument of SecurityGroupPortForwardingRule",
    });
    expect(
      failures(securityGroupFirewallRuleDeclaration, {
        ...rule,
        protocol: "TCP",
        startPort: 22,
        cidrList: "10.0.0.0/33",
      }),
    ).toEqual({ cidrList: '"10.0.0.0/33" is not an IPv4 CIDR block' });
  });

  test("a customer gateway: every policy field checked, lifetimes and ESP policy defaulted", () => {
    const { inputs, failures: none } = engine(vpnCustomerGatewayDeclaration).check({}, GATEWAY);
    expect(none).toEqual([]);
    expect(inputs).toMatchObject({ ikeLifetime: 86400, espLifetime: 3600, espPolicy: "None" });
    const { ipsecPresharedKey: _psk, ...withoutKey } = GATEWAY;
    expect(
      failures(vpnCustomerGatewayDeclaration, {
        ...withoutKey,
        gateway: "198.51.100",
        ikePolicy: "Group 14",
        ikeEncryption: "des",
        espHash: "crc32",
        espLifetime: 90000,
      }),
    ).toEqual({
      ipsecPresharedKey: "is required",
      gateway: "must be an IPv4 address such as 203.0.113.10",
      ikePolicy: 'must be a Diffie-Hellman group label such as "Group 14(modp2048)"',
      ikeEncryption: "must be one of aes128, aes192, aes256, 3des",
      espHash: "must be one of sha1, sha256, sha384, sha512, md5",
      espLifetime: "must be at most 86400 seconds",
    });
  });

  test("a load-balancer rule: the algorithm defaults to roundrobin, a stickiness method is checked", () => {
    expect(engine(loadBalancerRuleDeclaration).check({}, LB).inputs).toMatchObject({ algorithm: "roundrobin" });
    expect(
      failures(loadBalancerRuleDeclaration, { ...LB, algorithm: "random", stickiness: { method: "Sticky" } }),
    ).toEqual({
      algorithm: "must be one of source, roundrobin, leastconn",
      "stickiness.method": "must be one of None, LbCookie, AppCookie, SourceBased",
    });
  });

  test("an internal load balancer is auto-named (its name is its id) and assigned by default", () => {
    const { inputs } = engine(internalLoadBalancerDeclaration).check(
      {},
      { networkUuid: "tier-1", sourcePort: 80, instancePort: 8080 },
      { logicalName: "app" },
    );
    expect(inputs).toMatchObject({ name: expect.stringMatching(/^app-[0-9a-f]{7}$/), assignInstances: true });
  });
});

describe("diff", () => {
  test("a load-balancer rule: name and algorithm update in place; ports replace, deleting first", () => {
    const lb = engine(loadBalancerRuleDeclaration);
    const olds = { ...LB, algorithm: "roundrobin" };
    expect(lb.diff(olds, { ...olds, name: "web-2", algorithm: "leastconn" })).toMatchObject({
      updates: ["name", "algorithm"],
      replaces: [],
    });
    expect(lb.diff(olds, { ...olds, privatePort: 8081 })).toMatchObject({
      replaces: ["privatePort"],
      deleteBeforeReplace: true,
    });
  });

  test("a customer gateway updates every field in place, the pre-shared key included", () => {
    expect(engine(vpnCustomerGatewayDeclaration).diff(GATEWAY, { ...GATEWAY, ipsecPresharedKey: "rotated" })).toEqual({
      changes: true,
      replaces: [],
      updates: ["ipsecPresharedKey"],
      deleteBeforeReplace: false,
    });
  });

  test("a VPN connection: a new resetTrigger resets in place, passive replaces", () => {
    const vpn = engine(vpnConnectionDeclaration);
    const olds = { vpcUuid: "vpc-1", customerGatewayUuid: "cgw-1", passive: false };
    expect(vpn.diff(olds, { ...olds, resetTrigger: "1" })).toMatchObject({ updates: ["resetTrigger"], replaces: [] });
    expect(vpn.diff(olds, { ...olds, passive: true })).toMatchObject({
      replaces: ["passive"],
      deleteBeforeReplace: true,
    });
  });
});

describe("secrets", () => {
  test("the customer gateway's pre-shared key is a secret input (and so a secret output)", () => {
    expect(vpnCustomerGatewayDeclaration.secretInputs).toEqual(["ipsecPresharedKey"]);
  });

  test("the VPN connection does not copy the gateway's pre-shared key into its outputs", () => {
    expect(Object.keys(vpnConnectionDeclaration.outputs.shape)).not.toContain("ipsecPresharedKey");
  });
});

test("a CIDR list reads as declared when it names the same blocks", () => {
  expect(liveCidrList("10.0.0.0/8,192.168.0.0/16", "10.0.0.0/8, 192.168.0.0/16")).toBe("10.0.0.0/8, 192.168.0.0/16");
  expect(liveCidrList("10.0.0.0/8", "10.0.0.0/8, 192.168.0.0/16")).toBe("10.0.0.0/8");
  expect(liveCidrList("10.0.0.0/8", undefined)).toBe("10.0.0.0/8");
});
