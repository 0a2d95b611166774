/**
 * A network and two instances on it, for the test of an API outage in the middle of the instances'
 * creates. `createTimeout` (optional) becomes the instances' customTimeouts.create.
 */
import * as pulumi from "@pulumi/pulumi";
import * as restcloud from "pulumi-restcloud";

const config = new pulumi.Config();
const createTimeout = config.get("createTimeout");

const network = new restcloud.Network("net", { networkOfferingUuid: config.require("isolatedOfferingUuid") });
const instances = ["vm-a", "vm-b"].map(
  (name) =>
    new restcloud.Instance(
      name,
      {
        templateUuid: config.require("ubuntuTemplateUuid"),
        computeOfferingUuid: config.require("smallPlanUuid"),
        networkUuid: network.id,
      },
      createTimeout ? { customTimeouts: { create: createTimeout } } : {},
    ),
);

export const networkId = network.id;
export const instanceIds = instances.map((instance) => instance.id);
