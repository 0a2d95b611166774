// Redaction: the credentials (apikey, secretkey) and secret fields (pre-shared keys, registry passwords) never reach
// an error message, a log line or a debug event.

export const REDACTED = "[REDACTED]";

/** Field and header names whose values are secret, lower-cased. */
export const SECRET_FIELDS: ReadonlySet<string> = new Set([
  "apikey",
  "secretkey",
  "authorization",
  "ipsecpsk",
  "ipsecpresharedkey",
  "dockerregistrypassword",
  "password",
]);

export class Redactor {
  private readonly needles: string[];

  /** `secrets`: the literal values to scrub from any text (the credentials of this client). */
  constructor(secrets: readonly string[]) {
    const forms = secrets.filter((s) => s !== "").flatMap((s) => [s, encodeURIComponent(s)]);
    // Longest first, so that a secret containing another is scrubbed whole.
    this.needles = [...new Set(forms)].sort((a, b) => b.length - a.length);
  }

  /** The text with every secret value replaced. */
  text(text: string): string {
    let out = text;
    for (const needle of this.needles) out = out.split(needle).join(REDACTED);
    return out;
  }

  /** Headers with secret ones replaced (whatever their value) and the rest scrubbed. */
  headers(headers: Readonly<Record<string, string | undefined>>): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [name, value] of Object.entries(headers)) {
      if (value === undefined) continue;
      out[name] = SECRET_FIELDS.has(name.toLowerCase()) ? REDACTED : this.text(value);
    }
    return out;
  }

  /** A deep copy of a JSON value with secret fields replaced and strings scrubbed. */
  value(value: unknown): unknown {
    if (typeof value === "string") return this.text(value);
    if (Array.isArray(value)) return value.map((item) => this.value(item));
    if (value !== null && typeof value === "object") {
      return Object.fromEntries(
        Object.entries(value).map(([key, item]) => [
          key,
          SECRET_FIELDS.has(key.toLowerCase()) && item !== undefined && item !== null ? REDACTED : this.value(item),
        ]),
      );
    }
    return value;
  }
}
