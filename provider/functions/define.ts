// A look-up function is a declaration (name, described zod inputs and outputs, how to answer); `defineFunction` makes
// the async function users call, with `fn.declaration`. It runs in the program: settings come from the `restcloud:*`
// config (nothing reaches state), then RESTCLOUD_*, or `{ client }` / settings as the second argument.
import type * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import { ApiError, RestCloudClient, ConfigError } from "../client";
import type { AnyObjectSchema } from "../engine/declaration";
import { inputIssueMessage } from "../engine/validators";
import { howToSet, providerSetting } from "../settings";
import { pulumiSdk } from "../program/pulumi-sdk";
import { configuredMode } from "../program/mode";
import { nativeTypeToken } from "../type-tokens";
import { pluginOptions } from "../plugin-release";

/** The settings a function runs with, resolved from its options, the stack config and the environment. */
export interface FunctionContext {
  /** The default zone (`restcloud:zoneUuid`, else RESTCLOUD_ZONE_UUID), for inputs that default to it. */
  readonly zoneUuid?: string;
}

/** The arguments `invoke` receives: validated, with the zone-defaulted input always present. */
export type InvokeArgs<IS extends AnyObjectSchema, Zone extends string> = z.output<IS> & { [K in Zone]-?: string };

export interface FunctionDeclaration<IS extends AnyObjectSchema, OS extends z.ZodType, Zone extends string = never> {
  /** The name users call: starts with `get` (e.g. `getZones`). Its schema token is `restcloud:index:<name>`. */
  readonly name: string;
  /** One paragraph for the docs and schema.json. */
  readonly description: string;
  /** The arguments: camelCase, each with `.describe()` (its effect and default). An empty object for none. */
  readonly inputs: IS;
  /** The answer: plain typed data, camelCase, every field described. */
  readonly outputs: OS;
  /**
   * The input (declared optional) that defaults to the provider's `restcloud:zoneUuid`, else
   * RESTCLOUD_ZONE_UUID; a call with neither fails, naming both.
   */
  readonly zoneDefault?: Zone & keyof z.infer<IS>;
  /**
   * The docs' example arguments, where the required ones alone would not make a call that works
   * (a function that wants exactly one match needs a filter). Default: the required arguments.
   */
  readonly example?: Partial<z.input<IS>>;
  /**
   * The answer's top-level fields that are secret (passwords, keys). The native plugin marks them
   * secret in its answer and schema.json says `"secret": true`, so that the `...Output` forms of every
   * SDK (`getInstancePasswordsOutput`, `get_instance_passwords_output`) hand out a secret Output; in
   * the dynamic mode the TypeScript `.output` form wraps the whole answer with `pulumi.secret`.
   */
  readonly secretOutputs?: readonly (keyof z.output<OS> & string)[];
  /**
   * Administrators only: with a regular account's keys the API answers 550 and the call fails saying
   * so. The docs say it too (the description should, in words).
   */
  readonly adminOnly?: boolean;
  /** Answers through the client; `args` are validated, with the zone default applied. */
  invoke(client: RestCloudClient, args: InvokeArgs<IS, Zone>, context: FunctionContext): Promise<z.input<OS>>;
}

/** How a call finds the API: an explicit client or settings, else the stack config, else RESTCLOUD_*. */
export interface InvokeOptions {
  /** A ready client (tests, scripts): used as is. */
  client?: RestCloudClient;
  apiUrl?: string;
  apiKey?: string;
  secretKey?: string;
  /** The default zone for inputs that take one. */
  zoneUuid?: string;
  /** An explicit provider (`restcloud.Provider`): the call goes through the native plugin, with its settings. */
  provider?: pulumi.ProviderResource;
}

/** The arguments of an Output form: each may be an Input (an Output of another resource, a promise). */
export type FunctionInputs<IS extends AnyObjectSchema> = { [K in keyof z.input<IS>]: pulumi.Input<z.input<IS>[K]> };

/** The Output form of a function: Input arguments, an Output answer (secret when the function's answer is). */
export type OutputForm<IS extends AnyObjectSchema, OS extends z.ZodType> =
  Record<never, never> extends z.input<IS>
    ? (args?: FunctionInputs<IS>, options?: InvokeOptions) => pulumi.Output<z.output<OS>>
    : (args: FunctionInputs<IS>, options?: InvokeOptions) => pulumi.Output<z.output<OS>>;

/** The typed function users call, with its declaration (for schema.json, docs and tests). */
export type RestCloudFunction<IS extends AnyObjectSchema, OS extends z.ZodType, Zone extends string = never> =
  // The arguments may be left out when none is required (an empty object is a valid input).
  (Record<never, never> extends z.input<IS>
    ? (args?: z.input<IS>, options?: InvokeOptions) => Promise<z.output<OS>>
    : (args: z.input<IS>, options?: InvokeOptions) => Promise<z.output<OS>>) & {
    readonly declaration: FunctionDeclaration<IS, OS, Zone>;
    /**
     * The Output form (`restcloud.getInstancePasswords.output({ instanceUuid: vm.id })`): arguments
     * may be Outputs of resources of the program; the answer is an Output, secret when the function
     * declares secret outputs, so that exporting any part of it keeps it encrypted in the state.
     */
    readonly output: OutputForm<IS, OS>;
  };

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyFunctionDeclaration = FunctionDeclaration<AnyObjectSchema, any, any>;

