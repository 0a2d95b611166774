// The pack's security policies on described stacks, through @pulumi/policy's own proxy (policy-harness.ts): sensitive
// ports open to every address on firewall, security-group and port-forwarding rules (either front end's token, the
// API's default CIDR counted, values not known at preview left to `pulumi up`'s analysis), forwarded ports no
// firewall rule covers (matched by the address's resource at preview, or its known uuid), and weak VPN settings.
import { sensitivePortPolicy, unguardedForwardingPolicy } from "../../../provider/policy/security";
import { weakVpnPolicy } from "../../../provider/policy/vpn";
import { runResourcePolicy, runStackPolicy, UNKNOWN, type Described } from "./policy-harness";

const ip: Described = { kind: "PublicIpAddress", name: "ip", props: { uuid: UNKNOWN, vpcUuid: UNKNOWN } };
const otherIp: Described = { kind: "PublicIpAddress", name: "other-ip", props: { uuid: UNKNOWN } };
const vm: Described = { kind: "Instance", name: "vm", props: { uuid: UNKNOWN } };

const firewall = (name: string, props: Record<string, unknown>, on = "ip", dynamic = false): Described => ({
  kind: "FirewallRule",
  name,
  props: { ipAddressUuid: UNKNOWN, protocol: "TCP", ...props },
  from: { ipAddressUuid: [on] },
  dynamic,
});
/** A forwarding rule to vm, on the address `on` (a resource of the stack) unless undefined. */
const forwarding = (name: string, props: Record<string, unknown>, on: string | undefined = "ip"): Described => ({
  kind: "PortForwardingRule",
  name,
  props: { ipAddressUuid: UNKNOWN, instanceUuid: UNKNOWN, networkUuid: UNKNOWN, protocol: "TCP", ...props },
  from: { ...(on ? { ipAddressUuid: [on] } : {}), instanceUuid: ["vm"] },
});

