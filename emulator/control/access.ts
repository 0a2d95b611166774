// Who may use the `/_emulator` control endpoints: they show every account's secrets and can reset everything, so beyond
// loopback they need a control token (header, bearer, or a cookie set by `/_emulator/?token=`); on loopback they stay
// open, and `GET /_emulator/health` always does. emulator/README.md, "Control endpoints".
import { randomBytes, timingSafeEqual } from "node:crypto";
import { isIP } from "node:net";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";

export const CONTROL_TOKEN_ENV = "RESTCLOUD_EMULATOR_CONTROL_TOKEN";
export const CONTROL_TOKEN_HEADER = "x-emulator-control-token";
const COOKIE = "restcloud_emulator_control";
const CONSOLE_PATH = "/_emulator/";
const OPEN_PATHS = new Set(["/_emulator/health"]);

/** The control token in force, and where it came from (the CLI prints a generated one, never a given one). */
export interface ControlAccess {
  token: string;
  source: "option" | "environment" | "generated";
}

/** Whether `host` is a loopback address or name: only this machine can reach it. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, "").toLowerCase();
  if (bare === "localhost") return true;
  if (isIP(bare) === 4) return bare.startsWith("127.");
  if (bare.startsWith("::ffff:") && isIP(bare.slice(7)) === 4) return bare.slice(7).startsWith("127.");
  return bare === "::1";
}

/**
 * The access rule for an emulator bound to `host`: undefined (open) on loopback, else a token from
 * the option, the environment or a random one. An empty token given by option is an error.
 */
export function controlAccessFor(
  host: string,
  option: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): ControlAccess | undefined {
  if (option !== undefined && option.trim() === "") throw new Error("controlToken: must not be empty");
  if (isLoopbackHost(host)) return undefined;
  if (option !== undefined) return { token: option, source: "option" };
  const fromEnv = env[CONTROL_TOKEN_ENV];
  if (fromEnv !== undefined && fromEnv.trim() !== "") return { token: fromEnv, source: "environment" };
  return { token: randomBytes(24).toString("base64url"), source: "generated" };
}

const isControlPath = (path: string): boolean => /^\/_emulator(\/|$)/.test(path);

/** The token a request carries: header, bearer, or the console's cookie. */
function presentedToken(request: FastifyRequest): string | undefined {
  const header = request.headers[CONTROL_TOKEN_HEADER];
  if (typeof header === "string" && header !== "") return header;
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? "");
  if (bearer) return bearer[1];
  const cookie = (request.headers.cookie ?? "")
    .split(";")
    .map((part) => part.trim())
    .find((part) => part.startsWith(`${COOKIE}=`));
  return cookie === undefined ? undefined : decodeURIComponent(cookie.slice(COOKIE.length + 1));
}

/** Constant-time comparison, so that the answer's timing does not reveal how much of a guess was right. */
function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

const refuse = (reply: FastifyReply, status: 401 | 403, message: string) =>
  reply
    .code(status)
    .header("www-authenticate", 'Bearer realm="restcloud-emulator control"')
    .header("cache-control", "no-store")
    .send({ error: message });

/** Requires the control token on every `/_emulator` path but the health check. */
export function installControlAccess(app: FastifyInstance, access: ControlAccess): void {
  app.addHook("onRequest", async (request, reply) => {
    const path = request.url.split("?")[0];
    if (!isControlPath(path) || OPEN_PATHS.has(path)) return;
    const query = request.query as Record<string, unknown> | undefined;
    // The console's way in: a link with the token once, then the cookie.
    if (request.method === "GET" && path === CONSOLE_PATH && typeof query?.token === "string") {
      if (!sameToken(query.token, access.token)) return refuse(reply, 403, "wrong control token");
      const cookie = `${COOKIE}=${encodeURIComponent(access.token)}; Path=/_emulator; HttpOnly; SameSite=Strict`;
      return reply.code(302).header("set-cookie", cookie).header("location", CONSOLE_PATH).send();
    }
    const given = presentedToken(request);
    if (given === undefined) {
      return refuse(
        reply,
        401,
        `control endpoints need the control token: send the header ${CONTROL_TOKEN_HEADER}: TOKEN or Authorization: Bearer TOKEN; ` +
          `open the console once as /_emulator/?token=TOKEN`,
      );
    }
    if (!sameToken(given, access.token)) return refuse(reply, 403, "wrong control token");
  });
}

/** What the CLI prints at start when the control endpoints need a token. */
export function controlAccessNotice(url: string, access: ControlAccess): string {
  const token = access.source === "generated" ? access.token : "TOKEN";
  const given =
    access.source === "generated"
      ? `a token generated for this run (set one with --control-token or ${CONTROL_TOKEN_ENV})`
      : access.source === "option"
        ? "the token given by --control-token"
        : `the token of ${CONTROL_TOKEN_ENV}`;
  return [
    `control endpoints (${url}/_emulator/...) need ${given}:`,
    `  send the header "${CONTROL_TOKEN_HEADER}: ${token}" or "Authorization: Bearer ${token}"`,
    `  console: ${url}/_emulator/?token=${token}`,
  ].join("\n");
}
