/**
 * A cost estimate from the catalog, without creating anything: a zone, the smallest compute plan with
 * enough vCPUs and memory, a template and a custom-size storage plan, all looked up by name with the
 * package's functions; their prices are the stack's outputs, in the currency of your choice.
 */
import * as pulumi from "@pulumi/pulumi";
import * as restcloud from "pulumi-restcloud";

const HOURS_PER_MONTH = 730;

export = async () => {
  const config = new pulumi.Config();
  const zone = await restcloud.getZone({ nameRegex: config.get("zoneName") ?? "." });
  const zoneUuid = zone.uuid;
  const [plan, template, storagePlans, unitCosts, currencies] = await Promise.all([
    restcloud.getComputePlan({
      zoneUuid,
      minCores: config.getNumber("minCores") ?? 2,
      minMemoryGib: config.getNumber("minMemoryGib") ?? 4,
    }),
    restcloud.getTemplate({ zoneUuid, nameRegex: config.get("template") ?? "ubuntu 24" }),
    restcloud.getStoragePlans({ zoneUuid, isCustom: true, nameRegex: config.get("storage") ?? "ssd" }),
    restcloud.getUnitCosts({ zoneUuid }),
    restcloud.getCurrencies(),
  ]);

  // Catalog prices are in the default currency; `currency` converts them (e.g. USD).
  const code = config.get("currency") || currencies.currencies.find((c) => c.isDefault)!.code;
  const currency = currencies.currencies.find((c) => c.code === code);
  if (!currency) throw new Error(`unknown currency ${code}: one of ${currencies.currencies.map((c) => c.code)}`);
  const price = (amount: number | undefined) => Number(((amount ?? 0) * (currency.rate ?? 1)).toFixed(2));

  const storage = storagePlans.plans[0];
  const diskGb = config.getNumber("diskGb") ?? 50;
  const instanceMonthly = (plan.hourlyCost ?? 0) * HOURS_PER_MONTH;
  const diskMonthly = (storage?.customCostPerGb ?? 0) * diskGb;

  return {
    zone: zone.name,
    currency: currency.code,
    plan: { name: plan.name, cores: plan.cores, memoryGib: plan.memoryGib, monthly: price(instanceMonthly) },
    template: { name: template.name, minimumCores: template.minimumCores, cost: price(template.cost) },
    disk: { plan: storage?.name, sizeGb: diskGb, monthly: price(diskMonthly) },
    unitCosts: {
      publicIp: price(unitCosts.ipAddressCost),
      portForwardingRule: price(unitCosts.portForwardingCost),
      loadBalancer: price(unitCosts.loadBalancerCost),
      vpnUser: price(unitCosts.vpnUserCost),
      snapshot: price(unitCosts.snapshotCost),
      vmSnapshot: price(unitCosts.vmSnapshotCost),
    },
    monthlyTotal: price(instanceMonthly + diskMonthly + (unitCosts.ipAddressCost ?? 0)),
  };
};