describe("no-sensitive-port-open-to-world", () => {
  test("an ingress rule opening a sensitive port to 0.0.0.0/0, given or the API's default, is named with its ports", async () => {
    const stack = [
      ip,
      firewall("ssh", { startPort: 22 }, "ip", true),
      firewall("range", { startPort: 20, endPort: 3400, cidrList: "10.0.0.0/8, 0.0.0.0/0" }),
      {
        kind: "SecurityGroupFirewallRule",
        name: "db",
        props: { securityGroupUuid: "sg-1", protocol: "TCP", startPort: 5432, cidrList: "0.0.0.0/0" },
      },
      firewall("web", { startPort: 443 }),
      firewall("ping", { protocol: "ICMP", icmpType: -1 }),
      firewall("narrow", { startPort: 3306, cidrList: "203.0.113.0/24" }),
      firewall("later", { startPort: 22, endPort: 22, cidrList: UNKNOWN }, "other-ip"),
      otherIp,
    ];
    expect(await runStackPolicy(sensitivePortPolicy, stack)).toEqual([
      {
        resource: "ssh",
        message: "FirewallRule ssh opens SSH (22) to 0.0.0.0/0: limit cidrList to the addresses that need it",
      },
      {
        resource: "range",
        message:
          "FirewallRule range opens SSH (22), SQL Server (1433), Oracle (1521), MySQL (3306), RDP (3389) to 0.0.0.0/0: " +
          "limit cidrList to the addresses that need it",
      },
      {
        resource: "db",
        message:
          "SecurityGroupFirewallRule db opens PostgreSQL (5432) to 0.0.0.0/0: limit cidrList to the addresses that need it",
      },
    ]);
  });

  test("config: its own ports, and allowedSources that every source of a sensitive port must lie within", async () => {
    const stack = [
      ip,
      firewall("office", { startPort: 22, cidrList: "203.0.113.0/25" }),
      firewall("partner", { startPort: 22, cidrList: "198.51.100.0/24" }),
      firewall("admin", { startPort: 8443, cidrList: "0.0.0.0/0" }),
    ];
    expect(await runStackPolicy(sensitivePortPolicy, stack, { allowedSources: ["203.0.113.0/24"] })).toEqual([
      {
        resource: "partner",
        message:
          "FirewallRule partner opens SSH (22) to 198.51.100.0/24, outside allowedSources (203.0.113.0/24): " +
          "limit cidrList to the addresses that need it",
      },
    ]);
    expect(await runStackPolicy(sensitivePortPolicy, stack, { ports: [8443] })).toEqual([
      {
        resource: "admin",
        message: "FirewallRule admin opens port 8443 to 0.0.0.0/0: limit cidrList to the addresses that need it",
      },
    ]);
  });

  test("a forwarded sensitive port is open through its address's firewall rules, or to every address with none", async () => {
    const stack = [
      ip,
      otherIp,
      vm,
      forwarding("ssh-in", { publicPort: 2222, privatePort: 22 }),
      firewall("fw-2222", { startPort: 2222 }),
      forwarding("rdp-in", { publicPort: 3389, privatePort: 3389 }, "other-ip"),
      // On another address: guards nothing of ip's.
      firewall("fw-other", { startPort: 2222, cidrList: "203.0.113.0/24" }, "other-ip"),
      forwarding("web-in", { publicPort: 8080, privatePort: 80 }),
    ];
    expect(await runStackPolicy(sensitivePortPolicy, stack)).toEqual([
      {
        resource: "ssh-in",
        message:
          "PortForwardingRule ssh-in forwards SSH (22) of instance vm from public port 2222, open to 0.0.0.0/0 by " +
          "FirewallRule fw-2222: let a FirewallRule on the public port admit only the addresses that need it",
      },
      {
        resource: "rdp-in",
        message:
          "PortForwardingRule rdp-in forwards RDP (3389) of instance vm, open to every address: no FirewallRule covers " +
          "public port 3389: let a FirewallRule on the public port admit only the addresses that need it",
      },
    ]);
    const narrowed = stack.map((d) =>
      d.name === "fw-2222" ? firewall("fw-2222", { startPort: 2222, cidrList: "203.0.113.0/24" }) : d,
    );
    expect(
      await runStackPolicy(
        sensitivePortPolicy,
        narrowed.filter((d) => d.name !== "rdp-in"),
      ),
    ).toEqual([]);
  });
});

describe("port-forwarding-without-firewall-rule", () => {
  test("forwarded public ports that no firewall rule of the same address and protocol covers are named", async () => {
    const stack = [
      ip,
      otherIp,
      vm,
      forwarding("web-in", { publicPort: 8080, publicEndPort: 8090, privatePort: 80, privateEndPort: 90 }),
      firewall("fw-web", { startPort: 8080, endPort: 8085, cidrList: "0.0.0.0/0" }),
      firewall("fw-udp", { protocol: "UDP", startPort: 8086, endPort: 8090 }),
      forwarding("dns-in", { protocol: "UDP", publicPort: 53, privatePort: 53 }, "other-ip"),
      // Guarded by its known address uuid (no resource of the stack holds it).
      forwarding("known", { ipAddressUuid: "ip-uuid-1", publicPort: 25, privatePort: 25 }, undefined),
      { ...firewall("fw-known", { ipAddressUuid: "ip-uuid-1", startPort: 1, endPort: 1024 }), from: {} },
      {
        kind: "SecurityGroupPortForwardingRule",
        name: "sg-in",
        props: { securityGroupUuid: "sg-1", protocol: "TCP", publicPort: 2000, privatePort: 2000 },
      },
    ];
    expect(await runStackPolicy(unguardedForwardingPolicy, stack)).toEqual([
      {
        resource: "web-in",
        message:
          "PortForwardingRule web-in forwards TCP 8080-8090 of PublicIpAddress ip to instance vm, and no FirewallRule on it " +
          "covers TCP 8086-8090: add a FirewallRule with the sources that may reach it",
      },
      {
        resource: "dns-in",
        message:
          "PortForwardingRule dns-in forwards UDP 53 of PublicIpAddress other-ip to instance vm, and no FirewallRule on it " +
          "covers UDP 53: add a FirewallRule with the sources that may reach it",
      },
      {
        resource: "sg-in",
        message:
          "SecurityGroupPortForwardingRule sg-in forwards TCP 2000 of security group sg-1 to the members of its security group, and no " +
          "SecurityGroupFirewallRule on it covers TCP 2000: add a SecurityGroupFirewallRule with the sources that may reach it",
      },
    ]);
  });

  test("public ports not known at preview: named only when no firewall rule is on the address at all", async () => {
    const unknownPorts = forwarding("later", { publicPort: UNKNOWN, privatePort: 22 });
    expect(await runStackPolicy(unguardedForwardingPolicy, [ip, vm, unknownPorts])).toEqual([
      {
        resource: "later",
        message:
          "PortForwardingRule later forwards PublicIpAddress ip to instance vm, and no FirewallRule is on it: " +
          "add a FirewallRule with the sources that may reach it",
      },
    ]);
    expect(
      await runStackPolicy(unguardedForwardingPolicy, [ip, vm, unknownPorts, firewall("fw", { startPort: 22 })]),
    ).toEqual([]);
  });
});

