// The native plugin's ResourceProvider service, not `provider.main()`, which drops Configure's variables, request
// timeouts and detailed diffs (pulumi/pulumi#10915). One generic mapping of the protocol onto the engine: nothing here
// is per resource; each method says what it takes from the request (messages.ts names the fields).
import type * as grpcJs from "@grpc/grpc-js";
import type { AnyObjectSchema, ResourceDeclaration } from "../engine/declaration";
import { ResourceInitError, type Naming, type PropertyMap, type ResourceCall } from "../engine/engine";
import { UNKNOWN, containsUnknown } from "../wire";
import { operationMonitor, type Notice } from "../engine/operation";
import type { AnyFunctionDeclaration } from "../functions/define";
import { invokeFunction } from "../functions/define";
import { ProviderSession } from "../session";
import { PROVIDER_SETTING_KEYS, validateProviderSettings } from "../settings";
import { fromStruct, toStruct } from "./marshal";
import {
  AUTONAMING_MODE,
  DIFF_CHANGES,
  PROPERTY_DIFF_KIND,
  RESOURCE_INIT_FAILED,
  STATUS,
  type RequestOf,
  type ResponseOf,
  type ServedMethod,
} from "./messages";
import { encode, type Plain } from "./protobuf";
import { secretProperties } from "../engine/declaration";
import { sdkModule } from "./sdk-modules";
import { listen, type ServiceHandlers, type UnaryHandler } from "./service";
import { goName, pythonName } from "../spellings";
import { NATIVE_TOKEN_PREFIX, nativeTypeToken } from "../type-tokens";

/** gRPC's status codes and metadata, loaded when the first error is answered (service.ts says why not before). */
const grpc = (): Pick<typeof grpcJs, "status" | "Metadata"> => sdkModule<typeof grpcJs>("@grpc/grpc-js");

type Request<M extends ServedMethod> = RequestOf<M>;
type Response<M extends ServedMethod> = ResponseOf<M>;

/** Where a create whose wait failed is marked in state, so that the next update finishes it. */
export const PENDING_READY_KEY = "__pendingReady";

export interface NativeProviderOptions {
  version: string;
  /** schema.json's text. */
  schema: () => string;
  declarations: readonly ResourceDeclaration[];
  /** The functions, asked for on the first Invoke (most operations call none). */
  functions: () => readonly AnyFunctionDeclaration[];
  /** Where the user is told what operations wait on (the engine's Log call; pulumi-engine-log.ts). */
  log?: { notify(notice: Notice): void; flush(): Promise<void> };
}

/** `restcloud:index:Vpc` (or a URN ending in it) to `Vpc`. */
function resourceType(token: string, urn: string): string {
  const type = token || urn.split("::")[2]?.split("$").pop() || "";
  if (!type.startsWith(NATIVE_TOKEN_PREFIX))
    throw new Error(`restcloud: ${type || urn} is not a restcloud resource type`);
  return type.slice(NATIVE_TOKEN_PREFIX.length);
}

function logicalName(name: string, urn: string): string {
  return name || urn.split("::").slice(3).join("::");
}

/** A setting's key without its namespace: `restcloud:config:apiUrl`, `restcloud:apiUrl` and `apiUrl` are `apiUrl`. */
function settingKey(key: string): string {
  return key.replace(/^restcloud:(config:)?/, "");
}

/** The settings among the properties (a provider's inputs or the stack's config), as text. */
function settingsOf(props: PropertyMap): Map<string, string> {
  const settings = new Map<string, string>();
  for (const [key, value] of Object.entries(props)) {
    const name = settingKey(key);
    // A value not known yet (a preview's) is no setting yet: a map holding one (defaultTags) neither.
    if (!PROVIDER_SETTING_KEYS.includes(name) || value === undefined || value === null || containsUnknown(value))
      continue;
    settings.set(name, typeof value === "string" ? value : JSON.stringify(value));
  }
  return settings;
}

/**
 * The stack's `pulumi:autonaming` for the resource, as the engine sends it: only to a provider whose
 * Configure says it takes it, and only when the stack sets a pattern, verbatim or disabled for it.
 */
function autonamingOf(request: Request<"check">): Pick<Naming, "autonaming"> {
  const options = request.autonaming;
  if (!options) return {};
  const mode =
    options.mode === AUTONAMING_MODE.enforce
      ? "enforce"
      : options.mode === AUTONAMING_MODE.disable
        ? "disable"
        : "propose";
  return { autonaming: { mode, proposedName: options.proposedName } };
}

