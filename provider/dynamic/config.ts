/**
 * Provider configuration: `restcloud:*` stack config first, then the RESTCLOUD_* environment
 * variables. Read inside the provider process only, never captured in state.
 */
export interface ProviderConfig {
  readonly apiUrl: string;
  readonly apiKey: string;
  readonly secretKey: string;
  readonly zoneUuid?: string;
  /** What is missing, each with how to set it; empty when complete. */
  missing(): string[];
}

const SETTINGS = [
  { key: "apiUrl", env: "RESTCLOUD_API_URL", secret: false },
  { key: "apiKey", env: "RESTCLOUD_API_KEY", secret: true },
  { key: "secretKey", env: "RESTCLOUD_SECRET_KEY", secret: true },
] as const;

export function resolveProviderConfig(source: { get(key: string): string | undefined }): ProviderConfig {
  const read = (key: string, env: string) => source.get(`restcloud:${key}`) || process.env[env] || undefined;
  const values = Object.fromEntries(SETTINGS.map((s) => [s.key, read(s.key, s.env)])) as Record<
    string,
    string | undefined
  >;
  return {
    apiUrl: values.apiUrl ?? "",
    apiKey: values.apiKey ?? "",
    secretKey: values.secretKey ?? "",
    zoneUuid: read("zoneUuid", "RESTCLOUD_ZONE_UUID"),
    missing: () =>
      SETTINGS.filter((s) => !values[s.key]).map(
        (s) =>
          `${s.key} is not set (pulumi config set ${s.secret ? "--secret " : ""}restcloud:${s.key} <value>, or ${s.env})`,
      ),
  };
}