describe("no-weak-vpn-settings", () => {
  const gateway = (props: Record<string, unknown>, dynamic = false): Described => ({
    kind: "VpnCustomerGateway",
    name: "office",
    dynamic,
    props: {
      name: "office",
      gateway: "198.51.100.7",
      cidrList: "192.168.0.0/24",
      ipsecPresharedKey: "a-long-enough-preshared-key-0123",
      ikePolicy: "Group 14(modp2048)",
      ikeEncryption: "aes256",
      ikeHash: "sha256",
      espPolicy: "Group 14(modp2048)",
      espEncryption: "aes256",
      espHash: "sha256",
      ikeVersion: "ikev2",
      ...props,
    },
  });

  test("strong settings pass; each weak one is named, the short key without its value or length", async () => {
    expect(await runResourcePolicy(weakVpnPolicy, gateway({}))).toEqual([]);
    const weak = gateway(
      {
        ikeEncryption: "3des",
        ikeHash: "md5",
        espHash: "sha1",
        ikePolicy: "Group 2(modp1024)",
        espPolicy: undefined,
        ikeVersion: "ikev1",
        ipsecPresharedKey: "short-key",
      },
      true,
    );
    const messages = await runResourcePolicy(weakVpnPolicy, weak);
    expect(messages).toEqual([
      "VpnCustomerGateway office has weak settings: ikeEncryption 3des; ikeHash md5; espHash sha1; " +
        "ikePolicy Group 2(modp1024) (a Diffie-Hellman group under 2048 bits); espPolicy None (no perfect forward secrecy); " +
        "ikeVersion ikev1; an ipsecPresharedKey shorter than 20 characters",
    ]);
    expect(messages.join()).not.toContain("short-key");
  });

  test("config: what counts as weak; a value not known at preview is not judged", async () => {
    const sha1 = gateway({ ikeHash: "sha1", espHash: "sha1", ipsecPresharedKey: UNKNOWN, espPolicy: "None" });
    expect(
      await runResourcePolicy(weakVpnPolicy, sha1, { weakHashes: ["md5"], requirePerfectForwardSecrecy: false }),
    ).toEqual([]);
    expect(
      await runResourcePolicy(weakVpnPolicy, gateway({ ikePolicy: "Group 5(modp1536)" }), { minDhGroupBits: 1536 }),
    ).toEqual([]);
    expect(await runResourcePolicy(weakVpnPolicy, gateway({ ikeEncryption: UNKNOWN }))).toEqual([]);
  });
});
