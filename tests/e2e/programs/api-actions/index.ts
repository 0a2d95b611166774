/**
 * Actions as triggers, and the instance's state in place, with `step` selecting the variant:
 * 0 the initial stack (every trigger list set: creating performs none of the actions, and the ISO
 * is attached by the create's follow-up); 1 every trigger list changed, the ISO and the SSH key
 * changed, the uploaded volume attached; 2 the network's trigger list and the ISO removed (a detach,
 * no restart). The catalog's ids come from the stack's config (tests/e2e/catalog-ids.ts).
 */
import * as pulumi from "@pulumi/pulumi";
import * as restcloud from "pulumi-restcloud";

const config = new pulumi.Config();
const step = config.getNumber("step") ?? 0;
const ISOS = ["3a1f0c1e-0000-4000-8000-000000000001", "3a1f0c1e-0000-4000-8000-000000000002"];

const vpc = new restcloud.Vpc("vpc", {
  cidr: "10.30.0.0/16",
  vpcOfferingUuid: config.require("vpcOfferingUuid"),
  restartTriggers: step === 0 ? ["router-0"] : ["router-1", { reason: "new routes" }],
});
const network = new restcloud.Network("network", {
  networkOfferingUuid: config.require("isolatedOfferingUuid"),
  restartTriggers: step === 0 ? [0] : step === 1 ? [1] : undefined,
});
const vm = new restcloud.Instance("vm", {
  templateUuid: config.require("ubuntuTemplateUuid"),
  computeOfferingUuid: config.require("smallPlanUuid"),
  networkUuid: network.id,
  sshKeyName: step === 0 ? "key-a" : "key-b",
  isoUuid: step === 0 ? ISOS[0] : step === 1 ? ISOS[1] : undefined,
  rebootTriggers: step === 0 ? ["boot-0"] : ["boot-1"],
});
const image = new restcloud.UploadedVolume("image", {
  url: "https://images.example.com/data-disk.qcow2",
  format: "QCOW2",
  instanceUuid: step >= 1 ? vm.id : undefined,
});

export const vpcId = vpc.id;
export const networkId = network.id;
export const vmId = vm.id;
export const imageId = image.id;
export const imageSize = image.size;
export const imageStatus = image.status;
