/**
 * The emulator against an independent reading of the spec (spec-table.ts): every endpoint, with its
 * inputs in the spec's placement, answers with the spec's status, envelope, count and field types;
 * refuses a request without credentials; and names a missing required input.
 */
import { startEmulator } from "../../../emulator/index";
import { ADMIN, DEMO, Fixtures, send, type Answer, type Values } from "./fixtures";
import {
  ENVELOPE_KEYS,
  JSON_TYPE,
  RECORD_FIELDS,
  ROWS_PER_SECTION,
  SHAPES,
  SPEC_ROWS,
  ASYNC_UPDATES,
  DELETES_WITH_204,
  operationOf,
  type FieldType,
  type Fields,
  type Input,
  type RecordName,
  type Row,
} from "./spec-table";

const ASYNC_DELAY_MS = 20;

/** Envelopes that may hold no record with the test's inputs (all others must list at least one). */
const MAY_BE_EMPTY: Readonly<Record<string, string>> = {
  listTaxPendingInvoice: "an account may have no tax-pending invoice",
  "service-list": "languages are outside the spec; the test's languageUuid may match none",
  deleteResourceTag: "whether the answer still lists the deleted tag is not shown",
};

/**
 * Rows whose parameters are "not shown" get the parameters a client would plausibly send: the
 * instance and what the operation names (an ISO, an SSH key pair, both outside the spec), or the zone.
 */
function guessedQuery(row: Row, fx: Fixtures, prepared: Values = {}): Values | undefined {
  if (!row.parametersNotShown) return undefined;
  const instance = { uuid: prepared.uuid ?? fx.world.instance?.uuid };
  const guesses: Record<string, Values> = {
    attachIso: { ...instance, isoUuid: GUESSED_ISO_UUID },
    detachIso: instance,
    resetSSHkey: { ...instance, sshKeyName: "contract-ssh-key" },
    instancePasswordList: instance,
  };
  return guesses[operationOf(row)] ?? { zoneUuid: fx.world.zoneUuid };
}
const GUESSED_ISO_UUID = "6f1c2a3e-0000-4000-8000-0000000015f0";

// --- checks ----------------------------------------------------------------------------------------

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function typeProblem(value: unknown, type: FieldType): string | undefined {
  if (typeof type === "object") return Array.isArray(value) ? undefined : "an array";
  const json = JSON_TYPE[type];
  const ok =
    json === "integer"
      ? Number.isInteger(value)
      : json === "number"
        ? typeof value === "number" && Number.isFinite(value)
        : json === "array"
          ? Array.isArray(value)
          : json === "object"
            ? isObject(value)
            : typeof value === json;
  return ok ? undefined : `${json === "integer" ? "an" : "a"} ${json}`;
}

/**
 * The fields of `value` that are absent or of the wrong JSON type (null included: the spec gives every
 * field one type, and a value the record lacks is answered as an empty string), as readable problems.
 */
function fieldProblems(value: unknown, fields: Fields, where: string): string[] {
  if (!isObject(value)) return [`${where}: expected an object, got ${JSON.stringify(value)?.slice(0, 200)}`];
  const problems: string[] = [];
  for (const [field, type] of Object.entries(fields)) {
    const fieldValue = value[field];
    if (!(field in value)) problems.push(`${where}.${field}: missing`);
    else {
      const expected = typeProblem(fieldValue, type);
      if (expected) problems.push(`${where}.${field}: expected ${expected}, got ${JSON.stringify(fieldValue)}`);
      else if (typeof type === "object") {
        (fieldValue as unknown[]).forEach((element, i) =>
          problems.push(...fieldProblems(element, RECORD_FIELDS[type.arrayOf], `${where}.${field}[${i}]`)),
        );
      }
    }
  }
  return problems;
}

const recordProblems = (value: unknown, record: RecordName, where: string) =>
  fieldProblems(value, RECORD_FIELDS[record], where);

