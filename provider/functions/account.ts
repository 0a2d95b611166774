// Look-ups of the account's live records: hosts, cluster nodes, an instance's networks, status and passwords (secret),
// invoices and payment status. Billing changes stay client methods: a function only reads (docs/operations.md).
import { z } from "zod";
import { withDefaultText } from "../engine/defaults";
import { ApiError } from "../client";
import { recordId, stringField, record } from "../client/schema";
import { defineFunction } from "./define";
import { distinct, identified, numeric, out } from "./fields";

// ---- hosts ---------------------------------------------------------------------------------------

export const getHosts = defineFunction({
  name: "getHosts",
  description:
    "The hypervisor hosts, with their load. Administrators only: with a regular account's keys the API answers " +
    "550 (permission denied) and the call fails saying so.",
  adminOnly: true,
  inputs: z.object({
    uuid: withDefaultText(z.string().trim().min(1).optional().describe("Only the host with this uuid."), "every host"),
  }),
  outputs: z.object({
    hosts: out.list(
      z.object({
        uuid: out.uuid("host"),
        name: out.name("host"),
        hypervisor: out.text('The hypervisor (e.g. "KVM").'),
        podName: out.text("The pod (rack group) the host is in."),
        cpuCores: out.number("Physical CPU cores of the host."),
        cpuAllocatedPercent: out.number("Share of the CPU allocated to instances, in percent."),
        cpuUsedPercent: out.number("Share of the CPU in use, in percent."),
        memoryTotalMib: out.number("Memory of the host, in MiB."),
        memoryAllocatedPercent: out.number("Share of the memory allocated to instances, in percent."),
        memoryUsedPercent: out.number("Share of the memory in use, in percent."),
        vmCount: out.number("Instances running on the host."),
        status: out.text('The host\'s status (e.g. "Active").'),
      }),
      "The hosts, in the API's order.",
    ),
  }),
  invoke: async (client, args) => {
    let hosts;
    try {
      hosts = await client.host.list({ uuid: args.uuid });
    } catch (error) {
      if (error instanceof ApiError && error.status === 550)
        throw new Error(
          "restcloud.getHosts: permission denied (HTTP 550): listing hypervisor hosts needs an administrator " +
            `account's keys (${error.serverMessage})`,
          { cause: error },
        );
      throw error;
    }
    return {
      hosts: distinct(identified(hosts)).map((h) => ({
        uuid: h.uuid,
        name: h.name,
        hypervisor: h.hypervisor,
        podName: h.podName,
        cpuCores: numeric(h.cpuCores),
        cpuAllocatedPercent: numeric(h.cpuAllocated),
        cpuUsedPercent: numeric(h.cpuUsed),
        memoryTotalMib: numeric(h.memoryTotal),
        memoryAllocatedPercent: numeric(h.memoryAllocatedPercentage),
        memoryUsedPercent: numeric(h.memoryUsedPercentage),
        vmCount: numeric(h.vmCount),
        status: h.status,
      })),
    };
  },
});

// ---- Kubernetes nodes ----------------------------------------------------------------------------

export const getClusterNodes = defineFunction({
  name: "getClusterNodes",
  description: "The nodes (instances) of a KubernetesCluster.",
  inputs: z.object({
    clusterUuid: z.string().trim().min(1).describe("The cluster whose nodes to list (a KubernetesCluster's id)."),
  }),
  outputs: z.object({
    nodes: out.list(
      z.object({
        uuid: out.uuid("node"),
        name: out.name("node"),
        state: out.text('The node\'s power state (e.g. "Running").'),
        privateIp: out.text("The node's private IP address."),
        zoneUuid: out.text("The node's zone."),
        networkUuid: out.text("The node's network."),
        templateUuid: out.text("The node's template."),
        computePlanUuid: out.text("The node's compute plan."),
        cpuCores: out.number("vCPUs of the node."),
        memoryMib: out.number("Memory of the node, in MiB."),
      }),
      "The nodes, in the API's order.",
    ),
  }),
  invoke: async (client, args) => ({
    nodes: distinct(identified(await client.kubernetes.nodes({ clusterUuid: args.clusterUuid }))).map((n) => ({
      uuid: n.uuid,
      name: n.name,
      state: n.state,
      privateIp: n.instancePrivateIp,
      zoneUuid: n.zoneUuid,
      networkUuid: n.networkUuid,
      templateUuid: n.templateUuid,
      computePlanUuid: n.computeOfferingUuid,
      cpuCores: numeric(n.cpuCore),
      memoryMib: numeric(n.memory),
    })),
  }),
});

// ---- instances -----------------------------------------------------------------------------------

const instanceUuid = z.string().trim().min(1).describe("The instance (an Instance's id).");

