// The messages of the ResourceProvider service the plugin answers, as tables for protobuf.ts: each field's number, name
// and type, from pulumi/pulumi's proto/pulumi/provider.proto and plugin.proto (and google.rpc.Status, google.protobuf.Any
// for the error details). A field the plugin neither reads nor writes is left out: it is skipped when read.
import type { FieldType, MessageSpec, Plain } from "./protobuf";

const EMPTY = {} as const satisfies MessageSpec;

const CHECK_FAILURE = {
  1: { name: "property", type: "string" },
  2: { name: "reason", type: "string" },
} as const satisfies MessageSpec;
const PROPERTY_DIFF = {
  1: { name: "kind", type: "int32" },
  2: { name: "inputDiff", type: "bool" },
} as const satisfies MessageSpec;

const CHECK_REQUEST = {
  1: { name: "urn", type: "string" },
  2: { name: "olds", type: "struct" },
  3: { name: "news", type: "struct" },
  5: { name: "randomSeed", type: "bytes" },
  6: { name: "name", type: "string" },
  7: { name: "type", type: "string" },
  8: {
    name: "autonaming",
    type: { message: { 1: { name: "proposedName", type: "string" }, 2: { name: "mode", type: "int32" } } },
  },
} as const satisfies MessageSpec;

const CHECK_RESPONSE = {
  1: { name: "inputs", type: "struct" },
  2: { name: "failures", type: { message: CHECK_FAILURE }, repeated: true },
} as const satisfies MessageSpec;

const DIFF_REQUEST = {
  1: { name: "id", type: "string" },
  2: { name: "urn", type: "string" },
  3: { name: "olds", type: "struct" },
  4: { name: "news", type: "struct" },
  6: { name: "oldInputs", type: "struct" },
  7: { name: "name", type: "string" },
  8: { name: "type", type: "string" },
} as const satisfies MessageSpec;

const DIFF_RESPONSE = {
  1: { name: "replaces", type: "string", repeated: true },
  3: { name: "deleteBeforeReplace", type: "bool" },
  4: { name: "changes", type: "int32" },
  5: { name: "diffs", type: "string", repeated: true },
  6: { name: "detailedDiff", type: { map: PROPERTY_DIFF } },
  7: { name: "hasDetailedDiff", type: "bool" },
} as const satisfies MessageSpec;

/** Each served method's path, request and response. */
export const METHODS = {
  getPluginInfo: { path: "GetPluginInfo", request: EMPTY, response: { 1: { name: "version", type: "string" } } },
  getSchema: {
    path: "GetSchema",
    request: { 1: { name: "version", type: "int32" } },
    response: { 1: { name: "schema", type: "string" } },
  },
  checkConfig: { path: "CheckConfig", request: CHECK_REQUEST, response: CHECK_RESPONSE },
  diffConfig: { path: "DiffConfig", request: DIFF_REQUEST, response: DIFF_RESPONSE },
  configure: {
    path: "Configure",
    request: {
      1: { name: "variables", type: { map: "string" } },
      2: { name: "args", type: "struct" },
      3: { name: "acceptSecrets", type: "bool" },
    },
    response: {
      1: { name: "acceptSecrets", type: "bool" },
      2: { name: "supportsPreview", type: "bool" },
      5: { name: "supportsAutonamingConfiguration", type: "bool" },
    },
  },
  check: { path: "Check", request: CHECK_REQUEST, response: CHECK_RESPONSE },
  diff: { path: "Diff", request: DIFF_REQUEST, response: DIFF_RESPONSE },
  create: {
    path: "Create",
    request: {
      1: { name: "urn", type: "string" },
      2: { name: "properties", type: "struct" },
      3: { name: "timeout", type: "double" },
      4: { name: "preview", type: "bool" },
      5: { name: "name", type: "string" },
      6: { name: "type", type: "string" },
    },
    response: { 1: { name: "id", type: "string" }, 2: { name: "properties", type: "struct" } },
  },
  read: {
    path: "Read",
    request: {
      1: { name: "id", type: "string" },
      2: { name: "urn", type: "string" },
      3: { name: "properties", type: "struct" },
      4: { name: "inputs", type: "struct" },
      5: { name: "name", type: "string" },
      6: { name: "type", type: "string" },
      10: { name: "timeout", type: "double" },
    },
    response: {
      1: { name: "id", type: "string" },
      2: { name: "properties", type: "struct" },
      3: { name: "inputs", type: "struct" },
    },
  },
  update: {
    path: "Update",
    request: {
      1: { name: "id", type: "string" },
      2: { name: "urn", type: "string" },
      3: { name: "olds", type: "struct" },
      4: { name: "news", type: "struct" },
      5: { name: "timeout", type: "double" },
      7: { name: "preview", type: "bool" },
      8: { name: "oldInputs", type: "struct" },
      9: { name: "name", type: "string" },
      10: { name: "type", type: "string" },
    },
    response: { 1: { name: "properties", type: "struct" } },
  },
  delete: {
    path: "Delete",
    request: {
      1: { name: "id", type: "string" },
      2: { name: "urn", type: "string" },
      3: { name: "properties", type: "struct" },
      4: { name: "timeout", type: "double" },
      5: { name: "oldInputs", type: "struct" },
      6: { name: "name", type: "string" },
      7: { name: "type", type: "string" },
    },
    response: EMPTY,
  },
  invoke: {
    path: "Invoke",
    request: { 1: { name: "tok", type: "string" }, 2: { name: "args", type: "struct" } },
    response: {
      1: { name: "return", type: "struct" },
      2: { name: "failures", type: { message: CHECK_FAILURE }, repeated: true },
    },
  },
  cancel: { path: "Cancel", request: EMPTY, response: EMPTY },
} as const satisfies Record<string, { path: string; request: MessageSpec; response: MessageSpec }>;

export type ServedMethod = keyof typeof METHODS;

/** pulumirpc.ErrorResourceInitFailed, packed in a google.protobuf.Any within a google.rpc.Status. */
export const RESOURCE_INIT_FAILED = {
  1: { name: "id", type: "string" },
  2: { name: "properties", type: "struct" },
  3: { name: "reasons", type: "string", repeated: true },
} as const satisfies MessageSpec;
export const STATUS = {
  1: { name: "code", type: "int32" },
  2: { name: "message", type: "string" },
  3: {
    name: "details",
    type: { message: { 1: { name: "typeUrl", type: "string" }, 2: { name: "value", type: "bytes" } } },
    repeated: true,
  },
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

type FieldValue<F> = F extends { type: infer T extends FieldType; repeated: true }
  ? NonNullable<ValueOf<T>>[]
  : F extends { type: infer T extends FieldType }
    ? ValueOf<T>
    : never;

/** A message as a plain object, every field present. */
export type MessageOf<S> = {
  [K in keyof S as S[K] extends { name: infer N extends string } ? N : never]: FieldValue<S[K]>;
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
