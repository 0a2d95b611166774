/**
 * A dynamic resource kept in the key-value HTTP server the test starts: proves that the real CLI,
 * the Node.js language host and the dynamic-provider plugin work together end to end.
 */
import * as pulumi from "@pulumi/pulumi";

interface ItemInputs {
  storeUrl: string;
  value: string;
}

async function request(method: string, url: string, body?: unknown): Promise<Response> {
  const response = await fetch(url, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok && response.status !== 404) throw new Error(`${method} ${url}: HTTP ${response.status}`);
  return response;
}

const itemProvider: pulumi.dynamic.ResourceProvider<ItemInputs, ItemInputs> = {
  async create(inputs) {
    const id = `item-${Math.random().toString(36).slice(2, 10)}`;
    await request("PUT", `${inputs.storeUrl}/items/${id}`, { value: inputs.value });
    return { id, outs: inputs };
  },
  async read(id, props) {
    const response = await request("GET", `${props!.storeUrl}/items/${id}`);
    if (response.status === 404) return { id: undefined as unknown as string, props: undefined };
    const stored = (await response.json()) as { value: string };
    return { id, props: { ...props!, value: stored.value } };
  },
  async diff(_id, olds, news) {
    const replaces = olds.storeUrl !== news.storeUrl ? ["storeUrl"] : [];
    return { changes: olds.value !== news.value || replaces.length > 0, replaces };
  },
  async update(id, _olds, news) {
    await request("PUT", `${news.storeUrl}/items/${id}`, { value: news.value });
    return { outs: news };
  },
  async delete(id, props) {
    await request("DELETE", `${props.storeUrl}/items/${id}`);
  },
};

class Item extends pulumi.dynamic.Resource {
  declare readonly value: pulumi.Output<string>;
  constructor(name: string, args: { storeUrl: pulumi.Input<string>; value: pulumi.Input<string> }) {
    super(itemProvider, name, { ...args, value: args.value }, {});
  }
}

const config = new pulumi.Config();
const item = new Item("greeting", { storeUrl: config.require("storeUrl"), value: config.require("value") });

export const itemId = item.id;
export const itemValue = item.value;
