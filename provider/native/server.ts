// The native plugin's ResourceProvider service over the stubs `@pulumi/pulumi` ships, not `provider.main()`, which
// drops Configure's variables, request timeouts and detailed diffs (pulumi/pulumi#10915). One generic mapping of the
// protocol onto the engine: nothing here is per resource; each method says what it takes from the request.
import type * as grpcJs from "@grpc/grpc-js";
import type * as ProviderMessages from "@pulumi/pulumi/proto/provider_pb";
import type { Struct } from "google-protobuf/google/protobuf/struct_pb";
import type { AnyObjectSchema, ResourceDeclaration } from "../engine/declaration";
import { ResourceInitError, type Naming, type PropertyMap, type ResourceCall } from "../engine/engine";
import { UNKNOWN, containsUnknown } from "../wire";
import { operationMonitor, type Notice } from "../engine/operation";
import type { AnyFunctionDeclaration } from "../functions/define";
import { invokeFunction } from "../functions/define";
import { ProviderSession } from "../session";
import { PROVIDER_SETTING_KEYS, validateProviderSettings } from "../settings";
import { fromStruct, toStruct } from "./marshal";
import { secretProperties } from "../engine/declaration";
import { sdkModule } from "./sdk-modules";
import { listen, type ServiceHandlers, type UnaryHandler } from "./service";
import { goName, pythonName } from "../spellings";
import { NATIVE_TOKEN_PREFIX, nativeTypeToken } from "../type-tokens";

