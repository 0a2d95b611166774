/**
 * The console: one HTML page at `GET /_emulator/` (`/_emulator` redirects to it), served by the
 * emulator's own server. Like every `/_emulator` endpoint it is never faulted and never counted, and
 * needs the control token only when the emulator binds beyond loopback (control/access.ts: the page
 * is then opened once as `/_emulator/?token=...`, which sets a cookie its requests carry); the page
 * reads and drives the emulator through those endpoints only.
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