/** A native Invoke's options: the plugin of this version (downloaded when the engine lacks it), and the provider given. */
const nativeInvokeOptions = (options: InvokeOptions): pulumi.InvokeOptions => ({
  ...pluginOptions(),
  ...(options.provider ? { provider: options.provider } : {}),
});

/** The settings a client needs, as the provider's settings table (../settings.ts) has them. */
const CREDENTIALS = (["apiUrl", "apiKey", "secretKey"] as const).map(providerSetting);

/** `restcloud:<key>` of the running stack; undefined outside a Pulumi program. */
function stackConfig(key: string): string | undefined {
  try {
    return new (pulumiSdk().Config)("restcloud").get(key) || undefined;
  } catch {
    return undefined;
  }
}

/** The option, else `restcloud:<key>` of the stack, else the setting's environment variable. */
const setting = (options: InvokeOptions, key: "apiUrl" | "apiKey" | "secretKey" | "zoneUuid"): string | undefined =>
  options[key] || stackConfig(key) || process.env[providerSetting(key).env] || undefined;

// One client per configuration, so that a program calling many functions reuses connections.
const clients = new Map<string, RestCloudClient>();

/** The client a call uses; a ConfigError naming each missing setting and how to set it. */
export function functionClient(name: string, options: InvokeOptions = {}): RestCloudClient {
  if (options.client) return options.client;
  const values = {
    apiUrl: setting(options, "apiUrl"),
    apiKey: setting(options, "apiKey"),
    secretKey: setting(options, "secretKey"),
  };
  const missing = CREDENTIALS.filter((s) => !values[s.key as keyof typeof values]).map(
    (s) => `${s.key} (${howToSet(s)})`,
  );
  if (missing.length > 0) throw new ConfigError(`restcloud.${name}: missing ${missing.join(", ")}`);
  const cacheKey = JSON.stringify([values.apiUrl, values.apiKey, values.secretKey]);
  let client = clients.get(cacheKey);
  if (!client) {
    client = new RestCloudClient({ apiUrl: values.apiUrl, apiKey: values.apiKey, secretKey: values.secretKey });
    clients.set(cacheKey, client);
  }
  return client;
}

/** Validation failures as one line per field, naming the function. */
function invalidArguments(name: string, problems: readonly string[]): ConfigError {
  return new ConfigError(`restcloud.${name}: invalid arguments: ${problems.join("; ")}`);
}

/** The parsed arguments, or "field: reason" for each that is not valid and each name that is no argument. */
function parseArguments(
  declaration: AnyFunctionDeclaration,
  given: Record<string, unknown>,
): { data: unknown; problems: string[] } {
  const parsed = declaration.inputs.safeParse(given, { error: inputIssueMessage });
  const problems = parsed.success
    ? []
    : parsed.error.issues.map((i) => `${i.path.length > 0 ? i.path.join(".") : "arguments"}: ${i.message}`);
  for (const key of Object.keys(given)) {
    if (given[key] !== undefined && !(key in declaration.inputs.shape)) {
      problems.push(`${key}: is not an argument of ${declaration.name}`);
    }
  }
  return { data: parsed.data, problems };
}

/**
 * What a failed call throws: the error as it was (same class, same fields, for `instanceof` and
 * `catch`), its message naming the function, and no stack. Uncaught in a program, Pulumi then prints
 * the message alone (it treats the error as a RunError), not a colored stack trace through the
 * package's compiled files. A copy: one error object may answer several callers (shared reads).
 */
export function functionError(name: string, error: unknown): Error {
  const original = error instanceof Error ? error : new Error(String(error));
  const prefix = `restcloud.${name}: `;
  const message = original.message.startsWith(prefix) ? original.message : `${prefix}${original.message}`;
  const copy = Object.assign(Object.create(Object.getPrototypeOf(original) as object) as Error, original);
  for (const [key, value] of Object.entries({ message, stack: `${copy.name}: ${message}`, __pulumiRunError: true })) {
    Object.defineProperty(copy, key, { value, writable: true, configurable: true, enumerable: false });
  }
  return copy;
}

/**
 * A 550 (valid keys, no right to the operation) as an error that says so, naming the function; other
 * errors as they are.
 */
function permissionError(declaration: AnyFunctionDeclaration, error: unknown): unknown {
  if (!(error instanceof ApiError) || error.status !== 550) return error;
  const who = declaration.adminOnly
    ? "it is an administrator's call: use an administrator account's keys"
    : "the account whose keys the call uses may not do this";
  return new ApiError({
    operation: error.operation,
    method: error.method,
    path: error.path,
    status: error.status,
    errorCode: error.errorCode,
    retryable: false,
    message: `permission denied: ${who} (${error.serverMessage})`,
    attempts: error.attempts,
  });
}

