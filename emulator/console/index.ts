// The console: one HTML page at `GET /_emulator/`, served by the emulator itself and driving it through the
// `/_emulator` endpoints only, so it is never faulted or counted and needs the control token exactly when they do
// (control/access.ts).
import type { FastifyInstance } from "fastify";
import { CONSOLE_HTML } from "./page";

export { CONSOLE_HTML } from "./page";

export function registerConsole(app: FastifyInstance): void {
  app.get("/_emulator", async (_request, reply) => reply.redirect("/_emulator/", 302));
  app.get("/_emulator/", async (_request, reply) =>
    reply
      .type("text/html; charset=utf-8")
      .header("cache-control", "no-store")
      .header("x-content-type-options", "nosniff")
      .header("referrer-policy", "no-referrer")
      .send(CONSOLE_HTML),
  );
}
