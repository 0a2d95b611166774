/**
 * The operation table against the spec: every endpoint row of api-spec.md (transcribed below, one
 * "METHOD path" per row, the cost-estimate rows expanded) has exactly one operation, and nothing
 * else is there but the async job status of api-notes.md.
 */
import { AREAS, OPERATIONS } from "../../../provider/client";
import type { AnyOperation } from "../../../provider/client";
import { toWire, validateInput } from "../../../provider/client/caller";
import { ApiInputError } from "../../../provider/client/errors";

const SPEC_ENDPOINTS = [
  "GET /restapi/host/hostList",
  "POST /restapi/vpc/createVpc",
  "GET /restapi/vpc/vpcList",
  "GET /restapi/vpc/vpcId",
  "PUT /restapi/vpc/updateVpc",
  "GET /restapi/vpc/restartVpc",
  "POST /restapi/vpc/createVpcNetwork",
  "PUT /restapi/vpc/updateVpcNetwork",
  "DELETE /restapi/vpc/deleteVpc/{uuid}",
  "POST /restapi/securitygroup/createSecurityGroup",
  "GET /restapi/securitygroup/securityList",
  "POST /restapi/securitygroup/createSecurityGroupFirewallRule",
  "POST /restapi/securitygroup/createSecurityGroupEgressRule",
  "POST /restapi/securitygroup/createSecurityGroupPortForwardingRule",
  "DELETE /restapi/securitygroup/deleteSecurityGroupRule",
  "DELETE /restapi/securitygroup/deleteSecurityGroup/{uuid}",
  "POST /restapi/instance/createInstance",
  "GET /restapi/instance/instanceList",
  "GET /restapi/instance/vmStatus",
  "GET /restapi/instance/startInstance",
  "GET /restapi/instance/stopInstance",
  "GET /restapi/instance/resizeVm",
  "GET /restapi/instance/recoverVm",
  "GET /restapi/instance/destroyInstance",
  "PUT /restapi/instance/updateInstanceName",
  "GET /restapi/instance/instanceNetworkList",
  "POST /restapi/instance/attachNetwork",
  "POST /restapi/instance/detachNetwork",
  "GET /restapi/instance/attachIso",
  "GET /restapi/instance/detachIso",
  "GET /restapi/instance/resetSSHkey",
  "GET /restapi/instance/instancePasswordList",
  "POST /restapi/network/createNetwork",
  "GET /restapi/network/networkList",
  "GET /restapi/network/networkId",
  "PUT /restapi/network/updateNetwork",
  "GET /restapi/network/restartNetwork",
  "GET /restapi/network/replaceAcl",
  "GET /restapi/network/changeSecurityGroup",
  "DELETE /restapi/network/deleteNetwork/{uuid}",
  "POST /restapi/volume/createVolume",
  "GET /restapi/volume/volumeList",
  "GET /restapi/volume/resizeVolume",
  "GET /restapi/volume/attachVolume",
  "GET /restapi/volume/detachVolume",
  "POST /restapi/volume/uploadVolume",
  "DELETE /restapi/volume/deleteVolume/{uuid}",
  "GET /restapi/invoice/listByClient",
  "GET /restapi/invoice/generateInvoice",
  "GET /restapi/invoice/changeInvoiceCost",
  "GET /restapi/invoice/getInvoicePaymentStatus",
  "POST /restapi/invoice/updateInvoiceStatus",
  "POST /restapi/invoice/updateInvoiceTax",
  "GET /restapi/invoice/listTaxPendingInvoice",
  "POST /restapi/kubernetes/createKubernetes",
  "GET /restapi/kubernetes/listCluster",
  "GET /restapi/kubernetes/listNodes",
  "PUT /restapi/kubernetes/startKubernetes",
  "PUT /restapi/kubernetes/stopKubernetes",
  "PUT /restapi/kubernetes/scaleKubernetes",
  "DELETE /restapi/kubernetes/destroyKubernetes",
  "GET /restapi/ipaddress/acquireIpAddress",
  "GET /restapi/ipaddress/ipAddressList",
  "DELETE /restapi/ipaddress/releaseIpAddress",
  "POST /restapi/ipaddress/enableStaticNat",
  "DELETE /restapi/ipaddress/disableStaticNat",
  "GET /restapi/ipaddress/enableremotevpnaccess",
  "DELETE /restapi/ipaddress/disableremotevpnaccess",
  "GET /restapi/costestimate/getpublickey",
  "GET /restapi/costestimate/multicurrency",
  "GET /restapi/costestimate/zone-list",
  "GET /restapi/costestimate/service-list",
  "GET /restapi/costestimate/compute-plan-types",
  "GET /restapi/costestimate/compute-category-list",
  "GET /restapi/costestimate/compute-plan-list",
  "GET /restapi/costestimate/storage-category-list",
  "GET /restapi/costestimate/storage-plan-list",
  "GET /restapi/costestimate/networkoffering-list",
  "GET /restapi/costestimate/vpcoffering-list",
  "GET /restapi/costestimate/template-platform-list",
  "GET /restapi/costestimate/template-distribution-list",
  "GET /restapi/costestimate/template-category-list",
  "GET /restapi/costestimate/template-list",
  "GET /restapi/costestimate/kubernetes-version-list",
  "GET /restapi/costestimate/ip-cost",
  "GET /restapi/costestimate/portforwarding-cost",
  "GET /restapi/costestimate/loadbalancer-cost",
  "GET /restapi/costestimate/vpn-user-cost",
  "GET /restapi/costestimate/snapshot-cost",
  "GET /restapi/costestimate/vm-snapshot-cost",
  "GET /restapi/costestimate/vm-scheduler-cost",
  "GET /restapi/costestimate/k8s-cost",
  "GET /restapi/costestimate/bandwidth-cost",
  "GET /restapi/costestimate/object-storage-cost",
  "GET /restapi/costestimate/additional-template-resize-cost",
  "GET /restapi/costestimate/list-sfs-storage-offerings",
  "GET /restapi/costestimate/list-all-support-category",
  "GET /restapi/costestimate/list-all-support-plans",
  "GET /restapi/costestimate/tax",
  "POST /restapi/vpncustomergateway/addVpnCustomerGateway",
  "GET /restapi/vpncustomergateway/vpnCustomerGatewayList",
  "PUT /restapi/vpncustomergateway/updateVpnCustomerGateway",
  "DELETE /restapi/vpncustomergateway/deleteVpnCustomerGateway/{uuid}",
  "POST /restapi/loadbalancerrule/createLoadBalancerRule",
  "GET /restapi/loadbalancerrule/loadBalancerRuleList",
  "PUT /restapi/loadbalancerrule/updateLoadBalancerRule",
  "DELETE /restapi/loadbalancerrule/deleteLoadBalancerRule/{uuid}",
  "POST /restapi/vpnconnection/addVpnConnection",
  "GET /restapi/vpnconnection/vpnConnectionList",
  "PUT /restapi/vpnconnection/resetVpnConnection/{uuid}",
  "DELETE /restapi/vpnconnection/deleteVpnConnection/{uuid}",
  "POST /restapi/internallb/createInternalLb",
  "GET /restapi/internallb/internalLbList",
  "GET /restapi/internallb/assignLbRule",
  "DELETE /restapi/internallb/deleteInternalLb/{uuid}",
  "POST /restapi/vmsnapshot/createVmSnapshot",
  "GET /restapi/vmsnapshot/vmsnapshotList",
  "GET /restapi/vmsnapshot/revertToVmSnapshot",
  "DELETE /restapi/vmsnapshot/deleteVmSnapshot/{uuid}",
  "POST /restapi/portforwardingrule/createPortForwardingRule",
  "GET /restapi/portforwardingrule/portForwardingRuleList",
  "DELETE /restapi/portforwardingrule/deletePortForwardingRule/{uuid}",
  "POST /restapi/snapshotPolicy/createSnapshotPolicy",
  "GET /restapi/snapshotPolicy/snapshotPolicyList",
  "DELETE /restapi/snapshotPolicy/deleteSnapshotPolicy/{uuid}",
  "POST /restapi/firewallrule/createFirewallRule",
  "GET /restapi/firewallrule/firewallRuleList",
  "DELETE /restapi/firewallrule/deleteFirewallRule/{uuid}",
  "POST /restapi/egressrule/createEgressRule",
  "GET /restapi/egressrule/egressRuleList",
  "DELETE /restapi/egressrule/deleteEgressRule/{uuid}",
  "POST /restapi/resourcetags/createTags",
  "GET /restapi/resourcetags/resourceTagsList",
  "DELETE /restapi/resourcetags/deleteResourceTag/{uuid}",
  "POST /restapi/snapshot/createSnapshot",
  "GET /restapi/snapshot/snapshotList",
  "DELETE /restapi/snapshot/deleteSnapshot/{uuid}",
];

