// Invoices, per account, seeded from the catalog on first use (demo has eight). InvoiceTax and TaxPendingInvoice are
// views of an invoice (id = referenceNumber, realNumber = invoiceNumber); updateInvoiceTax's tax is kept in
// INVOICE_TAXES. Lifecycle: DRAFT --generate--> DUE --paid--> PAID; TAX_PENDING --tax set--> DUE; OVER_DUE --paid-->
// PAID.
import type { Catalog, InvoiceStatus } from "../seeded-catalog";
import { badInput, conflict, notFound, type AccountScope } from "../core";
import { INVOICE_TAXES, INVOICES, type StoredInvoiceRecord } from "./collections";

/** An invoice as the invoice-tax operations show it (the spec's InvoiceTax). */
export type InvoiceTaxView = { realNumber: string; clientEmail: string; id: string; status: string; isActive: boolean };

/** The spec's TaxPendingInvoice. */
export type TaxPendingInvoiceView = {
  amount: number;
  clientEmail: string;
  currency: string;
  id: string;
  billPeriod: string;
  status: string;
  isActive: boolean;
};

const money = (n: number): number => Math.round(n * 100) / 100;

/** The account's invoices, seeded from the catalog when the collection is still empty. */
function invoices(scope: AccountScope, catalog: Catalog): Record<string, StoredInvoiceRecord> {
  const collection = scope.collection(INVOICES);
  if (Object.keys(collection).length === 0) {
    const seeds = catalog.invoicesFor(scope.account.email);
    for (const invoice of seeds) collection[invoice.invoiceNumber] = { ...invoice };
    if (seeds.length > 0) scope.changed();
  }
  return collection;
}

function invoice(scope: AccountScope, catalog: Catalog, invoiceNumber: string): StoredInvoiceRecord {
  const found = invoices(scope, catalog)[invoiceNumber];
  if (!found) throw notFound("invoice", invoiceNumber);
  return found;
}

function assertStatus(record: StoredInvoiceRecord, allowed: readonly InvoiceStatus[], action: string): void {
  if (!allowed.includes(record.status)) {
    throw conflict(
      `invoice ${record.invoiceNumber} is ${record.status}; only ${allowed.join(" or ")} can be ${action}`,
    );
  }
}

/** Bill period descending, then invoice number (the store's keys are numeric, so its order is not ours). */
const newestFirst = (records: StoredInvoiceRecord[]): StoredInvoiceRecord[] =>
  records.sort(
    (a, b) =>
      String(b.billPeriod).localeCompare(String(a.billPeriod)) || Number(a.invoiceNumber) - Number(b.invoiceNumber),
  );

export function listByClient(
  scope: AccountScope,
  catalog: Catalog,
  filters: { clientEmail?: string; status?: InvoiceStatus; billPeriod?: string },
): StoredInvoiceRecord[] {
  if (filters.billPeriod !== undefined && !/^\d{4}-(0[1-9]|1[0-2])$/.test(filters.billPeriod)) {
    throw badInput("billPeriod", "must be a month such as 2026-09");
  }
  return newestFirst(Object.values(invoices(scope, catalog))).filter(
    (i) =>
      (filters.clientEmail === undefined || i.clientEmail === filters.clientEmail) &&
      (filters.status === undefined || i.status === filters.status) &&
      (filters.billPeriod === undefined || i.billPeriod === filters.billPeriod),
  );
}

export interface InvoiceActionResult {
  invoiceNumber: number;
  message: string;
  status: string;
}

/** Issues a DRAFT (it becomes DUE); regenerates the document of a DUE, OVER_DUE or PAID one. */
export function generateInvoice(scope: AccountScope, catalog: Catalog, invoiceNumber: number): InvoiceActionResult {
  const record = invoice(scope, catalog, String(invoiceNumber));
  assertStatus(record, ["DRAFT", "DUE", "OVER_DUE", "PAID"], "generated");
  const issued = record.status === "DRAFT";
  if (issued) {
    record.status = "DUE";
    scope.changed();
  }
  return {
    invoiceNumber,
    message: `Invoice ${invoiceNumber} ${issued ? "generated" : "regenerated"}`,
    status: String(record.status),
  };
}