function responseProblems(row: Row, answer: Answer): string[] {
  const operation = operationOf(row);
  const { response } = row;
  const body = answer.json;
  if (response.kind === "envelope") {
    if (!isObject(body)) return [`expected an envelope object, got ${answer.text.slice(0, 300)}`];
    const records = body[response.key];
    if (!Array.isArray(records)) return [`expected the envelope key ${response.key}, got keys ${Object.keys(body)}`];
    const problems: string[] = [];
    if (!Number.isInteger(body.count)) problems.push(`count: expected an integer, got ${JSON.stringify(body.count)}`);
    else if (body.count !== records.length) problems.push(`count ${body.count} != ${records.length} records`);
    if (records.length === 0 && !(operation in MAY_BE_EMPTY)) problems.push(`${response.key}: no record listed`);
    records.forEach((r, i) => problems.push(...recordProblems(r, response.record, `${response.key}[${i}]`)));
    if (response.extra) problems.push(...fieldProblems(body, response.extra, "envelope"));
    return problems;
  }
  switch (response.kind) {
    case "boolean":
      return typeof body === "boolean" ? [] : [`expected a bare JSON boolean, got ${answer.text.slice(0, 300)}`];
    case "cluster":
      return recordProblems(body, "Cluster", "cluster");
    case "clusterArray":
      if (!Array.isArray(body)) return [`expected a bare array of Cluster, got ${answer.text.slice(0, 300)}`];
      if (body.length === 0) return ["expected at least one cluster"];
      return body.flatMap((c, i) => recordProblems(c, "Cluster", `clusters[${i}]`));
    case "object":
      return fieldProblems(body, SHAPES[response.shape], response.shape);
    case "notShown":
      return [];
  }
}

function errorBodyProblems(answer: Answer): string[] {
  const error = isObject(answer.json) ? answer.json.listErrorResponse : undefined;
  if (!isObject(error)) return [`expected a listErrorResponse body, got ${answer.text.slice(0, 300)}`];
  return fieldProblems(error, { errorCode: "S", errorMsg: "S" }, "listErrorResponse");
}

/** A syntactically valid value of an input, for requests that must be refused before any look-up. */
function placeholder(input: Input): unknown {
  if (input.values) return input.values[0];
  const byType: Record<Input["type"], unknown> = {
    S: "00000000-0000-4000-8000-000000000000",
    B: false,
    I64: 1,
    I32: 1,
    I: 1,
    N: 1,
    array: [],
    object: {},
  };
  return byType[input.type];
}

const title = (row: Row) => `${row.method} ${row.path}`;
const isJson = (answer: Answer) => answer.contentType.includes("application/json") && answer.json !== undefined;

// --- the test ---------------------------------------------------------------------------------------

let emulator: Awaited<ReturnType<typeof startEmulator>>;
let fx: Fixtures;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, asyncDelayMs: ASYNC_DELAY_MS });
  fx = new Fixtures(emulator.url, ASYNC_DELAY_MS);
  await fx.build();
}, 30_000);

afterAll(async () => {
  await emulator?.stop();
});

describe("the spec table", () => {
  test("transcribes every endpoint row of the spec", () => {
    expect(SPEC_ROWS).toHaveLength(137);
    const perSection: Record<string, number> = {};
    for (const row of SPEC_ROWS) perSection[row.section] = (perSection[row.section] ?? 0) + 1;
    expect(perSection).toEqual(ROWS_PER_SECTION);
  });

  test("names each operation and each method and path once", () => {
    const operations = SPEC_ROWS.map(operationOf);
    expect(new Set(operations).size).toBe(operations.length);
    const routes = SPEC_ROWS.map(title);
    expect(new Set(routes).size).toBe(routes.length);
  });

  test("knows the records and envelope keys its rows answer with", () => {
    for (const row of SPEC_ROWS) {
      if (row.response.kind !== "envelope") continue;
      expect(ENVELOPE_KEYS[row.response.record]).toBe(row.response.key);
      expect(Object.keys(RECORD_FIELDS[row.response.record]).length).toBeGreaterThan(1);
    }
    const statusOf = (operation: string) => SPEC_ROWS.find((r) => operationOf(r) === operation)?.alsoStatus;
    for (const operation of ASYNC_UPDATES) expect(statusOf(operation)).toEqual([202]);
    for (const operation of DELETES_WITH_204) expect(statusOf(operation)).toEqual([204]);
  });
});