const key = (operation: AnyOperation): string => `${operation.method} ${operation.path}`;
const inSpec = OPERATIONS.filter((operation) => !operation.outsideSpec);

describe("the operation table", () => {
  test("has one operation per endpoint of the spec, all 137 of them", () => {
    expect(SPEC_ENDPOINTS).toHaveLength(137);
    expect(inSpec.map(key).sort()).toEqual([...SPEC_ENDPOINTS].sort());
  });

  test("holds outside the spec only the async job status of api-notes.md", () => {
    expect(OPERATIONS.filter((operation) => operation.outsideSpec).map(key)).toEqual([
      "GET /restapi/asyncjob/resourceStatus",
    ]);
  });

  test("names each operation after the last segment of its path", () => {
    for (const operation of OPERATIONS) {
      const segments = operation.path.split("/").filter((s) => s && !s.startsWith("{"));
      expect(operation.name).toBe(segments[segments.length - 1]);
    }
  });

  test("marks as mutating every create, delete, update and action, including those sent by GET", () => {
    const reads = new Set([
      ...["hostList", "vpcList", "vpcId", "securityList", "instanceList", "vmStatus", "instanceNetworkList"],
      ...["instancePasswordList", "networkList", "networkId", "volumeList", "listByClient", "listCluster"],
      ...["getInvoicePaymentStatus", "listTaxPendingInvoice", "listNodes", "ipAddressList", "vpnConnectionList"],
      ...["vpnCustomerGatewayList", "loadBalancerRuleList", "internalLbList", "vmsnapshotList", "snapshotList"],
      ...["portForwardingRuleList", "snapshotPolicyList", "firewallRuleList", "egressRuleList", "resourceTagsList"],
      "resourceStatus",
    ]);
    for (const operation of OPERATIONS) {
      const read = reads.has(operation.name) || operation.path.startsWith("/restapi/costestimate/");
      expect([operation.name, operation.mutating]).toEqual([operation.name, !read]);
    }
  });

  test("refuses unknown input fields before anything is sent", () => {
    expect(() => validateInput(AREAS.vpc.list, { zoneUuid: "z", zone: "typo" })).toThrow(ApiInputError);
    try {
      validateInput(AREAS.vpc.list, { zoneUuid: "z", zone: "typo" });
    } catch (error) {
      expect((error as ApiInputError).field).toBe("zone");
      expect((error as ApiInputError).operation).toBe("vpcList");
    }
  });
});