/** The declaration's answer, parsed as declared; a 550 explained. */
async function answer(
  declaration: AnyFunctionDeclaration,
  client: RestCloudClient,
  args: unknown,
  context: FunctionContext,
): Promise<unknown> {
  let raw: unknown;
  try {
    raw = await declaration.invoke(client, args as never, context);
  } catch (error) {
    throw permissionError(declaration, error);
  }
  // The declared outputs are the contract: parse, so that what users get is what schema.json says.
  return declaration.outputs.parse(raw);
}

/**
 * A call, for a front end that serves functions (the native plugin's Invoke): the zone default
 * applied, the arguments validated (a problem per field), the answer parsed as declared.
 */
export async function invokeFunction(
  declaration: AnyFunctionDeclaration,
  client: RestCloudClient,
  args: Record<string, unknown>,
  context: FunctionContext,
): Promise<{ result: unknown } | { problems: { property: string; reason: string }[] }> {
  const given = { ...args };
  const zoneKey = declaration.zoneDefault as string | undefined;
  if (zoneKey && (given[zoneKey] === undefined || given[zoneKey] === "")) {
    if (!context.zoneUuid)
      return {
        problems: [
          { property: zoneKey, reason: "is not given and the provider has no default zone (restcloud:zoneUuid)" },
        ],
      };
    given[zoneKey] = context.zoneUuid;
  }
  const { data, problems } = parseArguments(declaration, given);
  if (problems.length > 0)
    return {
      problems: problems.map((p) => {
        const at = p.indexOf(": ");
        return { property: p.slice(0, at), reason: p.slice(at + 2) };
      }),
    };
  return { result: await answer(declaration, client, data, context) };
}

/** Declares a function and returns the typed async function users call, with `.declaration`. */
export function defineFunction<IS extends AnyObjectSchema, OS extends z.ZodType, Zone extends string = never>(
  declaration: FunctionDeclaration<IS, OS, Zone>,
): RestCloudFunction<IS, OS, Zone> {
  const call = async (args: z.input<IS> | undefined, options: InvokeOptions): Promise<z.output<OS>> => {
    const context: FunctionContext = { zoneUuid: setting(options, "zoneUuid") };
    const given: Record<string, unknown> = { ...(args as Record<string, unknown> | undefined) };
    const zoneKey = declaration.zoneDefault;
    if (zoneKey && (given[zoneKey] === undefined || given[zoneKey] === "")) {
      if (!context.zoneUuid)
        throw new ConfigError(
          `restcloud.${declaration.name}: ${zoneKey} is not given and no default zone is set ` +
            `(pulumi config set restcloud:zoneUuid <uuid>, or ${providerSetting("zoneUuid").env})`,
        );
      given[zoneKey] = context.zoneUuid;
    }
    const { data, problems } = parseArguments(declaration as AnyFunctionDeclaration, given);
    if (problems.length > 0) throw invalidArguments(declaration.name, problems);
    const client = functionClient(declaration.name, options);
    return (await answer(declaration as AnyFunctionDeclaration, client, data, context)) as z.output<OS>;
  };
  // In the native mode the plugin answers (Invoke), with its provider's settings.
  const invokeNative = async (args: z.input<IS> | undefined, options: InvokeOptions): Promise<z.output<OS>> =>
    (await pulumiSdk().runtime.invoke(
      nativeTypeToken(declaration.name),
      (args ?? {}) as pulumi.Inputs,
      nativeInvokeOptions(options),
    )) as z.output<OS>;
  const native = (options: InvokeOptions) =>
    options.client === undefined &&
    options.apiUrl === undefined &&
    (options.provider !== undefined || configuredMode() === "native");
  const fn = (args?: z.input<IS>, options: InvokeOptions = {}): Promise<z.output<OS>> =>
    (native(options) ? invokeNative(args, options) : call(args, options)).catch((error: unknown) => {
      throw functionError(declaration.name, error);
    });
  const secret = (declaration.secretOutputs ?? []).length > 0;
  // The Output form: in the native mode the SDK's invokeOutput (it waits for unknown arguments and
  // keeps the secrets the plugin marks); in the dynamic mode the call once the arguments are known,
  // the whole answer secret when any of its fields is.
  const output = (args?: FunctionInputs<IS>, options: InvokeOptions = {}): pulumi.Output<z.output<OS>> => {
    const sdk = pulumiSdk();
    if (native(options))
      return sdk.runtime.invokeOutput<z.output<OS>>(
        nativeTypeToken(declaration.name),
        (args ?? {}) as pulumi.Inputs,
        nativeInvokeOptions(options),
      );
    const answered = sdk.output(args ?? {}).apply((given) => fn(given as z.input<IS>, options));
    return (secret ? sdk.secret(answered) : answered) as pulumi.Output<z.output<OS>>;
  };
  Object.defineProperty(fn, "name", { value: declaration.name });
  Object.defineProperty(fn, "declaration", { value: declaration, enumerable: true });
  Object.defineProperty(fn, "output", { value: output, enumerable: true });
  return fn as unknown as RestCloudFunction<IS, OS, Zone>;
}
