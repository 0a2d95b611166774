/**
 * An isolated network and an instance on it, for the tests of slow creates: the instance waits
 * for Running as long as the emulator's asynchronous delay. `createTimeout` (optional) becomes the
 * instance's customTimeouts.create.
 */
import * as pulumi from "@pulumi/pulumi";
import * as restcloud from "pulumi-restcloud";

const config = new pulumi.Config();
const createTimeout = config.get("createTimeout");

const network = new restcloud.Network("net", { networkOfferingUuid: config.require("isolatedOfferingUuid") });
const vm = new restcloud.Instance(
  "vm",
  {
    templateUuid: config.require("ubuntuTemplateUuid"),
    computeOfferingUuid: config.require("smallPlanUuid"),
    networkUuid: network.id,
  },
  createTimeout ? { customTimeouts: { create: createTimeout } } : {},
);

export const networkId = network.id;
export const instanceId = vm.id;
