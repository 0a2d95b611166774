// Invoices of the calling account.
import { INVOICE_STATUSES } from "../seeded-catalog";
import { badInput, type AreaRegistrar } from "../core";
import { registerEndpoints, type Endpoint } from "../endpoints";
import { envelope, readBool, readEnum, readInt, readNumber, readString, type Inputs } from "../http";
import {
  changeInvoiceCost,
  generateInvoice,
  getInvoicePaymentStatus,
  listByClient,
  listTaxPendingInvoice,
  updateInvoiceStatus,
  updateInvoiceTax,
} from "../model/invoice";

const BASE = "/restapi/invoice";
const INVOICES = "listInvoiceResponse";
const INVOICE_TAXES = "invoiceTaxResponses";
const required = { required: true } as const;

const invoiceNumber = (query: Inputs) => readInt(query, "invoiceNumber", { required: true, min: 0, max: 2 ** 31 - 1 });
const reference = (body: Inputs) => ({
  id: readString(body, "id", required),
  realNumber: readString(body, "realNumber"),
  clientEmail: readString(body, "clientEmail"),
});

/** taxDetails: an array of objects whose `description`, when present, is a string. */
function taxDetails(body: Inputs): Array<Record<string, unknown>> | undefined {
  const value = body?.taxDetails;
  if (value === undefined || value === null) return undefined;
  const isDetail = (d: unknown) =>
    typeof d === "object" &&
    d !== null &&
    !Array.isArray(d) &&
    ["string", "undefined"].includes(typeof (d as Record<string, unknown>).description);
  if (!Array.isArray(value) || !value.every(isDetail)) {
    throw badInput("taxDetails", "must be an array of objects with a string description");
  }
  return value as Array<Record<string, unknown>>;
}

const ENDPOINTS: Endpoint[] = [
  {
    method: "GET",
    path: `${BASE}/listByClient`,
    operation: "listByClient",
    mutating: false,
    handle: ({ query, scope }, ctx) =>
      envelope(
        INVOICES,
        listByClient(scope, ctx.catalog, {
          clientEmail: readString(query, "clientEmail"),
          status: readEnum(query, "status", INVOICE_STATUSES),
          billPeriod: readString(query, "billPeriod"),
        }),
      ),
  },
  {
    method: "GET",
    path: `${BASE}/generateInvoice`,
    operation: "generateInvoice",
    mutating: true,
    handle: ({ query, scope }, ctx) => generateInvoice(scope, ctx.catalog, invoiceNumber(query)),
  },
  {
    method: "GET",
    path: `${BASE}/changeInvoiceCost`,
    operation: "changeInvoiceCost",
    mutating: true,
    handle: ({ query, scope }, ctx) =>
      changeInvoiceCost(scope, ctx.catalog, invoiceNumber(query), readNumber(query, "payAmount", required)),
  },
  {
    method: "GET",
    path: `${BASE}/getInvoicePaymentStatus`,
    operation: "getInvoicePaymentStatus",
    mutating: false,
    handle: ({ query, scope }, ctx) =>
      envelope(INVOICE_TAXES, [getInvoicePaymentStatus(scope, ctx.catalog, readString(query, "id", required))]),
  },
  {
    method: "POST",
    path: `${BASE}/updateInvoiceStatus`,
    operation: "updateInvoiceStatus",
    mutating: true,
    handle: ({ body, scope }, ctx) =>
      envelope(INVOICE_TAXES, [
        updateInvoiceStatus(scope, ctx.catalog, { ...reference(body), payment: readBool(body, "payment", required) }),
      ]),
  },
  {
    method: "POST",
    path: `${BASE}/updateInvoiceTax`,
    operation: "updateInvoiceTax",
    mutating: true,
    handle: ({ body, scope }, ctx) =>
      envelope(INVOICE_TAXES, [
        updateInvoiceTax(scope, ctx.catalog, {
          ...reference(body),
          taxes: readNumber(body, "taxes", required),
          total: readNumber(body, "total"),
          taxDetails: taxDetails(body),
        }),
      ]),
  },
  {
    method: "GET",
    path: `${BASE}/listTaxPendingInvoice`,
    operation: "listTaxPendingInvoice",
    mutating: false,
    handle: ({ query, scope }, ctx) =>
      envelope(INVOICES, listTaxPendingInvoice(scope, ctx.catalog, readString(query, "clientEmail"))),
  },
];

export const register: AreaRegistrar = (app, ctx) => registerEndpoints(app, ctx, ENDPOINTS);
