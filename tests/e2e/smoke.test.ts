/**
 * Smoke test of the end-to-end chain: the real Pulumi CLI, the Node.js language host, a dynamic
 * provider, and a local HTTP server, through up, a no-change preview, an update, refresh and destroy.
 */
import * as path from "node:path";
import { startLocalServer, TestStack } from "./harness";

jest.setTimeout(300_000);

describe("e2e smoke: a dynamic resource through the real Pulumi CLI", () => {
  const items = new Map<string, string>();
  let store: { url: string; close: () => Promise<void> };
  let stack: TestStack;

  beforeAll(async () => {
    store = await startLocalServer((req, res) => {
      const id = decodeURIComponent((req.url ?? "").replace(/^\/items\//, ""));
      let body = "";
      req.on("data", (chunk) => (body += chunk));
      req.on("end", () => {
        if (req.method === "PUT") items.set(id, (JSON.parse(body) as { value: string }).value);
        if (req.method === "DELETE") items.delete(id);
        if (req.method === "GET" && !items.has(id)) {
          res.writeHead(404).end();
          return;
        }
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ value: items.get(id) }));
      });
    });
    stack = await TestStack.create({
      programDir: path.join(__dirname, "programs", "smoke"),
      config: { storeUrl: store.url, value: "hello" },
    });
  });

  afterAll(async () => {
    await stack?.dispose();
    await store?.close();
  });

  test("up, no-change preview, update, refresh finds drift, destroy", async () => {
    const created = await stack.up();
    expect(created.changes).toEqual({ create: 2 }); // the stack and the item
    expect(created.outputs.itemValue).toBe("hello");
    const id = created.outputs.itemId as string;
    expect(items.get(id)).toBe("hello");

    const unchanged = await stack.preview({ expectNoChanges: true });
    expect(unchanged.changes).toEqual({ same: 2 });

    await stack.setConfig("storeUrl", store.url);
    await stack.setConfig("value", "world");
    const updated = await stack.up();
    expect(updated.changes).toEqual({ same: 1, update: 1 });
    expect(items.get(id)).toBe("world");

    items.set(id, "changed out of band");
    const refreshed = await stack.refresh();
    expect(refreshed.changes).toEqual({ same: 1, update: 1 });
    expect((await stack.outputs()).itemValue).toBe("world"); // outputs are recomputed by the next up
    const drift = await stack.preview();
    expect(drift.changes).toEqual({ same: 1, update: 1 });

    const destroyed = await stack.destroy();
    expect(destroyed.changes).toEqual({ delete: 2 });
    expect(items.size).toBe(0);
  });
});