const grpc = sdkModule<typeof grpcJs>("@grpc/grpc-js");
const pb = sdkModule<typeof ProviderMessages>("@pulumi/pulumi/proto/provider_pb");
const pluginPb = sdkModule<typeof import("@pulumi/pulumi/proto/plugin_pb")>("@pulumi/pulumi/proto/plugin_pb");
const emptyPb = sdkModule<typeof import("google-protobuf/google/protobuf/empty_pb")>(
  "google-protobuf/google/protobuf/empty_pb",
);
const anyPb = sdkModule<typeof import("google-protobuf/google/protobuf/any_pb")>(
  "google-protobuf/google/protobuf/any_pb",
);
const statusPb = sdkModule<typeof import("@pulumi/pulumi/proto/status_pb")>("@pulumi/pulumi/proto/status_pb");

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
function autonamingOf(request: ProviderMessages.CheckRequest): Pick<Naming, "autonaming"> {
  const options = request.getAutonaming();
  if (!options) return {};
  const { Mode } = pb.CheckRequest.AutonamingOptions;
  const mode =
    options.getMode() === Mode.ENFORCE ? "enforce" : options.getMode() === Mode.DISABLE ? "disable" : "propose";
  return { autonaming: { mode, proposedName: options.getProposedName() } };
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

function failure(property: string, reason: string): ProviderMessages.CheckFailure {
  const f = new pb.CheckFailure();
  f.setProperty(property);
  f.setReason(reason);
  return f;
}

/** A bad argument of a resource or a function, named in each SDK's spelling. */
const argumentFailure = (property: string, reason: string) => failure(property, reason + otherSpellings(property));

/** A create that has its id but did not become ready: the id goes to state, marked to finish. */
function initFailed(error: ResourceInitError, properties: Struct): grpcJs.ServiceError {
  const detail = new pb.ErrorResourceInitFailed();
  detail.setId(error.id);
  detail.setProperties(properties);
  detail.setReasonsList(error.reasons);
  const details = new anyPb.Any();
  details.pack(detail.serializeBinary(), "pulumirpc.ErrorResourceInitFailed");
  const status = new statusPb.Status();
  status.setCode(grpc.status.UNKNOWN);
  status.setMessage(error.message);
  status.addDetails(details);
  const metadata = new grpc.Metadata();
  metadata.add("grpc-status-details-bin", Buffer.from(status.serializeBinary()));
  return Object.assign(new Error(error.message), { code: grpc.status.UNKNOWN, details: error.message, metadata });
}

function plainError(error: unknown): grpcJs.ServiceError {
  const message = error instanceof Error ? error.message : String(error);
  return Object.assign(new Error(message), {
    code: grpc.status.UNKNOWN,
    details: message,
    metadata: new grpc.Metadata(),
  });
}

function unary<Req, Res>(handler: (request: Req) => Promise<Res>): UnaryHandler {
  return (call, callback) => {
    handler(call.request as Req).then(
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
      getPluginInfo: unary(async () => new pluginPb.PluginInfo().setVersion(this.options.version)),
      getSchema: unary(async () => new pb.GetSchemaResponse().setSchema(this.options.schema())),
      checkConfig: unary((request: ProviderMessages.CheckRequest) => this.checkConfig(request)),
      diffConfig: unary((request: ProviderMessages.DiffRequest) => this.diffConfig(request)),
      configure: unary((request: ProviderMessages.ConfigureRequest) => this.configure(request)),
      check: unary((request: ProviderMessages.CheckRequest) => this.check(request)),
      diff: unary((request: ProviderMessages.DiffRequest) => this.diff(request)),
      create: unary((request: ProviderMessages.CreateRequest) => this.session.answer(() => this.create(request))),
      read: unary((request: ProviderMessages.ReadRequest) => this.session.answer(() => this.read(request))),
      update: unary((request: ProviderMessages.UpdateRequest) => this.session.answer(() => this.update(request))),
      delete: unary((request: ProviderMessages.DeleteRequest) => this.session.answer(() => this.delete(request))),
      invoke: unary((request: ProviderMessages.InvokeRequest) => this.invoke(request)),
      // Ctrl-C: every wait ends at once; a create that has its id returns it, marked to finish.
      cancel: unary(async () => {
        operationMonitor.cancelAll();
        return new emptyPb.Empty();
      }),
    };
  }

  /** Each setting given is checked by its own rules; a failure names the field. Missing ones may come from RESTCLOUD_*. */
  async checkConfig(request: ProviderMessages.CheckRequest): Promise<ProviderMessages.CheckResponse> {
    const { props } = fromStruct(request.getNews());
    const given = Object.fromEntries(
      Object.entries(props)
        .filter(([key]) => PROVIDER_SETTING_KEYS.includes(settingKey(key)))
        .map(([key, value]) => [settingKey(key), value]),
    );
    const response = new pb.CheckResponse();
    response.setInputs(request.getNews());
    response.setFailuresList(validateProviderSettings(given).map((p) => failure(p.key, p.message)));
    return response;
  }

  /**
   * A change of settings updates the provider; nothing replaces its resources. Keys that are not
   * restcloud settings (the dynamic adapter's default provider stores the whole stack config) are
   * no change: a stack moved from the dynamic mode sees none.
   */
  async diffConfig(request: ProviderMessages.DiffRequest): Promise<ProviderMessages.DiffResponse> {
    const olds = settingsOf(fromStruct(request.hasOldInputs() ? request.getOldInputs() : request.getOlds()).props);
    const news = settingsOf(fromStruct(request.getNews()).props);
    const changed = PROVIDER_SETTING_KEYS.filter((key) => olds.get(key) !== news.get(key));
    const response = new pb.DiffResponse();
    response.setChanges(
      changed.length > 0 ? pb.DiffResponse.DiffChanges.DIFF_SOME : pb.DiffResponse.DiffChanges.DIFF_NONE,
    );
    response.setDiffsList(changed);
    return response;
  }

  /**
   * Takes only `restcloud:*` settings; secrets stay secret (acceptSecrets); the engine then sends the
   * stack's autonaming with each Check (supportsAutonamingConfiguration).
   */
  async configure(request: ProviderMessages.ConfigureRequest): Promise<ProviderMessages.ConfigureResponse> {
    const settings = request.hasArgs()
      ? settingsOf(fromStruct(request.getArgs()).props)
      : settingsOf(Object.fromEntries(request.getVariablesMap().toArray()));
    this.session.configure({ get: (key) => settings.get(settingKey(key)) });
    const response = new pb.ConfigureResponse();
    response.setAcceptsecrets(true);
    response.setSupportspreview(true);
    response.setSupportsAutonamingConfiguration(true);
    return response;
  }

  /**
   * Fills the auto-name as the stack's autonaming says, else from the engine's random seed: either way
   * a preview and the update running its plan show one name.
   */
  async check(request: ProviderMessages.CheckRequest): Promise<ProviderMessages.CheckResponse> {
    const type = resourceType(request.getType(), request.getUrn());
    const engine = this.session.engine(type);
    const olds = fromStruct(request.getOlds());
    const news = fromStruct(request.getNews());
    const autoNamed = engine.declaration.autoName;
    const previous = autoNamed ? olds.props[autoNamed] : undefined;
    const checked = engine.check(olds.props, news.props, {
      logicalName: logicalName(request.getName(), request.getUrn()),
      ...(typeof previous === "string" && previous !== UNKNOWN ? { previousName: previous } : {}),
      seed: request.getRandomseed_asU8(),
      ...autonamingOf(request),
    });
    if (checked.failures.length === 0)
      checked.failures.push(...(await engine.checkReferences(olds.props, checked.inputs)));
    const response = new pb.CheckResponse();
    response.setInputs(toStruct(checked.inputs, secretKeys(engine.declaration, news.secrets)));
    response.setFailuresList(checked.failures.map((f) => argumentFailure(f.property, f.reason)));
    return response;
  }

  /** Per argument: update or replace, with the kind of change, so replaceOnChanges, ignoreChanges and --diff work. */
  async diff(request: ProviderMessages.DiffRequest): Promise<ProviderMessages.DiffResponse> {
    const type = resourceType(request.getType(), request.getUrn());
    const engine = this.session.engine(type);
    const state = fromStruct(request.getOlds()).props;
    const olds = request.hasOldInputs() ? fromStruct(request.getOldInputs()).props : state;
    const news = fromStruct(request.getNews()).props;
    const outcome = engine.diff(olds, news, state);
    const { Kind } = pb.PropertyDiff;
    const response = new pb.DiffResponse();
    const detailed = response.getDetaileddiffMap();
    for (const key of [...outcome.replaces, ...outcome.updates]) {
      const replace = outcome.replaces.includes(key);
      const kind =
        olds[key] === undefined
          ? replace
            ? Kind.ADD_REPLACE
            : Kind.ADD
          : news[key] === undefined
            ? replace
              ? Kind.DELETE_REPLACE
              : Kind.DELETE
            : replace
              ? Kind.UPDATE_REPLACE
              : Kind.UPDATE;
      detailed.set(key, new pb.PropertyDiff().setKind(kind).setInputdiff(true));
    }
    response.setChanges(
      outcome.changes ? pb.DiffResponse.DiffChanges.DIFF_SOME : pb.DiffResponse.DiffChanges.DIFF_NONE,
    );
    response.setReplacesList(outcome.replaces);
    response.setDiffsList([...outcome.replaces, ...outcome.updates]);
    response.setDeletebeforereplace(outcome.deleteBeforeReplace);
    response.setHasdetaileddiff(true);
    return response;
  }

  /** Create, Update and Delete take the request's timeout (customTimeouts). */
  async create(request: ProviderMessages.CreateRequest): Promise<ProviderMessages.CreateResponse> {
    const type = resourceType(request.getType(), request.getUrn());
    const engine = this.session.engine(type);
    const { props, secrets } = fromStruct(request.getProperties());
    const keep = secretKeys(engine.declaration, secrets);
    const response = new pb.CreateResponse();
    if (request.getPreview()) {
      // What the create will know only once done: its outputs.
      response.setProperties(toStruct({ ...unknownOutputs(engine.declaration), ...props }, keep));
      return response;
    }
    const call: ResourceCall = {
      name: logicalName(request.getName(), request.getUrn()),
      urn: request.getUrn(),
      ...timeoutOf(request.getTimeout()),
    };
    try {
      const { id, state } = await engine.create(props, call);
      response.setId(id);
      response.setProperties(toStruct(state, keep));
      return response;
    } catch (error) {
      if (error instanceof ResourceInitError) {
        throw initFailed(error, toStruct({ ...error.properties, [PENDING_READY_KEY]: true }, keep));
      }
      throw error;
    }
  }

  /** Refresh; or, with an id alone (`pulumi import`, the import option), an import. */
  async read(request: ProviderMessages.ReadRequest): Promise<ProviderMessages.ReadResponse> {
    const type = resourceType(request.getType(), request.getUrn());
    const engine = this.session.engine(type);
    const state = fromStruct(request.getProperties());
    const inputs = fromStruct(request.getInputs());
    const { [PENDING_READY_KEY]: pending, ...props } = { ...state.props, ...inputs.props };
    const keep = secretKeys(engine.declaration, state.secrets, inputs.secrets);
    const live = await engine.read(request.getId(), props, {
      name: logicalName(request.getName(), request.getUrn()),
      urn: request.getUrn(),
      ...timeoutOf(request.getTimeout()),
    });
    const response = new pb.ReadResponse();
    if (!live) return response; // no id: the record is gone, and refresh drops the resource
    response.setId(request.getId());
    response.setProperties(toStruct(pending ? { ...live.state, [PENDING_READY_KEY]: true } : live.state, keep));
    response.setInputs(toStruct(live.inputs, keep));
    return response;
  }

  async update(request: ProviderMessages.UpdateRequest): Promise<ProviderMessages.UpdateResponse> {
    const type = resourceType(request.getType(), request.getUrn());
    const engine = this.session.engine(type);
    const olds = fromStruct(request.getOlds());
    const oldInputs = fromStruct(request.getOldInputs());
    const news = fromStruct(request.getNews());
    const keep = secretKeys(engine.declaration, news.secrets);
    const { [PENDING_READY_KEY]: pending, ...oldState } = olds.props;
    const response = new pb.UpdateResponse();
    if (request.getPreview()) {
      response.setProperties(toStruct({ ...oldState, ...news.props }, keep));
      return response;
    }
    const state = await engine.update(request.getId(), { ...oldState, ...oldInputs.props }, news.props, {
      name: logicalName(request.getName(), request.getUrn()),
      urn: request.getUrn(),
      ...timeoutOf(request.getTimeout()),
      ...(pending === true ? { pendingReady: true } : {}),
    });
    response.setProperties(toStruct(state, keep));
    return response;
  }

  async delete(request: ProviderMessages.DeleteRequest): Promise<InstanceType<typeof emptyPb.Empty>> {
    const type = resourceType(request.getType(), request.getUrn());
    const { [PENDING_READY_KEY]: _pending, ...props } = {
      ...fromStruct(request.getProperties()).props,
      ...fromStruct(request.getOldInputs()).props,
    };
    await this.session.engine(type).delete(request.getId(), props, {
      name: logicalName(request.getName(), request.getUrn()),
      urn: request.getUrn(),
      ...timeoutOf(request.getTimeout()),
    });
    return new emptyPb.Empty();
  }

  /** A function (`restcloud:index:getZone`): bad arguments come back as failures naming the field. */
  async invoke(request: ProviderMessages.InvokeRequest): Promise<ProviderMessages.InvokeResponse> {
    const declaration = this.functions.get(request.getTok());
    if (!declaration) throw new Error(`restcloud: unknown function ${request.getTok()}`);
    const { props } = fromStruct(request.getArgs());
    const response = new pb.InvokeResponse();
    const outcome = await invokeFunction(declaration, this.session.client(), props, {
      zoneUuid: this.session.settings.zoneUuid,
    });
    if ("problems" in outcome) {
      response.setFailuresList(outcome.problems.map((p) => argumentFailure(p.property, p.reason)));
      return response;
    }
    // A secret answer (passwords, keys) goes back marked secret: the SDKs' Output forms keep it so.
    response.setReturn(toStruct(outcome.result as PropertyMap, declaration.secretOutputs ?? []));
    return response;
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