function timeoutOf(seconds: number): Pick<ResourceCall, "timeoutMs"> {
  return seconds > 0 ? { timeoutMs: Math.round(seconds * 1000) } : {};
}

/** The properties a declaration keeps secret, and those that arrived secret. */
function secretKeys(declaration: ResourceDeclaration, ...arrived: Set<string>[]): Set<string> {
  return new Set([...secretProperties(declaration), ...arrived.flatMap((set) => [...set])]);
}

/**
 * The field as the Python and Go SDKs spell it, when Python's spelling differs from the schema's
 * (`storageOfferingUuid`: " (Python: storage_offering_uuid, Go: StorageOfferingUuid)"), else "". The
 * engine prints the schema's name, and a provider cannot tell which language the program is in.
 */
export function otherSpellings(property: string): string {
  const segments = property.split(".");
  const python = segments.map(pythonName).join(".");
  if (python === property) return "";
  return ` (Python: ${python}, Go: ${segments.map(goName).join(".")})`;
}

function failure(property: string, reason: string): { property: string; reason: string } {
  return { property, reason };
}

/** A bad argument of a resource or a function, named in each SDK's spelling. */
const argumentFailure = (property: string, reason: string) => failure(property, reason + otherSpellings(property));

/** A create that has its id but did not become ready: the id goes to state, marked to finish. */
function initFailed(error: ResourceInitError, properties: Plain): grpcJs.ServiceError {
  const { status: codes, Metadata } = grpc();
  const detail = encode(RESOURCE_INIT_FAILED, { id: error.id, properties, reasons: error.reasons });
  const status = encode(STATUS, {
    code: codes.UNKNOWN,
    message: error.message,
    details: [{ typeUrl: "type.googleapis.com/pulumirpc.ErrorResourceInitFailed", value: detail }],
  });
  const metadata = new Metadata();
  metadata.add("grpc-status-details-bin", status);
  return Object.assign(new Error(error.message), { code: codes.UNKNOWN, details: error.message, metadata });
}

function plainError(error: unknown): grpcJs.ServiceError {
  const message = error instanceof Error ? error.message : String(error);
  const { status: codes, Metadata } = grpc();
  return Object.assign(new Error(message), { code: codes.UNKNOWN, details: message, metadata: new Metadata() });
}

function unary<M extends ServedMethod>(handler: (request: Request<M>) => Promise<Response<M>>): UnaryHandler {
  return (call, callback) => {
    handler(call.request as Request<M>).then(
      (response) => callback(null, response),
      (error: unknown) =>
        callback(error instanceof Error && "code" in error ? (error as grpcJs.ServiceError) : plainError(error)),
    );
  };
}

export class NativeProvider {
  readonly session: ProviderSession;
  private readonly declarations: Map<string, ResourceDeclaration>;
  private functionsByToken: Map<string, AnyFunctionDeclaration> | undefined;

  constructor(private readonly options: NativeProviderOptions) {
    this.declarations = new Map(options.declarations.map((d) => [d.type, d]));
    this.session = new ProviderSession(this.declarations, options.log);
  }

  private get functions(): Map<string, AnyFunctionDeclaration> {
    return (this.functionsByToken ??= new Map(this.options.functions().map((f) => [nativeTypeToken(f.name), f])));
  }

  /** The service's handlers, by the method names of the generated service definition. */
  service(): ServiceHandlers {
    return {
      getPluginInfo: unary<"getPluginInfo">(async () => ({ version: this.options.version })),
      getSchema: unary<"getSchema">(async () => ({ schema: this.options.schema() })),
      checkConfig: unary<"checkConfig">((request) => this.checkConfig(request)),
      diffConfig: unary<"diffConfig">((request) => this.diffConfig(request)),
      configure: unary<"configure">((request) => this.configure(request)),
      check: unary<"check">((request) => this.check(request)),
      diff: unary<"diff">((request) => this.diff(request)),
      create: unary<"create">((request) => this.session.answer(() => this.create(request))),
      read: unary<"read">((request) => this.session.answer(() => this.read(request))),
      update: unary<"update">((request) => this.session.answer(() => this.update(request))),
      delete: unary<"delete">((request) => this.session.answer(() => this.delete(request))),
      invoke: unary<"invoke">((request) => this.invoke(request)),
      // Ctrl-C: every wait ends at once; a create that has its id returns it, marked to finish.
      cancel: unary<"cancel">(async () => {
        operationMonitor.cancelAll();
        return {};
      }),
    };
  }

