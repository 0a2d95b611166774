// The messages of the ResourceProvider service the plugin answers, as tables for protobuf.ts: each field's number, name
// and type, from pulumi/pulumi's proto/pulumi/provider.proto and plugin.proto (and google.rpc.Status, google.protobuf.Any
// for the error details). A field the plugin neither reads nor writes is left out: it is skipped when read.
import type { FieldType, MessageSpec, Plain } from "./protobuf";

const EMPTY = {} as const satisfies MessageSpec;

const CHECK_FAILURE = {
  1: ["property", "string"],
  2: ["reason", "string"],
} as const satisfies MessageSpec;
const PROPERTY_DIFF = {
  1: ["kind", "int32"],
  2: ["inputDiff", "bool"],
} as const satisfies MessageSpec;

const CHECK_REQUEST = {
  1: ["urn", "string"],
  2: ["olds", "struct"],
  3: ["news", "struct"],
  5: ["randomSeed", "bytes"],
  6: ["name", "string"],
  7: ["type", "string"],
  8: ["autonaming", { message: { 1: ["proposedName", "string"], 2: ["mode", "int32"] } }],
} as const satisfies MessageSpec;

const CHECK_RESPONSE = {
  1: ["inputs", "struct"],
  2: ["failures", { message: CHECK_FAILURE }, "repeated"],
} as const satisfies MessageSpec;

const DIFF_REQUEST = {
  1: ["id", "string"],
  2: ["urn", "string"],
  3: ["olds", "struct"],
  4: ["news", "struct"],
  6: ["oldInputs", "struct"],
  7: ["name", "string"],
  8: ["type", "string"],
} as const satisfies MessageSpec;

const DIFF_RESPONSE = {
  1: ["replaces", "string", "repeated"],
  3: ["deleteBeforeReplace", "bool"],
  4: ["changes", "int32"],
  5: ["diffs", "string", "repeated"],
  6: ["detailedDiff", { map: PROPERTY_DIFF }],
  7: ["hasDetailedDiff", "bool"],
} as const satisfies MessageSpec;

/** Each served method's path, request and response. */
export const METHODS = {
  getPluginInfo: { path: "GetPluginInfo", request: EMPTY, response: { 1: ["version", "string"] } },
  getSchema: {
    path: "GetSchema",
    request: { 1: ["version", "int32"] },
    response: { 1: ["schema", "string"] },
  },
  checkConfig: { path: "CheckConfig", request: CHECK_REQUEST, response: CHECK_RESPONSE },
  diffConfig: { path: "DiffConfig", request: DIFF_REQUEST, response: DIFF_RESPONSE },
  configure: {
    path: "Configure",
    request: {
      1: ["variables", { map: "string" }],
      2: ["args", "struct"],
      3: ["acceptSecrets", "bool"],
    },
    response: {
      1: ["acceptSecrets", "bool"],
      2: ["supportsPreview", "bool"],
      5: ["supportsAutonamingConfiguration", "bool"],
    },
  },
  check: { path: "Check", request: CHECK_REQUEST, response: CHECK_RESPONSE },
  diff: { path: "Diff", request: DIFF_REQUEST, response: DIFF_RESPONSE },
  create: {
    path: "Create",
    request: {
      1: ["urn", "string"],
      2: ["properties", "struct"],
      3: ["timeout", "double"],
      4: ["preview", "bool"],
      5: ["name", "string"],
      6: ["type", "string"],
    },
    response: { 1: ["id", "string"], 2: ["properties", "struct"] },
  },
  read: {
    path: "Read",
    request: {
      1: ["id", "string"],
      2: ["urn", "string"],
      3: ["properties", "struct"],
      4: ["inputs", "struct"],
      5: ["name", "string"],
      6: ["type", "string"],
      10: ["timeout", "double"],
    },
    response: {
      1: ["id", "string"],
      2: ["properties", "struct"],
      3: ["inputs", "struct"],
    },
  },
  update: {
    path: "Update",
    request: {
      1: ["id", "string"],
      2: ["urn", "string"],
      3: ["olds", "struct"],
      4: ["news", "struct"],
      5: ["timeout", "double"],
      7: ["preview", "bool"],
      8: ["oldInputs", "struct"],
      9: ["name", "string"],
      10: ["type", "string"],
    },
    response: { 1: ["properties", "struct"] },
  },
  delete: {
    path: "Delete",
    request: {
      1: ["id", "string"],
      2: ["urn", "string"],
      3: ["properties", "struct"],
      4: ["timeout", "double"],
      5: ["oldInputs", "struct"],
      6: ["name", "string"],
      7: ["type", "string"],
    },
    response: EMPTY,
  },
  invoke: {
    path: "Invoke",
    request: { 1: ["tok", "string"], 2: ["args", "struct"] },
    response: {
      1: ["return", "struct"],
      2: ["failures", { message: CHECK_FAILURE }, "repeated"],
    },
  },
  cancel: { path: "Cancel", request: EMPTY, response: EMPTY },
} as const satisfies Record<string, { path: string; request: MessageSpec; response: MessageSpec }>;

export type ServedMethod = keyof typeof METHODS;

/** pulumirpc.ErrorResourceInitFailed, packed in a google.protobuf.Any within a google.rpc.Status. */
export const RESOURCE_INIT_FAILED = {
  1: ["id", "string"],
  2: ["properties", "struct"],
  3: ["reasons", "string", "repeated"],
} as const satisfies MessageSpec;
export const STATUS = {
  1: ["code", "int32"],
  2: ["message", "string"],
  3: ["details", { message: { 1: ["typeUrl", "string"], 2: ["value", "bytes"] } }, "repeated"],
} as const satisfies MessageSpec;

// ---- the TypeScript types of the messages, from the same tables ----

/** A field's value as decoded: a Struct or message not sent is undefined. */
type ValueOf<T extends FieldType> = T extends "string"
  ? string
  : T extends "bool"
    ? boolean
    : T extends "int32" | "double"
      ? number
      : T extends "bytes"
        ? Uint8Array
        : T extends "struct"
          ? Plain | undefined
          : T extends { map: "string" }
            ? Record<string, string>
            : T extends { map: infer M }
              ? Record<string, MessageOf<M>>
              : T extends { message: infer M }
                ? MessageOf<M> | undefined
                : never;

type FieldValue<F> = F extends readonly [string, infer T extends FieldType, "repeated"]
  ? NonNullable<ValueOf<T>>[]
  : F extends readonly [string, infer T extends FieldType]
    ? ValueOf<T>
    : never;

/** A message as a plain object, every field present. */
export type MessageOf<S> = {
  [K in keyof S as S[K] extends readonly [infer N extends string, ...unknown[]] ? N : never]: FieldValue<S[K]>;
};

export type RequestOf<M extends ServedMethod> = MessageOf<(typeof METHODS)[M]["request"]>;
/** A response: a field left out is proto3's default. */
export type ResponseOf<M extends ServedMethod> = Partial<MessageOf<(typeof METHODS)[M]["response"]>>;

export const DIFF_CHANGES = { none: 1, some: 2 } as const;
export const PROPERTY_DIFF_KIND = {
  add: 0,
  addReplace: 1,
  delete: 2,
  deleteReplace: 3,
  update: 4,
  updateReplace: 5,
} as const;
export const AUTONAMING_MODE = { propose: 0, enforce: 1, disable: 2 } as const;
