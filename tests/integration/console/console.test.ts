/**
 * The console page over HTTP (the browser test, tests/e2e/console, drives it for real): served at
 * /_emulator/ with no authentication, never faulted nor counted, its script valid JavaScript, and no
 * account key anywhere in it.
 */
import { Script } from "node:vm";
import { DEMO_CREDENTIALS, startEmulator, type RunningEmulator } from "../../../emulator/index";
import { CONSOLE_HTML } from "../../../emulator/console/index";

let emulator: RunningEmulator;
beforeAll(async () => {
  emulator = await startEmulator({ port: 0, asyncDelayMs: 30 });
});
afterAll(() => emulator.stop());

describe("the console page", () => {
  it("is served at /_emulator/ as HTML, and /_emulator redirects there", async () => {
    const redirect = await fetch(`${emulator.url}/_emulator`, { redirect: "manual" });
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get("location")).toBe("/_emulator/");

    const page = await fetch(`${emulator.url}/_emulator/`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(page.headers.get("cache-control")).toBe("no-store");
    const html = await page.text();
    expect(html).toBe(CONSOLE_HTML);
    for (const id of ["accounts", "resources", "record-json", "request-log", "faults-form", "reset", "snapshot-save"]) {
      expect(html).toContain(`id="${id}"`);
    }
  });

  it("holds a script that parses, and no account key", () => {
    const scripts = [...CONSOLE_HTML.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]);
    expect(scripts).toHaveLength(1);
    expect(() => new Script(scripts[0]!, { filename: "console.js" })).not.toThrow();
    for (const key of [DEMO_CREDENTIALS.apiKey, DEMO_CREDENTIALS.secretKey, "admin-api-key", "admin-secret-key"]) {
      expect(CONSOLE_HTML).not.toContain(key);
    }
  });

  it("is never faulted nor counted", async () => {
    await fetch(`${emulator.url}/_emulator/faults`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ failRate: 1, latencyMs: 200 }),
    });
    try {
      const started = Date.now();
      expect((await fetch(`${emulator.url}/_emulator/`)).status).toBe(200);
      expect(Date.now() - started).toBeLessThan(200);
      const stats = (await (await fetch(`${emulator.url}/_emulator/stats`)).json()) as { total: number };
      expect(stats.total).toBe(0);
    } finally {
      await fetch(`${emulator.url}/_emulator/faults`, {
        method: "PUT",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ failRate: 0, latencyMs: 0 }),
      });
    }
  });
});
