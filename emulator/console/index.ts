/**
 * The console: one HTML page at `GET /_emulator/` (`/_emulator` redirects to it), served by the
 * emulator's own server. Like every `/_emulator` endpoint it needs no authentication, is never faulted
 * and never counted; the page reads and drives the emulator through those endpoints only.
 */
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
