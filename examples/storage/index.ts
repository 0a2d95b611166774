/**
 * Storage: an instance with a data volume; a snapshot of the volume, daily and weekly snapshot
 * policies on it, a VM snapshot of the instance (set `restorePoint` to revert the instance to it),
 * and tags on the volume and the instance.
 */
import * as pulumi from "@pulumi/pulumi";
import * as restcloud from "pulumi-restcloud";

export = async () => {
  const config = new pulumi.Config();
  const zone = await restcloud.getZone({ nameRegex: config.get("zoneName") ?? "." });
  const zoneUuid = zone.uuid;
  const [offerings, plan, template, storage] = await Promise.all([
    restcloud.getNetworkOfferings({ zoneUuid, type: "Isolated" }),
    restcloud.getComputePlan({ zoneUuid, minCores: 1, minMemoryGib: 2 }),
    restcloud.getTemplate({ zoneUuid, nameRegex: "debian" }),
    restcloud.getStoragePlans({ zoneUuid, isCustom: true, nameRegex: "ssd" }),
  ]);

  const network = new restcloud.Network("storage", { zoneUuid, networkOfferingUuid: offerings.offerings[0].uuid });
  const server = new restcloud.Instance("db", {
    zoneUuid,
    templateUuid: template.uuid,
    computeOfferingUuid: plan.uuid,
    networkUuid: network.id,
  });
  const data = new restcloud.Volume("db-data", {
    zoneUuid,
    storageOfferingUuid: storage.plans[0].uuid,
    size: config.getNumber("dataSizeGb") ?? 40,
    instanceUuid: server.id,
  });

  // A one-off backup of the data volume; it is kept even when the volume goes.
  const backup = new restcloud.VolumeSnapshot("db-data-initial", { zoneUuid, volumeUuid: data.id });

  // Recurring backups: every night at 01:30 (7 kept) and every Sunday at 04:00 (4 kept), Berlin time.
  new restcloud.SnapshotPolicy("db-data-nightly", {
    volumeUuid: data.id,
    intervalType: "DAILY",
    scheduleTime: "01:30",
    timeZone: "Europe/Berlin",
    maximumSnapshots: 7,
  });
  new restcloud.SnapshotPolicy("db-data-weekly", {
    volumeUuid: data.id,
    intervalType: "WEEKLY",
    scheduleTime: "04:00",
    dayOfWeek: 1,
    timeZone: "Europe/Berlin",
    maximumSnapshots: 4,
  });

  // A restore point of the whole instance, memory included. Setting `restorePoint` (any new text,
  // e.g. `pulumi config set restorePoint 2025-06-01`) reverts the instance to it during the next up.
  const restorePoint = new restcloud.VmSnapshot("db-restore-point", {
    zoneUuid,
    instanceUuid: server.id,
    description: "the database server as first deployed",
    snapshotMemory: true,
    revertTrigger: config.get("restorePoint") || undefined,
  });

  const tags: Array<[string, "UserVm" | "Volume", pulumi.Output<string>]> = [
    ["db-role", "UserVm", server.id],
    ["db-data-role", "Volume", data.id],
  ];
  for (const [name, resourceType, resourceUuid] of tags) {
    new restcloud.ResourceTag(name, { zoneUuid, resourceType, resourceUuid, key: "role", value: "database" });
  }
  new restcloud.ResourceTag("db-data-backup", {
    zoneUuid,
    resourceType: "Volume",
    resourceUuid: data.id,
    key: "backup",
    value: "daily+weekly",
  });

  return {
    serverId: server.id,
    dataVolumeId: data.id,
    backupId: backup.id,
    backupTime: backup.snapshotTime,
    restorePointId: restorePoint.id,
    restorePointIsCurrent: restorePoint.isCurrent,
  };
};
