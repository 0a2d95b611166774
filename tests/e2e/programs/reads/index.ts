/**
 * An isolated network and an instance on it, then the read-only functions of issue 25: the
 * instance's generated passwords through the Output form (a secret Output, exported: it must stay
 * ciphertext in the state and hidden in the CLI's output), the cost-estimate key pair the same way,
 * an invoice's payment status, and the catalog rows. The same program in both modes
 * (`restcloud:mode`): the functions pick the plugin's Invoke or the direct call as the resources do.
 *
 * Config: `isolatedOfferingUuid`, `smallPlanUuid`, `ubuntuTemplateUuid`, `invoiceId`, `languageUuid`.
 */
import * as pulumi from "@pulumi/pulumi";
import * as restcloud from "pulumi-restcloud";

export = async () => {
  const config = new pulumi.Config();
  const network = new restcloud.Network("net", { networkOfferingUuid: config.require("isolatedOfferingUuid") });
  const vm = new restcloud.Instance("vm", {
    templateUuid: config.require("ubuntuTemplateUuid"),
    computeOfferingUuid: config.require("smallPlanUuid"),
    networkUuid: network.id,
  });

  // Secret answers: the Output forms, with an argument that is an output of the program.
  const passwords = restcloud.getInstancePasswordsOutput({ instanceUuid: vm.id });
  const publicKey = restcloud.getPublicKeyOutput();

  // Plain answers.
  const payment = await restcloud.getInvoicePaymentStatus({ invoiceId: config.require("invoiceId") });
  const services = await restcloud.getServiceCategories({ languageUuid: config.require("languageUuid") });
  const [scheduler, bandwidth, objectStorage] = await Promise.all([
    restcloud.getVmSchedulerCost(),
    restcloud.getBandwidthCost(),
    restcloud.getObjectStorageCost(),
  ]);
  const sfs = await restcloud.getSfsStorageOfferings();
  const supportCategories = await restcloud.getSupportCategories();
  const supportPlans = await restcloud.getSupportPlans({ categoryUuid: supportCategories.categories[0]!.uuid });
  const tax = await restcloud.getTax();

  return {
    instanceId: vm.id,
    password: passwords.password,
    passwordCount: passwords.apply((p) => p.passwords.length),
    publicSecretKey: publicKey.secretKey,
    paymentStatus: payment.status,
    paymentIsPaid: payment.isPaid,
    serviceCategories: services.categories.map((c) => c.name),
    vmSchedulerCost: scheduler.vmSchedulerCost,
    bandwidthCost: bandwidth.bandwidthCost,
    objectStorageCost: objectStorage.objectStorageCost,
    sfsOfferings: sfs.offerings.map((o) => o.name),
    supportPlans: supportPlans.plans.map((p) => p.name),
    tax: `${tax.taxName} ${tax.taxPercentage}%`,
  };
};
