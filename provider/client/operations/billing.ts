/** Invoices, payment status and tax: /restapi/invoice. */
import { z } from "zod";
import { I, N, S, input, int32, invoiceStatus, number, record, ref, flag, text } from "../schema";
import { list, object, op } from "./define";

export const invoiceRecord = record({
  invoiceNumber: S,
  referenceNumber: I,
  domainUuid: S,
  clientEmail: S,
  currency: S,
  billPeriod: S,
  generatedDate: I,
  usageCost: N,
  adjustmentCost: N,
  totalAdjustmentCost: N,
  bandwidthFreeUsage: N,
  totalCost: N,
  /** DRAFT, DUE, PAID, OVER_DUE, CANCEL or TAX_PENDING. */
  status: S,
});
export type Invoice = z.output<typeof invoiceRecord>;

export const invoiceTaxRecord = record({
  id: S,
  realNumber: S,
  clientEmail: S,
  status: S,
  /** Only in the update-tax answer. */
  total: N,
  taxes: N,
});
export type InvoiceTax = z.output<typeof invoiceTaxRecord>;

export const taxPendingInvoiceRecord = record({
  id: S,
  clientEmail: S,
  amount: N,
  currency: S,
  billPeriod: S,
  status: S,
});
export type TaxPendingInvoice = z.output<typeof taxPendingInvoiceRecord>;

export const invoiceActionRecord = record({ invoiceNumber: I, message: S, status: S });
export type InvoiceActionResult = z.output<typeof invoiceActionRecord>;

const INVOICE = "listInvoiceResponse";
const TAX = "invoiceTaxResponses";
const email = z.email("must be an email address");

export const invoiceOperations = {
  listByClient: op({
    name: "listByClient",
    method: "GET",
    path: "/restapi/invoice/listByClient",
    input: input({ clientEmail: email.optional(), status: invoiceStatus.optional(), billPeriod: text.optional() }),
    response: list(INVOICE, invoiceRecord),
    mutating: false,
  }),
  generate: op({
    name: "generateInvoice",
    method: "GET",
    path: "/restapi/invoice/generateInvoice",
    input: input({ invoiceNumber: int32 }),
    response: object(invoiceActionRecord),
    mutating: true,
  }),
  changeCost: op({
    name: "changeInvoiceCost",
    method: "GET",
    path: "/restapi/invoice/changeInvoiceCost",
    input: input({ invoiceNumber: int32, payAmount: number }),
    response: object(invoiceActionRecord),
    mutating: true,
  }),
  paymentStatus: op({
    name: "getInvoicePaymentStatus",
    method: "GET",
    path: "/restapi/invoice/getInvoicePaymentStatus",
    input: input({ id: ref }),
    response: list(TAX, invoiceTaxRecord),
    mutating: false,
  }),
  updateStatus: op({
    name: "updateInvoiceStatus",
    method: "POST",
    path: "/restapi/invoice/updateInvoiceStatus",
    input: input({ id: ref, realNumber: text.optional(), clientEmail: email.optional(), payment: flag.optional() }),
    response: list(TAX, invoiceTaxRecord),
    mutating: true,
  }),
  updateTax: op({
    name: "updateInvoiceTax",
    method: "POST",
    path: "/restapi/invoice/updateInvoiceTax",
    input: input({
      id: ref,
      realNumber: text.optional(),
      clientEmail: email.optional(),
      total: number.optional(),
      taxes: number.optional(),
      // Other fields of a taxDetails element: not shown; passed through.
      taxDetails: z.array(z.looseObject({ description: text.optional() })).optional(),
    }),
    response: list(TAX, invoiceTaxRecord),
    mutating: true,
  }),
  listTaxPending: op({
    name: "listTaxPendingInvoice",
    method: "GET",
    path: "/restapi/invoice/listTaxPendingInvoice",
    input: input({ clientEmail: email.optional() }),
    response: list(INVOICE, taxPendingInvoiceRecord),
    mutating: false,
  }),
};