/** Sets the amount to pay of a DRAFT or DUE invoice; the difference is recorded as an adjustment. */
export function changeInvoiceCost(
  scope: AccountScope,
  catalog: Catalog,
  invoiceNumber: number,
  payAmount: number,
): InvoiceActionResult {
  const record = invoice(scope, catalog, String(invoiceNumber));
  if (payAmount < 0) throw badInput("payAmount", "must not be negative");
  assertStatus(record, ["DRAFT", "DUE"], "changed");
  const adjustment = money(payAmount - Number(record.totalCost));
  record.adjustmentCost = adjustment;
  record.totalAdjustmentCost = money(Number(record.totalAdjustmentCost) + adjustment);
  record.totalCost = money(payAmount);
  scope.changed();
  return {
    invoiceNumber,
    message: `Invoice ${invoiceNumber} cost changed to ${record.totalCost}`,
    status: String(record.status),
  };
}

const invoiceTax = (record: StoredInvoiceRecord): InvoiceTaxView => ({
  realNumber: record.invoiceNumber,
  clientEmail: record.clientEmail,
  id: String(record.referenceNumber),
  status: record.status,
  isActive: true,
});

/** The invoice whose InvoiceTax id (its referenceNumber) this is. */
function byTaxId(scope: AccountScope, catalog: Catalog, id: string): StoredInvoiceRecord {
  const found = Object.values(invoices(scope, catalog)).find((i) => String(i.referenceNumber) === id);
  if (!found) throw notFound("invoice", id);
  return found;
}

export const getInvoicePaymentStatus = (scope: AccountScope, catalog: Catalog, id: string): InvoiceTaxView =>
  invoiceTax(byTaxId(scope, catalog, id));

/** `id` names the invoice; realNumber and clientEmail are accepted as given (the spec does not say they are checked). */
interface InvoiceReference {
  id: string;
  realNumber?: string;
  clientEmail?: string;
}

/**
 * payment true: a DUE or OVER_DUE invoice becomes PAID (a PAID one stays PAID). payment false: an
 * unsuccessful payment, the status does not change.
 */
export function updateInvoiceStatus(
  scope: AccountScope,
  catalog: Catalog,
  input: InvoiceReference & { payment: boolean },
): InvoiceTaxView {
  const record = byTaxId(scope, catalog, input.id);
  if (input.payment) {
    assertStatus(record, ["DUE", "OVER_DUE", "PAID"], "paid");
    if (record.status !== "PAID") {
      record.status = "PAID";
      scope.changed();
    }
  }
  return invoiceTax(record);
}

/**
 * Sets the tax of a TAX_PENDING, DRAFT or DUE invoice: totalCost becomes `total` (default: the
 * current total plus `taxes`), and a TAX_PENDING invoice becomes DUE.
 */
export function updateInvoiceTax(
  scope: AccountScope,
  catalog: Catalog,
  input: InvoiceReference & { taxes: number; total?: number; taxDetails?: Array<Record<string, unknown>> },
): InvoiceTaxView & { total: number; taxes: number } {
  const record = byTaxId(scope, catalog, input.id);
  if (input.taxes < 0) throw badInput("taxes", "must not be negative");
  const total = money(input.total ?? Number(record.totalCost) + input.taxes);
  if (total < input.taxes) throw badInput("total", "must not be below taxes");
  assertStatus(record, ["TAX_PENDING", "DRAFT", "DUE"], "taxed");
  record.totalCost = total;
  if (record.status === "TAX_PENDING") record.status = "DUE";
  scope.collection(INVOICE_TAXES)[String(record.invoiceNumber)] = {
    uuid: String(record.invoiceNumber),
    total,
    taxes: money(input.taxes),
    taxDetails: input.taxDetails ?? [],
  };
  scope.changed();
  return { ...invoiceTax(record), total, taxes: money(input.taxes) };
}

/** TAX_PENDING invoices as TaxPendingInvoice records (amount = the total before tax). */
export function listTaxPendingInvoice(
  scope: AccountScope,
  catalog: Catalog,
  clientEmail?: string,
): TaxPendingInvoiceView[] {
  return listByClient(scope, catalog, { clientEmail, status: "TAX_PENDING" }).map((i) => ({
    amount: i.totalCost,
    clientEmail: i.clientEmail,
    currency: i.currency,
    id: String(i.referenceNumber),
    billPeriod: i.billPeriod,
    status: i.status,
    isActive: true,
  }));
}