export const getInstanceNetworks = defineFunction({
  name: "getInstanceNetworks",
  description: "The networks an instance is attached to, with its addresses in each.",
  inputs: z.object({ instanceUuid }),
  outputs: z.object({
    networks: out.list(
      z.object({
        uuid: out.uuid("network"),
        name: out.name("network"),
        type: out.text('The network\'s type (e.g. "Isolated").'),
        isDefault: out.flag("Whether this is the instance's default network (its default route)."),
        privateIp: out.text("The instance's address in the network."),
        publicIp: out.text("The public address mapped to the instance in this network, if any."),
        netmask: out.text("The network's netmask."),
        gateway: out.text("The network's gateway."),
      }),
      "The instance's networks, in the API's order.",
    ),
  }),
  invoke: async (client, args) => ({
    networks: distinct(identified(await client.instance.networks({ uuid: args.instanceUuid }))).map((n) => ({
      uuid: n.uuid,
      name: n.name,
      type: n.type,
      isDefault: n.defaultNetwork,
      privateIp: n.privateIp,
      publicIp: n.publicIp,
      netmask: n.netmask,
      gateway: n.gateway,
    })),
  }),
});

export const getInstanceStatus = defineFunction({
  name: "getInstanceStatus",
  description: "An instance's status, read on its own (the API's VM Status).",
  inputs: z.object({ instanceUuid }),
  outputs: z.object({
    uuid: z.string().describe("The instance."),
    status: out.text('The instance\'s status (e.g. "Running", "Stopped").'),
  }),
  invoke: async (client, args) => {
    const answer = await client.instance.status({ uuid: args.instanceUuid });
    return { uuid: answer.uuid ?? args.instanceUuid, status: answer.status };
  },
});

/** A row of the (not shown in the spec) password list, as the emulator answers it. */
const passwordRow = record({ uuid: stringField, name: stringField, password: stringField, status: stringField });

export const getInstancePasswords = defineFunction({
  name: "getInstancePasswords",
  description:
    "The passwords the cloud generated for an instance (the API's instancePasswordList). The answer is secret: " +
    "use the Output form, which keeps it encrypted in the state and hidden in the CLI's output wherever the " +
    "program puts it. The spec does not show this call's parameters or answer: the instance is sent as `uuid`, " +
    "the passwords read from `listInstancePasswordResponse` (else the answer's first list).",
  inputs: z.object({ instanceUuid }),
  secretOutputs: ["passwords", "password"],
  outputs: z.object({
    passwords: out.list(
      z.object({
        password: z.string().describe("The generated password (secret)."),
        name: out.text("What the password is for, as the API names it (the instance's name in the emulator)."),
        uuid: out.text("The password record's identifier, as the API gives it."),
        status: out.text('The record\'s status (e.g. "Active").'),
      }),
      "The instance's generated passwords, in the API's order (secret).",
    ),
    password: out.text("The first of `passwords`, the one to log in with (secret); absent when there is none."),
    instanceUuid: z.string().describe("The instance."),
  }),
  invoke: async (client, args) => {
    const answer: unknown = await client.instance.passwords({ uuid: args.instanceUuid });
    const object = (answer ?? {}) as Record<string, unknown>;
    const rows = Array.isArray(object.listInstancePasswordResponse)
      ? object.listInstancePasswordResponse
      : (Object.values(object).find(Array.isArray) ?? []);
    const passwords = (rows as unknown[]).flatMap((row) => {
      const parsed = passwordRow.safeParse(row);
      return parsed.success && parsed.data.password !== undefined && parsed.data.password !== ""
        ? [{ ...parsed.data, password: parsed.data.password }]
        : [];
    });
    return {
      passwords: passwords.map((p) => ({ password: p.password, name: p.name, uuid: p.uuid, status: p.status })),
      password: passwords[0]?.password,
      instanceUuid: args.instanceUuid,
    };
  },
});

// ---- invoices ------------------------------------------------------------------------------------

const invoiceStatus = z.enum(["DRAFT", "DUE", "PAID", "OVER_DUE", "CANCEL", "TAX_PENDING"]);
const clientEmail = withDefaultText(
  z.email().optional().describe("Only the invoices of this client e-mail."),
  "the calling account's invoices",
);

