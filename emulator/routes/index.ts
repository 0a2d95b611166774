// Every API area of the emulator. Each routes file exports `register`; add a line per area.
import type { AreaRegistrar } from "../core";
import { register as registerIpAddress } from "./ipaddress";
import { register as registerNetwork } from "./network";
import { register as registerVpc } from "./vpc";
import { register as registerCostEstimate } from "./costestimate";
import { register as registerInvoice } from "./invoice";
import { register as registerSecurityGroup } from "./securitygroup";
import { register as registerFirewallRule } from "./firewallrule";
import { register as registerEgressRule } from "./egressrule";
import { register as registerPortForwardingRule } from "./portforwardingrule";
import { register as registerLoadBalancerRule } from "./loadbalancerrule";
import { register as registerInternalLb } from "./internallb";
import { register as registerVpnCustomerGateway } from "./vpncustomergateway";
import { register as registerVpnConnection } from "./vpnconnection";

import { register as registerInstance } from "./instance";
import { register as registerVolume } from "./volume";
import { register as registerSnapshot } from "./snapshot";
import { register as registerSnapshotPolicy } from "./snapshotpolicy";
import { register as registerVmSnapshot } from "./vmsnapshot";
import { register as registerKubernetes } from "./kubernetes";
import { register as registerHost } from "./host";
import { register as registerResourceTags } from "./resourcetags";
export const AREAS: ReadonlyArray<{ name: string; register: AreaRegistrar }> = [
  { name: "vpc", register: registerVpc },
  { name: "network", register: registerNetwork },
  { name: "ipaddress", register: registerIpAddress },
  { name: "costestimate", register: registerCostEstimate },
  { name: "invoice", register: registerInvoice },
  { name: "securitygroup", register: registerSecurityGroup },
  { name: "firewallrule", register: registerFirewallRule },
  { name: "egressrule", register: registerEgressRule },
  { name: "portforwardingrule", register: registerPortForwardingRule },
  { name: "loadbalancerrule", register: registerLoadBalancerRule },
  { name: "internallb", register: registerInternalLb },
  { name: "vpncustomergateway", register: registerVpnCustomerGateway },
  { name: "vpnconnection", register: registerVpnConnection },
  { name: "instance", register: registerInstance },
  { name: "volume", register: registerVolume },
  { name: "snapshot", register: registerSnapshot },
  { name: "snapshotpolicy", register: registerSnapshotPolicy },
  { name: "vmsnapshot", register: registerVmSnapshot },
  { name: "kubernetes", register: registerKubernetes },
  { name: "host", register: registerHost },
  { name: "resourcetags", register: registerResourceTags },
];
