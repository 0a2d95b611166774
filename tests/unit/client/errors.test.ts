/** Error parsing: every body shape deployments answer with, cut short, and the ApiError it becomes. */
import { ApiError, ApiInputError, WaitTimeoutError, isNotFound, parseErrorBody } from "../../../provider/client";
import { excerpt } from "../../../provider/client/errors";

describe("parseErrorBody", () => {
  test.each([
    [
      "the spec family's envelope",
      JSON.stringify({ listErrorResponse: { errorCode: "PERMISSION_DENIED", errorMsg: "not allowed" } }),
      { errorCode: "PERMISSION_DENIED", message: "not allowed" },
    ],
    [
      "the envelope as a one-element array",
      JSON.stringify({ listErrorResponse: [{ errorCode: 550, errorMsg: "no rights" }] }),
      { errorCode: "550", message: "no rights" },
    ],
    ["a flat object", JSON.stringify({ errorCode: "E1", errorMsg: "flat" }), { errorCode: "E1", message: "flat" }],
    ["a bare message", JSON.stringify({ message: "Bad gateway" }), { message: "Bad gateway" }],
    ["an error field", JSON.stringify({ error: "Not Found", statusCode: 404 }), { message: "Not Found" }],
    ["plain text", "upstream connect error", { message: "upstream connect error" }],
    ["an empty body", "", {}],
  ])("%s", (_name, body, expected) => {
    expect(parseErrorBody(body)).toEqual(expected);
  });

  test("a long text body (an HTML error page) is cut to a few hundred characters, on one line", () => {
    const html = `<html>\n<body>${"x".repeat(5000)}</body>\n</html>`;
    const { message } = parseErrorBody(html);
    expect(message!.length).toBeLessThan(400);
    expect(message).toMatch(/^<html> <body>x+\.\.\. \(\d+ characters\)$/);
  });

  test("JSON without a known field keeps an excerpt of the JSON", () => {
    expect(parseErrorBody(JSON.stringify({ detail: "odd" }))).toEqual({ message: '{"detail":"odd"}' });
  });

  test("excerpt leaves short text alone", () => {
    expect(excerpt("  short\n text ")).toBe("short text");
  });
});

describe("ApiError", () => {
  const error = new ApiError({
    operation: "createVpc",
    method: "POST",
    path: "/restapi/vpc/createVpc",
    status: 503,
    errorCode: "SERVICE_UNAVAILABLE",
    message: "try later",
    retryable: true,
    ambiguous: true,
  });

  test("says the operation, status, code, message and whether it is ambiguous", () => {
    expect(error.message).toBe(
      "createVpc failed: HTTP 503 SERVICE_UNAVAILABLE: try later (ambiguous: the mutation may have been applied)",
    );
    expect(error).toMatchObject({ status: 503, operation: "createVpc", errorCode: "SERVICE_UNAVAILABLE" });
    expect(error.serverMessage).toBe("try later");
    expect(error.name).toBe("ApiError");
    expect(error).toBeInstanceOf(Error);
  });

  test("isNotFound is true for 404 only", () => {
    expect(isNotFound(error)).toBe(false);
    expect(isNotFound(new ApiError({ ...error, errorCode: "NOT_FOUND", message: "x", status: 404 }))).toBe(true);
    expect(isNotFound(new Error("404"))).toBe(false);
  });

  test("a connection failure has no status", () => {
    const reset = new ApiError({ ...error, status: undefined, errorCode: "ECONNRESET", message: "socket hang up" });
    expect(reset.message).toMatch(/^createVpc failed: no response ECONNRESET: socket hang up/);
  });
});

test("ApiInputError names the operation and the field", () => {
  const error = new ApiInputError("createVpc", "getcIDR", "must be a CIDR block such as 10.1.0.0/16");
  expect(error.message).toBe('createVpc: invalid input "getcIDR": must be a CIDR block such as 10.1.0.0/16');
  expect(error.name).toBe("ApiInputError");
});

test("WaitTimeoutError says what was awaited and the last state", () => {
  const error = new WaitTimeoutError("VPC v1 to be Active", "status=Creating", 1200, 5);
  expect(error.message).toBe(
    "timed out after 1200 ms waiting for VPC v1 to be Active; last state seen: status=Creating (5 polls)",
  );
});