describe("input placement", () => {
  const wire = (operation: AnyOperation, input: Record<string, unknown>) =>
    toWire(operation, validateInput(operation, input));

  test("a GET sends its inputs in the query, as text, and no body", () => {
    const request = wire(AREAS.instance.stop, { uuid: "i-1", forceStop: true });
    expect(request).toMatchObject({ method: "GET", path: "/restapi/instance/stopInstance" });
    expect(request.query).toEqual({ uuid: "i-1", forceStop: "true" });
    expect(request.body).toBeUndefined();
  });

  test("a POST sends its inputs as a JSON body, typed", () => {
    const request = wire(AREAS.volume.create, { name: "v", zoneUuid: "z", storageOfferingUuid: "s", diskSize: 20 });
    expect(request.query).toEqual({});
    expect(request.body).toEqual({ name: "v", zoneUuid: "z", storageOfferingUuid: "s", diskSize: 20 });
  });

  test("path parameters go in the path, encoded", () => {
    const request = wire(AREAS.vpc.delete, { uuid: "a/b c" });
    expect(request.path).toBe("/restapi/vpc/deleteVpc/a%2Fb%20c");
    expect(request.query).toEqual({});
  });

  test("mixed placements: createNetwork and createTags split query and body as the spec says", () => {
    const network = wire(AREAS.network.create, { name: "n", zoneUuid: "z", networkOfferingUuid: "o", isPublic: false });
    expect(network.query).toEqual({ isPublic: "false" });
    expect(network.body).toEqual({ name: "n", zoneUuid: "z", networkOfferingUuid: "o" });
    const tag = wire(AREAS.resourceTag.create, {
      resourceType: "Vpc",
      zoneUuid: "z",
      resourceUuid: "r",
      key: "k",
      value: "v",
    });
    expect(tag.query).toEqual({ resourceType: "Vpc", zoneUuid: "z" });
    expect(tag.body).toEqual({ resourceUuid: "r", key: "k", value: "v" });
  });

  test("the Kubernetes PUTs carry their inputs in the query and send no body", () => {
    const request = wire(AREAS.kubernetes.scale, { uuid: "c", autoscalingEnabled: false, size: 3 });
    expect(request).toMatchObject({ method: "PUT", query: { uuid: "c", autoscalingEnabled: "false", size: "3" } });
    expect(request.body).toBeUndefined();
  });

  test("local inputs are not sent (the zone that confirms a volume delete)", () => {
    const request = wire(AREAS.volume.delete, { uuid: "v", zoneUuid: "z" });
    expect(request.path).toBe("/restapi/volume/deleteVolume/v");
    expect(request.query).toEqual({});
  });

  test("the public key call goes without credentials, every other with them", () => {
    expect(wire(AREAS.costEstimate.publicKey, {}).authenticated).toBe(false);
    expect(OPERATIONS.filter((operation) => operation.authenticated === false).map((o) => o.name)).toEqual([
      "getpublickey",
    ]);
  });
});