  /** Each setting given is checked by its own rules; a failure names the field. Missing ones may come from RESTCLOUD_*. */
  async checkConfig(request: Request<"checkConfig">): Promise<Response<"checkConfig">> {
    const { props } = fromStruct(request.news);
    const given = Object.fromEntries(
      Object.entries(props)
        .filter(([key]) => PROVIDER_SETTING_KEYS.includes(settingKey(key)))
        .map(([key, value]) => [settingKey(key), value]),
    );
    return {
      inputs: request.news,
      failures: validateProviderSettings(given).map((p) => failure(p.key, p.message)),
    };
  }

  /**
   * A change of settings updates the provider; nothing replaces its resources. Keys that are not
   * restcloud settings (the dynamic adapter's default provider stores the whole stack config) are
   * no change: a stack moved from the dynamic mode sees none.
   */
  async diffConfig(request: Request<"diffConfig">): Promise<Response<"diffConfig">> {
    const olds = settingsOf(fromStruct(request.oldInputs ?? request.olds).props);
    const news = settingsOf(fromStruct(request.news).props);
    const changed = PROVIDER_SETTING_KEYS.filter((key) => olds.get(key) !== news.get(key));
    return { changes: changed.length > 0 ? DIFF_CHANGES.some : DIFF_CHANGES.none, diffs: changed };
  }

  /**
   * Takes only `restcloud:*` settings; secrets stay secret (acceptSecrets); the engine then sends the
   * stack's autonaming with each Check (supportsAutonamingConfiguration).
   */
  async configure(request: Request<"configure">): Promise<Response<"configure">> {
    const settings = request.args ? settingsOf(fromStruct(request.args).props) : settingsOf(request.variables);
    this.session.configure({ get: (key) => settings.get(settingKey(key)) });
    return { acceptSecrets: true, supportsPreview: true, supportsAutonamingConfiguration: true };
  }

  /**
   * Fills the auto-name as the stack's autonaming says, else from the engine's random seed: either way
   * a preview and the update running its plan show one name.
   */
  async check(request: Request<"check">): Promise<Response<"check">> {
    const type = resourceType(request.type, request.urn);
    const engine = this.session.engine(type);
    const olds = fromStruct(request.olds);
    const news = fromStruct(request.news);
    const autoNamed = engine.declaration.autoName;
    const previous = autoNamed ? olds.props[autoNamed] : undefined;
    const checked = engine.check(olds.props, news.props, {
      logicalName: logicalName(request.name, request.urn),
      ...(typeof previous === "string" && previous !== UNKNOWN ? { previousName: previous } : {}),
      seed: request.randomSeed,
      ...autonamingOf(request),
    });
    if (checked.failures.length === 0)
      checked.failures.push(...(await engine.checkReferences(olds.props, checked.inputs)));
    return {
      inputs: toStruct(checked.inputs, secretKeys(engine.declaration, news.secrets)),
      failures: checked.failures.map((f) => argumentFailure(f.property, f.reason)),
    };
  }

  /** Per argument: update or replace, with the kind of change, so replaceOnChanges, ignoreChanges and --diff work. */
  async diff(request: Request<"diff">): Promise<Response<"diff">> {
    const type = resourceType(request.type, request.urn);
    const engine = this.session.engine(type);
    const state = fromStruct(request.olds).props;
    const olds = request.oldInputs ? fromStruct(request.oldInputs).props : state;
    const news = fromStruct(request.news).props;
    const outcome = engine.diff(olds, news, state);
    const Kind = PROPERTY_DIFF_KIND;
    const detailedDiff: Record<string, { kind: number; inputDiff: boolean }> = {};
    for (const key of [...outcome.replaces, ...outcome.updates]) {
      const replace = outcome.replaces.includes(key);
      const kind =
        olds[key] === undefined
          ? replace
            ? Kind.addReplace
            : Kind.add
          : news[key] === undefined
            ? replace
              ? Kind.deleteReplace
              : Kind.delete
            : replace
              ? Kind.updateReplace
              : Kind.update;
      detailedDiff[key] = { kind, inputDiff: true };
    }
    return {
      changes: outcome.changes ? DIFF_CHANGES.some : DIFF_CHANGES.none,
      replaces: outcome.replaces,
      diffs: [...outcome.replaces, ...outcome.updates],
      deleteBeforeReplace: outcome.deleteBeforeReplace,
      detailedDiff,
      hasDetailedDiff: true,
    };
  }