describe("the fixtures", () => {
  test("build one of each resource through the API", () => {
    expect(fx.buildProblems).toEqual([]);
  });
});

describe("every endpoint answers as the spec says", () => {
  test.each(SPEC_ROWS.map((row) => [title(row), row] as const))("%s", async (_title, row) => {
    const values = await fx.valuesForSuccess(row);
    const inputsWithoutValue = row.inputs.filter((i) => i.required && values[i.name] === undefined).map((i) => i.name);
    // a required input without value means a fixture could not be built: say why
    expect({ inputsWithoutValue, buildProblems: inputsWithoutValue.length ? fx.buildProblems : [] }).toEqual({
      inputsWithoutValue: [],
      buildProblems: [],
    });
    const answer = await send(emulator.url, row, values, {
      credentials: row.noAuth ? null : undefined,
      extraQuery: guessedQuery(row, fx, values),
    });
    const summary = `${answer.status} ${answer.text.slice(0, 400)}`;

    if (row.response.kind === "notShown") {
      expect({ status: answer.status >= 200 && answer.status < 300, json: isJson(answer), summary }).toEqual({
        status: true,
        json: true,
        summary,
      });
      return;
    }
    expect({ status: [200, ...(row.alsoStatus ?? [])].includes(answer.status), summary }).toEqual({
      status: true,
      summary,
    });
    if (answer.status === 204) {
      expect(answer.text).toBe("");
      return;
    }
    expect({ json: isJson(answer), summary }).toEqual({ json: true, summary });
    expect(responseProblems(row, answer)).toEqual([]);
  });
});

describe("every endpoint refuses a request without credentials", () => {
  const rows = SPEC_ROWS.filter((row) => !row.noAuth);

  test.each(rows.map((row) => [title(row), row] as const))("%s", async (_title, row) => {
    const values = Object.fromEntries(row.inputs.map((input) => [input.name, placeholder(input)]));
    const answer = await send(emulator.url, row, values, { credentials: null });
    expect(answer.status).toBe(401);
    expect(isJson(answer)).toBe(true);
    expect(errorBodyProblems(answer)).toEqual([]);
  });

  test("except getpublickey, which needs no credentials", async () => {
    const row = SPEC_ROWS.find((r) => r.noAuth);
    expect(row && operationOf(row)).toBe("getpublickey");
    const answer = await send(emulator.url, row!, {}, { credentials: null });
    expect(answer.status).toBe(200);
  });

  test("and refuses wrong credentials too", async () => {
    const row = SPEC_ROWS.find((r) => operationOf(r) === "zone-list")!;
    const answer = await send(emulator.url, row, {}, { credentials: { ...DEMO, secretkey: ADMIN.secretkey } });
    expect(answer.status).toBe(401);
    expect(errorBodyProblems(answer)).toEqual([]);
  });
});

describe("every required input is enforced", () => {
  const cases = SPEC_ROWS.flatMap((row) =>
    row.inputs
      .filter((input) => input.required)
      .map((input) => [`${title(row)} without ${input.in}:${input.name} (${input.required})`, row, input] as const),
  );

  test.each(cases)("%s", async (_title, row, input) => {
    const values = fx.valuesFor(operationOf(row));
    delete values[input.name];
    const answer = await send(emulator.url, row, values, { extraQuery: guessedQuery(row, fx) });
    const errorMsg =
      isObject(answer.json) && isObject(answer.json.listErrorResponse)
        ? answer.json.listErrorResponse.errorMsg
        : undefined;
    expect({
      status: answer.status,
      namesInput: typeof errorMsg === "string" && errorMsg.includes(input.name),
      body: answer.text.slice(0, 300),
    }).toEqual({
      status: 400,
      namesInput: true,
      body: answer.text.slice(0, 300),
    });
  });
});
