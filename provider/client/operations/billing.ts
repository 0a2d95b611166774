// Invoices, payment status and tax: /restapi/invoice.
import { z } from "zod";
import {
  integerField,
  numberField,
  stringField,
  input,
  int32,
  invoiceStatus,
  number,
  record,
  ref,
  flag,
  text,
} from "../schema";
import { list, object, op } from "./define";

export const invoiceRecord = record({
  invoiceNumber: stringField,
  referenceNumber: integerField,
  domainUuid: stringField,
  clientEmail: stringField,
  currency: stringField,
  billPeriod: stringField,
  generatedDate: integerField,
  usageCost: numberField,
  adjustmentCost: numberField,
  totalAdjustmentCost: numberField,
  bandwidthFreeUsage: numberField,
  totalCost: numberField,
  /** DRAFT, DUE, PAID, OVER_DUE, CANCEL or TAX_PENDING. */
  status: stringField,
});
export type Invoice = z.output<typeof invoiceRecord>;

export const invoiceTaxRecord = record({
  id: stringField,
  realNumber: stringField,
  clientEmail: stringField,
  status: stringField,
  /** Only in the update-tax answer. */
  total: numberField,
  taxes: numberField,
});
export type InvoiceTax = z.output<typeof invoiceTaxRecord>;

export const taxPendingInvoiceRecord = record({
  id: stringField,
  clientEmail: stringField,
  amount: numberField,
  currency: stringField,
  billPeriod: stringField,
  status: stringField,
});
export type TaxPendingInvoice = z.output<typeof taxPendingInvoiceRecord>;

export const invoiceActionRecord = record({ invoiceNumber: integerField, message: stringField, status: stringField });
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