export const getInvoices = defineFunction({
  name: "getInvoices",
  description:
    "The invoices of a client, filtered by status and billing period. Changing an invoice (payment, tax, cost) is " +
    "done with the client (`client.invoice.*`), not with functions.",
  inputs: z.object({
    clientEmail,
    status: withDefaultText(invoiceStatus.optional().describe("Only invoices in this status."), "every status"),
    billPeriod: withDefaultText(
      z.string().optional().describe('Only the invoice of this billing period (e.g. "2025-01").'),
      "every period",
    ),
  }),
  outputs: z.object({
    invoices: out.list(
      z.object({
        invoiceNumber: z.string().describe("The invoice number."),
        referenceNumber: out.number("The payment reference number."),
        clientEmail: out.text("The billed client's e-mail."),
        domainUuid: out.text("The billed domain."),
        billPeriod: out.text('The billing period (e.g. "2025-01").'),
        generatedAt: out.number("When the invoice was generated, in milliseconds since the epoch."),
        currency: out.text('The invoice currency (e.g. "EUR").'),
        usageCost: out.number("The cost of the period's usage."),
        adjustmentCost: out.number("This invoice's adjustments."),
        totalAdjustmentCost: out.number("All adjustments."),
        bandwidthFreeUsage: out.number("The free bandwidth allowance used."),
        totalCost: out.number("The amount due."),
        status: out.text("DRAFT, DUE, PAID, OVER_DUE, CANCEL or TAX_PENDING."),
      }),
      "The matching invoices, in the API's order.",
    ),
  }),
  invoke: async (client, args) => ({
    invoices: (await client.invoice.listByClient(args))
      .filter((i) => i.invoiceNumber !== undefined)
      .map((i) => ({
        invoiceNumber: i.invoiceNumber!,
        referenceNumber: i.referenceNumber,
        clientEmail: i.clientEmail,
        domainUuid: i.domainUuid,
        billPeriod: i.billPeriod,
        generatedAt: i.generatedDate,
        currency: i.currency,
        usageCost: i.usageCost,
        adjustmentCost: i.adjustmentCost,
        totalAdjustmentCost: i.totalAdjustmentCost,
        bandwidthFreeUsage: i.bandwidthFreeUsage,
        totalCost: i.totalCost,
        status: i.status,
      })),
  }),
});

export const getTaxPendingInvoices = defineFunction({
  name: "getTaxPendingInvoices",
  description: "The invoices waiting for their tax amount (status TAX_PENDING).",
  inputs: z.object({ clientEmail }),
  outputs: z.object({
    invoices: out.list(
      z.object({
        id: z.string().describe("The invoice's id, as `client.invoice.updateTax({ id })` takes it."),
        clientEmail: out.text("The billed client's e-mail."),
        amount: out.number("The amount before tax."),
        currency: out.text('The invoice currency (e.g. "EUR").'),
        billPeriod: out.text('The billing period (e.g. "2025-01").'),
        status: out.text("The invoice's status (TAX_PENDING)."),
      }),
      "The tax-pending invoices, in the API's order.",
    ),
  }),
  invoke: async (client, args) => ({
    invoices: (await client.invoice.listTaxPending(args))
      .filter((i) => i.id !== undefined)
      .map((i) => ({
        id: i.id!,
        clientEmail: i.clientEmail,
        amount: i.amount,
        currency: i.currency,
        billPeriod: i.billPeriod,
        status: i.status,
      })),
  }),
});

/** The spec's InvoiceTax, as getInvoicePaymentStatus answers it. */
const invoiceTaxRow = record({ id: recordId, realNumber: stringField, clientEmail: stringField, status: stringField });

export const getInvoicePaymentStatus = defineFunction({
  name: "getInvoicePaymentStatus",
  description:
    "An invoice's payment status (the API's getInvoicePaymentStatus), by its payment reference. Paying, taxing " +
    "or regenerating an invoice is an administrator's billing operation, done with the client (docs/operations.md).",
  inputs: z.object({
    invoiceId: z
      .string()
      .trim()
      .min(1, "must not be empty")
      .describe(
        "The invoice's payment reference (the API's `id`): getInvoices' `referenceNumber` as text, or " +
          "getTaxPendingInvoices' `id`.",
      ),
  }),
  outputs: z.object({
    invoiceId: z.string().describe("The invoice's payment reference, as asked for."),
    invoiceNumber: out.text("The invoice number (the API's `realNumber`)."),
    clientEmail: out.text("The billed client's e-mail."),
    status: out.text("DRAFT, DUE, PAID, OVER_DUE, CANCEL or TAX_PENDING."),
    isPaid: z.boolean().describe("Whether the status is PAID."),
  }),
  invoke: async (client, args) => {
    const [found] = (await client.invoice.paymentStatus({ id: args.invoiceId })).flatMap((row) => {
      const parsed = invoiceTaxRow.safeParse(row);
      return parsed.success ? [parsed.data] : [];
    });
    if (!found)
      throw new Error(`restcloud.getInvoicePaymentStatus: no invoice has the payment reference ${args.invoiceId}`);
    return {
      invoiceId: found.id || args.invoiceId,
      invoiceNumber: found.realNumber,
      clientEmail: found.clientEmail,
      status: found.status,
      isPaid: found.status === "PAID",
    };
  },
});
