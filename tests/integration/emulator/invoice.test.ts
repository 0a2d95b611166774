/**
 * Billing over HTTP: the demo account's seeded invoices, their filters, and the flows that move an
 * invoice on (generate, change cost, set tax, pay), with the calls each state refuses.
 */
import { ADMIN, useEmulator, type AccountHeaders, type Json } from "./helpers";

const EMAIL = "demo@restcloud.example";
/** The seeded invoices by number, as the catalog documents them. */
const SEED = {
  cancelled: 100101,
  paid: 100102,
  overDue: 100104,
  due: 100105,
  taxPending: 100106,
  draft: 100107,
  taxPendingToo: 100108,
};
/** InvoiceTax ids: the invoices' referenceNumbers (year, month, serial). */
const TAX_ID = {
  paid: "2026040102",
  overDue: "2026060104",
  due: "2026070105",
  taxPending: "2026080106",
  draft: "2026090107",
  taxPendingToo: "2026090108",
};

const emulator = useEmulator();
// Every test starts from the seeded invoices.
beforeEach(() => emulator.reset());

/** A call to an operation of the invoice area. */
const api = (method: string, operation: string, input?: Json, headers?: AccountHeaders) =>
  emulator.call(method, `/restapi/invoice/${operation}`, input, headers);

async function invoice(invoiceNumber: number): Promise<Json> {
  const { body } = await api("GET", "listByClient");
  return body.listInvoiceResponse.find((i: Json) => i.invoiceNumber === String(invoiceNumber));
}

const INVOICE_FIELDS = {
  domainUuid: "string",
  adjustmentCost: "number",
  clientEmail: "string",
  usageCost: "number",
  referenceNumber: "number",
  invoiceNumber: "string",
  generatedDate: "number",
  totalAdjustmentCost: "number",
  currency: "string",
  bandwidthFreeUsage: "number",
  totalCost: "number",
  billPeriod: "string",
  status: "string",
  isActive: "boolean",
};

describe("listing invoices", () => {
  it("lists the demo account's invoices, every spec field with its type", async () => {
    const { status, body } = await api("GET", "listByClient");
    expect(status).toBe(200);
    expect(body.count).toBe(8);
    expect(body.listInvoiceResponse.map((i: Json) => i.billPeriod)).toEqual([
      "2026-09",
      "2026-09",
      "2026-08",
      "2026-07",
      "2026-06",
      "2026-05",
      "2026-04",
      "2026-03",
    ]);
    expect(body.listInvoiceResponse[0]).toMatchObject({ invoiceNumber: String(SEED.draft), status: "DRAFT" });
    expect(new Set(body.listInvoiceResponse.map((i: Json) => i.status))).toEqual(
      new Set(["CANCEL", "PAID", "OVER_DUE", "DUE", "TAX_PENDING", "DRAFT"]),
    );
    for (const record of body.listInvoiceResponse) {
      for (const [field, type] of Object.entries(INVOICE_FIELDS)) {
        expect([field, typeof record[field]]).toEqual([field, type]);
      }
      expect(record.clientEmail).toBe(EMAIL);
      expect(Number.isInteger(record.referenceNumber)).toBe(true);
    }
  });

  it("filters by status, billPeriod and clientEmail", async () => {
    const paid = await api("GET", "listByClient", { status: "PAID" });
    expect(paid.body.listInvoiceResponse.map((i: Json) => i.invoiceNumber).sort()).toEqual(["100102", "100103"]);
    const september = await api("GET", "listByClient", { billPeriod: "2026-09" });
    expect(september.body.count).toBe(2);
    expect((await api("GET", "listByClient", { clientEmail: EMAIL })).body.count).toBe(8);
    expect((await api("GET", "listByClient", { clientEmail: "someone@else.example" })).body).toEqual({
      count: 0,
      listInvoiceResponse: [],
    });
  });

  it("shows an account only its own invoices", async () => {
    expect((await api("GET", "listByClient", {}, ADMIN)).body.count).toBe(0);
    expect((await api("GET", "generateInvoice", { invoiceNumber: SEED.draft }, ADMIN)).status).toBe(404);
    expect((await invoice(SEED.draft)).status).toBe("DRAFT");
  });

  it.each([
    [{ status: "UNPAID" }, /^status: must be one of DRAFT, DUE, PAID, OVER_DUE, CANCEL, TAX_PENDING/],
    [{ billPeriod: "September" }, /^billPeriod: /],
  ])("names an invalid filter %j", async (query, message) => {
    const { status, body } = await api("GET", "listByClient", query);
    expect(status).toBe(400);
    expect(body.listErrorResponse.errorMsg).toMatch(message);
  });

  it("lists the tax-pending invoices as TaxPendingInvoice records", async () => {
    const { body } = await api("GET", "listTaxPendingInvoice", { clientEmail: EMAIL });
    expect(body.count).toBe(2);
    expect(body.listInvoiceResponse[0]).toEqual({
      amount: 18,
      clientEmail: EMAIL,
      currency: "EUR",
      id: TAX_ID.taxPendingToo,
      billPeriod: "2026-09",
      status: "TAX_PENDING",
      isActive: true,
    });
  });
});