  /** Create, Update and Delete take the request's timeout (customTimeouts). */
  async create(request: Request<"create">): Promise<Response<"create">> {
    const type = resourceType(request.type, request.urn);
    const engine = this.session.engine(type);
    const { props, secrets } = fromStruct(request.properties);
    const keep = secretKeys(engine.declaration, secrets);
    if (request.preview) {
      // What the create will know only once done: its outputs.
      return { properties: toStruct({ ...unknownOutputs(engine.declaration), ...props }, keep) };
    }
    const call: ResourceCall = {
      name: logicalName(request.name, request.urn),
      urn: request.urn,
      ...timeoutOf(request.timeout),
    };
    try {
      const { id, state } = await engine.create(props, call);
      return { id, properties: toStruct(state, keep) };
    } catch (error) {
      if (error instanceof ResourceInitError) {
        throw initFailed(error, toStruct({ ...error.properties, [PENDING_READY_KEY]: true }, keep));
      }
      throw error;
    }
  }

  /** Refresh; or, with an id alone (`pulumi import`, the import option), an import. */
  async read(request: Request<"read">): Promise<Response<"read">> {
    const type = resourceType(request.type, request.urn);
    const engine = this.session.engine(type);
    const state = fromStruct(request.properties);
    const inputs = fromStruct(request.inputs);
    const { [PENDING_READY_KEY]: pending, ...props } = { ...state.props, ...inputs.props };
    const keep = secretKeys(engine.declaration, state.secrets, inputs.secrets);
    const live = await engine.read(request.id, props, {
      name: logicalName(request.name, request.urn),
      urn: request.urn,
      ...timeoutOf(request.timeout),
    });
    if (!live) return {}; // no id: the record is gone, and refresh drops the resource
    return {
      id: request.id,
      properties: toStruct(pending ? { ...live.state, [PENDING_READY_KEY]: true } : live.state, keep),
      inputs: toStruct(live.inputs, keep),
    };
  }

  async update(request: Request<"update">): Promise<Response<"update">> {
    const type = resourceType(request.type, request.urn);
    const engine = this.session.engine(type);
    const olds = fromStruct(request.olds);
    const oldInputs = fromStruct(request.oldInputs);
    const news = fromStruct(request.news);
    const keep = secretKeys(engine.declaration, news.secrets);
    const { [PENDING_READY_KEY]: pending, ...oldState } = olds.props;
    if (request.preview) return { properties: toStruct({ ...oldState, ...news.props }, keep) };
    const state = await engine.update(request.id, { ...oldState, ...oldInputs.props }, news.props, {
      name: logicalName(request.name, request.urn),
      urn: request.urn,
      ...timeoutOf(request.timeout),
      ...(pending === true ? { pendingReady: true } : {}),
    });
    return { properties: toStruct(state, keep) };
  }

  async delete(request: Request<"delete">): Promise<Response<"delete">> {
    const type = resourceType(request.type, request.urn);
    const { [PENDING_READY_KEY]: _pending, ...props } = {
      ...fromStruct(request.properties).props,
      ...fromStruct(request.oldInputs).props,
    };
    await this.session.engine(type).delete(request.id, props, {
      name: logicalName(request.name, request.urn),
      urn: request.urn,
      ...timeoutOf(request.timeout),
    });
    return {};
  }

  /** A function (`restcloud:index:getZone`): bad arguments come back as failures naming the field. */
  async invoke(request: Request<"invoke">): Promise<Response<"invoke">> {
    const declaration = this.functions.get(request.tok);
    if (!declaration) throw new Error(`restcloud: unknown function ${request.tok}`);
    const { props } = fromStruct(request.args);
    const outcome = await invokeFunction(declaration, this.session.client(), props, {
      zoneUuid: this.session.settings.zoneUuid,
    });
    if ("problems" in outcome) {
      return { failures: outcome.problems.map((p) => argumentFailure(p.property, p.reason)) };
    }
    // A secret answer (passwords, keys) goes back marked secret: the SDKs' Output forms keep it so.
    return { return: toStruct(outcome.result as PropertyMap, declaration.secretOutputs ?? []) };
  }
}

/** Every output of a declaration, as not known yet (a preview of a create). */
function unknownOutputs(declaration: ResourceDeclaration): PropertyMap {
  return Object.fromEntries(Object.keys((declaration.outputs as AnyObjectSchema).shape).map((key) => [key, UNKNOWN]));
}

/** Serves the provider on a free port of 127.0.0.1: the port (a plugin prints it) and a way to stop. */
export function serve(provider: NativeProvider): Promise<{ port: number; stop(): void }> {
  return listen(provider.service());
}