describe("how mutations are resent after an ambiguous failure", () => {
  const named = (kind: string | undefined) =>
    OPERATIONS.filter((o) => o.resend === kind)
      .map((o) => o.name)
      .sort();

  test("only mutations carry a resend policy", () => {
    expect(OPERATIONS.filter((o) => o.resend !== undefined && !o.mutating).map((o) => o.name)).toEqual([]);
  });

  test("every DELETE is resent as a delete (a 404 to the resend means done)", () => {
    const deletes = OPERATIONS.filter((o) => o.method === "DELETE").map((o) => o.name);
    expect(deletes.filter((name) => !named("delete").includes(name))).toEqual([]);
  });

  test("creates are never resent blindly: their call sites verify by reading back", () => {
    const creates = OPERATIONS.filter((o) => o.mutating && /^(create|add|acquire|upload)/i.test(o.name));
    expect(creates.length).toBeGreaterThan(15);
    expect(creates.filter((o) => o.resend !== undefined).map((o) => o.name)).toEqual([]);
  });

  test("the updates resent as they are", () => {
    expect(named("idempotent")).toEqual([
      "assignLbRule",
      "changeSecurityGroup",
      "replaceAcl",
      "resetVpnConnection",
      "resizeVm",
      "restartNetwork",
      "restartVpc",
      "updateInstanceName",
      "updateLoadBalancerRule",
      "updateNetwork",
      "updateVpc",
      "updateVpcNetwork",
      "updateVpnCustomerGateway",
    ]);
  });
});