describe("invoice flows", () => {
  it("a draft: change its cost, generate it (DUE), pay it (PAID); then its cost is fixed", async () => {
    const changed = await api("GET", "changeInvoiceCost", { invoiceNumber: SEED.draft, payAmount: 60 });
    expect(changed).toEqual({
      status: 200,
      body: { invoiceNumber: SEED.draft, message: expect.any(String), status: "DRAFT" },
    });
    expect(await invoice(SEED.draft)).toMatchObject({ totalCost: 60, adjustmentCost: -4.9, totalAdjustmentCost: -4.9 });

    const generated = await api("GET", "generateInvoice", { invoiceNumber: SEED.draft });
    expect(generated.body).toEqual({ invoiceNumber: SEED.draft, message: expect.any(String), status: "DUE" });
    expect((await invoice(SEED.draft)).status).toBe("DUE");

    const paid = await api("POST", "updateInvoiceStatus", {
      id: TAX_ID.draft,
      realNumber: String(SEED.draft),
      clientEmail: EMAIL,
      payment: true,
    });
    expect(paid.status).toBe(200);
    expect(paid.body).toEqual({
      count: 1,
      invoiceTaxResponses: [
        { realNumber: String(SEED.draft), clientEmail: EMAIL, id: TAX_ID.draft, status: "PAID", isActive: true },
      ],
    });
    const refused = await api("GET", "changeInvoiceCost", { invoiceNumber: SEED.draft, payAmount: 1 });
    expect(refused.status).toBe(409);
    expect((await invoice(SEED.draft)).totalCost).toBe(60);
  });

  it("a tax-pending invoice: not generated before its tax is set; the tax makes it DUE", async () => {
    expect((await api("GET", "generateInvoice", { invoiceNumber: SEED.taxPending })).status).toBe(409);
    const taxed = await api("POST", "updateInvoiceTax", {
      id: TAX_ID.taxPending,
      taxes: 20.99,
      taxDetails: [{ description: "VAT 19%" }],
    });
    expect(taxed.status).toBe(200);
    expect(taxed.body.invoiceTaxResponses).toEqual([
      expect.objectContaining({ id: TAX_ID.taxPending, status: "DUE", total: 131.44, taxes: 20.99 }),
    ]);
    expect(await invoice(SEED.taxPending)).toMatchObject({ status: "DUE", totalCost: 131.44 });
    const pending = await api("GET", "listTaxPendingInvoice");
    expect(pending.body.listInvoiceResponse.map((i: Json) => i.id)).toEqual([TAX_ID.taxPendingToo]);
  });

  it("takes the given total of a tax update", async () => {
    const taxed = await api("POST", "updateInvoiceTax", { id: TAX_ID.taxPendingToo, taxes: 3.42, total: 21.42 });
    expect(taxed.body.invoiceTaxResponses[0]).toMatchObject({ total: 21.42, taxes: 3.42 });
  });

  it("pays an over-due invoice; a payment that failed changes nothing", async () => {
    const failed = await api("POST", "updateInvoiceStatus", { id: TAX_ID.overDue, payment: false });
    expect(failed.body.invoiceTaxResponses[0].status).toBe("OVER_DUE");
    const paid = await api("POST", "updateInvoiceStatus", { id: TAX_ID.overDue, payment: true });
    expect(paid.body.invoiceTaxResponses[0].status).toBe("PAID");
  });

  it("regenerates a paid invoice without changing it", async () => {
    const { body } = await api("GET", "generateInvoice", { invoiceNumber: SEED.paid });
    expect(body).toEqual({ invoiceNumber: SEED.paid, message: expect.stringMatching(/regenerated/), status: "PAID" });
  });

  it("answers the payment status of an invoice", async () => {
    const { status, body } = await api("GET", "getInvoicePaymentStatus", { id: TAX_ID.due });
    expect(status).toBe(200);
    expect(body).toEqual({
      count: 1,
      invoiceTaxResponses: [
        { realNumber: String(SEED.due), clientEmail: EMAIL, id: TAX_ID.due, status: "DUE", isActive: true },
      ],
    });
  });
});

describe("refused billing calls", () => {
  it.each([
    ["GET", "generateInvoice", {}, 400, /^invoiceNumber: is required/],
    ["GET", "generateInvoice", { invoiceNumber: "12.5" }, 400, /^invoiceNumber: must be an integer/],
    ["GET", "generateInvoice", { invoiceNumber: 99 }, 404, /invoice 99/],
    ["GET", "generateInvoice", { invoiceNumber: SEED.cancelled }, 409, /CANCEL/],
    ["GET", "changeInvoiceCost", { invoiceNumber: SEED.due }, 400, /^payAmount: is required/],
    ["GET", "changeInvoiceCost", { invoiceNumber: SEED.due, payAmount: -1 }, 400, /^payAmount: /],
    ["GET", "changeInvoiceCost", { invoiceNumber: SEED.paid, payAmount: 1 }, 409, /PAID/],
    ["GET", "getInvoicePaymentStatus", {}, 400, /^id: is required/],
    ["GET", "getInvoicePaymentStatus", { id: "nope" }, 404, /invoice nope/],
    ["POST", "updateInvoiceStatus", { id: TAX_ID.due }, 400, /^payment: is required/],
    ["POST", "updateInvoiceStatus", { id: TAX_ID.draft, payment: true }, 409, /DRAFT/],
    ["POST", "updateInvoiceStatus", { id: String(SEED.due), payment: true }, 404, /invoice 100105/],
    ["POST", "updateInvoiceTax", { id: TAX_ID.taxPending }, 400, /^taxes: is required/],
    ["POST", "updateInvoiceTax", { id: TAX_ID.taxPending, taxes: 5, taxDetails: "VAT" }, 400, /^taxDetails: /],
    ["POST", "updateInvoiceTax", { id: TAX_ID.taxPending, taxes: 5, total: 1 }, 400, /^total: /],
    ["POST", "updateInvoiceTax", { id: TAX_ID.paid, taxes: 5 }, 409, /PAID/],
  ])("%s %s %j answers %i and changes nothing", async (method, path, input, status, message) => {
    await api("GET", "listByClient"); // the seed is in place before the snapshot
    await emulator.expectRefused(() => api(method, path, input as Json), status, message);
  });
});
