/**
 * The storage resources, with `step` selecting the variant: 0 the initial stack, 1 the VM snapshot's
 * revertTrigger set (a revert in place), 2 replacing arguments changed (every storage resource
 * replaces). The catalog ids come from the look-up functions, which read the stack's restcloud:*
 * configuration (the default zone included).
 */
import * as pulumi from "@pulumi/pulumi";
import * as restcloud from "pulumi-restcloud";

export = async () => {
  const config = new pulumi.Config();
  const step = config.getNumber("step") ?? 0;
  const reverted = step >= 1;
  const replaced = step >= 2;

  const [offerings, plan, template, storage] = await Promise.all([
    restcloud.getNetworkOfferings({ type: "Isolated" }),
    restcloud.getComputePlan({ minCores: 1 }),
    restcloud.getTemplate({ nameRegex: "ubuntu 24" }),
    restcloud.getStoragePlans({ isCustom: true, nameRegex: "^ssd" }),
  ]);

  const network = new restcloud.Network("network", { networkOfferingUuid: offerings.offerings[0].uuid });
  const instance = new restcloud.Instance("instance", {
    templateUuid: template.uuid,
    computeOfferingUuid: plan.uuid,
    networkUuid: network.id,
  });
  const volume = new restcloud.Volume("volume", {
    storageOfferingUuid: storage.plans[0].uuid,
    size: 20,
    instanceUuid: instance.id,
  });

  const vmSnapshot = new restcloud.VmSnapshot("vmSnapshot", {
    instanceUuid: instance.id,
    description: replaced ? "before the upgrade, again" : "before the upgrade",
    snapshotMemory: true,
    revertTrigger: reverted ? "restore-1" : undefined,
  });
  const volumeSnapshot = new restcloud.VolumeSnapshot("volumeSnapshot", {
    volumeUuid: volume.id,
    name: replaced ? "data-backup-2" : "data-backup-1",
  });
  const policy = new restcloud.SnapshotPolicy("policy", {
    volumeUuid: volume.id,
    intervalType: "WEEKLY",
    scheduleTime: replaced ? "03:30" : "02:00",
    dayOfWeek: 1,
    timeZone: "Europe/Berlin",
    maximumSnapshots: 4,
  });
  const volumeTag = new restcloud.ResourceTag("volumeTag", {
    resourceType: "Volume",
    resourceUuid: volume.id,
    key: "tier",
    value: replaced ? "gold" : "silver",
  });
  const snapshotTag = new restcloud.ResourceTag("snapshotTag", {
    resourceType: "VMSnapshot",
    resourceUuid: vmSnapshot.id,
    key: "purpose",
    value: "upgrade",
  });

  return {
    instanceId: instance.id,
    volumeId: volume.id,
    vmSnapshotId: vmSnapshot.id,
    vmSnapshotStatus: vmSnapshot.status,
    vmSnapshotIsCurrent: vmSnapshot.isCurrent,
    volumeSnapshotId: volumeSnapshot.id,
    volumeSnapshotStatus: volumeSnapshot.status,
    policyId: policy.id,
    volumeTagId: volumeTag.id,
    snapshotTagId: snapshotTag.id,
    templateName: template.name,
  };
};
