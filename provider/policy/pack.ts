// The restcloud policy pack (`@pulumi/policy`), run by `policy/restcloud-policy`: guardrails that
// `pulumi preview --policy-pack` checks on every planned resource, whichever language and front end
// registered it. Groundwork: the security policy on rules open to the world.
import { PolicyPack, type ResourceValidationArgs, type ReportViolation } from "@pulumi/policy";
import { kindOfTypeToken } from "../type-tokens";

/** Ports that must never be open to every address: SSH, RDP and the common databases. */
const SENSITIVE_PORTS: Record<number, string> = {
  22: "SSH",
  3389: "RDP",
  3306: "MySQL",
  5432: "PostgreSQL",
  1433: "SQL Server",
  27017: "MongoDB",
  6379: "Redis",
};

/** The kinds whose inputs open a port range to a CIDR list (the API's default: 0.0.0.0/0). */
const RULE_KINDS = new Set(["FirewallRule", "SecurityGroupFirewallRule"]);

const opensToWorld = (cidrList: unknown): boolean =>
  cidrList === undefined ||
  String(cidrList)
    .split(",")
    .some((cidr) => cidr.trim() === "0.0.0.0/0");

function noSensitivePortOpenToWorld(args: ResourceValidationArgs, report: ReportViolation): void {
  const kind = kindOfTypeToken(args.type);
  if (kind === undefined || !RULE_KINDS.has(kind)) return;
  const props = args.props as { protocol?: string; startPort?: number; endPort?: number; cidrList?: string };
  if (String(props.protocol ?? "").toUpperCase() === "ICMP" || !opensToWorld(props.cidrList)) return;
  const start = props.startPort;
  if (typeof start !== "number") return;
  const end = typeof props.endPort === "number" ? props.endPort : start;
  const open = Object.entries(SENSITIVE_PORTS).filter(([port]) => Number(port) >= start && Number(port) <= end);
  if (open.length > 0)
    report(
      `${kind} ${args.name} opens ${open.map(([port, what]) => `${what} (${port})`).join(", ")} to 0.0.0.0/0: ` +
        "set cidrList to the addresses that need it",
    );
}

new PolicyPack("restcloud-guardrails", {
  policies: [
    {
      name: "no-sensitive-port-open-to-world",
      description: "No firewall rule opens SSH, RDP or a database port to 0.0.0.0/0.",
      enforcementLevel: "mandatory",
      validateResource: noSensitivePortOpenToWorld,
    },
  ],
});
