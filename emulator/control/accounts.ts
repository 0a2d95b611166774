// The emulator's accounts: the built-in demo and admin (keys overridable) and further ones (`--account
// NAME:KEY:SECRET`). Specs are validated at start; an error names the bad entry, never its keys.
import type { Account } from "../core";
import { DEFAULT_ACCOUNTS, type AccountKeys, type AccountName } from "../store";

/** One account of the `accounts` start option: a further account, or new keys for `demo` or `admin`. */
export interface AccountSpec {
  name: string;
  apiKey: string;
  secretKey: string;
}

/**
 * The `accounts` start option: a list of accounts (further ones, or `demo` / `admin` with other
 * keys), or, as before, new keys for the built-in accounts by name.
 */
export type AccountsOption = readonly AccountSpec[] | Partial<Record<AccountName, Partial<AccountKeys>>>;

export type ConfiguredAccount = Account & AccountKeys;

/** Letters, digits, dots, hyphens and underscores; starts with a letter or digit; at most 63 characters. */
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/;
/** Printable ASCII without spaces: what an HTTP header carries unchanged. */
const KEY = /^[\x21-\x7e]+$/;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

export const roleOf = (account: Account): "admin" | "user" => (account.isAdmin ? "admin" : "user");

/**
 * The accounts an emulator serves, from the start option. Throws an Error naming the entry
 * (`accounts[2].name: duplicate account name ci`) for anything wrong; keys are never quoted.
 */
export function resolveAccounts(option: AccountsOption | undefined, label = "accounts"): ConfiguredAccount[] {
  const accounts: ConfiguredAccount[] = DEFAULT_ACCOUNTS.map((a) => ({ ...a }));
  if (option === undefined || option === null) return accounts;
  if (!Array.isArray(option)) {
    if (!isObject(option)) throw new Error(`${label}: must be a list of {name, apiKey, secretKey}`);
    for (const [name, keys] of Object.entries(option)) {
      const account = accounts.find((a) => a.name === name);
      if (!account) throw new Error(`${label}.${name}: not a built-in account (demo or admin)`);
      if (keys === undefined) continue;
      if (!isObject(keys)) throw new Error(`${label}.${name}: must be {apiKey, secretKey}`);
      for (const field of ["apiKey", "secretKey"] as const) {
        const value = keys[field];
        if (value === undefined) continue;
        if (typeof value !== "string" || !KEY.test(value)) {
          throw new Error(`${label}.${name}.${field}: must be a non-empty string of printable characters`);
        }
        account[field] = value;
      }
    }
    checkDistinct(accounts, (i) => (accounts[i].name in option ? `${label}.${accounts[i].name}` : undefined));
    return accounts;
  }

  const overridden = new Set<string>();
  const where = new Map<ConfiguredAccount, string>();
  (option as readonly unknown[]).forEach((spec, i) => {
    const at = `${label}[${i}]`;
    if (!isObject(spec)) throw new Error(`${at}: must be {name, apiKey, secretKey}`);
    for (const field of ["name", "apiKey", "secretKey"] as const) {
      if (spec[field] === undefined || spec[field] === "") throw new Error(`${at}.${field}: is required`);
      if (typeof spec[field] !== "string") throw new Error(`${at}.${field}: must be a string`);
    }
    const unknown = Object.keys(spec).filter((k) => !["name", "apiKey", "secretKey"].includes(k));
    if (unknown.length) throw new Error(`${at}.${unknown[0]}: unknown field (expected name, apiKey, secretKey)`);
    const { name, apiKey, secretKey } = spec as unknown as AccountSpec;
    if (!NAME.test(name)) {
      throw new Error(
        `${at}.name: ${JSON.stringify(name)} is not an account name (letters, digits, '.', '-', '_'; at most 63)`,
      );
    }
    if (!KEY.test(apiKey)) throw new Error(`${at}.apiKey: must be printable characters without spaces`);
    if (!KEY.test(secretKey)) throw new Error(`${at}.secretKey: must be printable characters without spaces`);
    const builtIn = accounts.find((a) => a.name === name && DEFAULT_ACCOUNTS.some((d) => d.name === name));
    if (builtIn && !overridden.has(name)) {
      // `demo` or `admin` in the list: other keys for a built-in account.
      overridden.add(name);
      builtIn.apiKey = apiKey;
      builtIn.secretKey = secretKey;
      where.set(builtIn, at);
      return;
    }
    if (accounts.some((a) => a.name === name)) throw new Error(`${at}.name: duplicate account name ${name}`);
    const account: ConfiguredAccount = {
      id: name,
      name,
      email: `${name}@restcloud.example`,
      isAdmin: false,
      apiKey,
      secretKey,
    };
    accounts.push(account);
    where.set(account, at);
  });
  checkDistinct(accounts, (i) => where.get(accounts[i]));
  return accounts;
}

/**
 * No two accounts share an apikey or a secretkey (a key identifies its account). `given(i)` is where
 * the option gave account i, if it did: the message names that entry rather than a built-in default.
 */
function checkDistinct(accounts: readonly ConfiguredAccount[], given: (index: number) => string | undefined): void {
  for (const field of ["apiKey", "secretKey"] as const) {
    accounts.forEach((account, i) => {
      const first = accounts.findIndex((other) => other[field] === account[field]);
      if (first === i) return;
      const at = given(i) ?? given(first) ?? `accounts (account ${account.name})`;
      throw new Error(
        `${at}.${field}: duplicate ${field === "apiKey" ? "apikey" : "secretkey"}: ` +
          `accounts ${accounts[first].name} and ${account.name} have the same one`,
      );
    });
  }
}

/**
 * `NAME:APIKEY:SECRETKEY` (the CLI's `--account`); the secret key may itself contain colons.
 * Throws `--account SPEC: ...` naming the missing part.
 */
export function parseAccountSpec(spec: string): AccountSpec {
  const [name, apiKey, ...rest] = spec.split(":");
  const secretKey = rest.join(":");
  const shown = name ? `${name}:...` : "(empty name)";
  const fail = (message: string): never => {
    throw new Error(`--account ${shown}: ${message}`);
  };
  if (!name) fail("the account name is missing (expected NAME:APIKEY:SECRETKEY)");
  if (apiKey === undefined || apiKey === "") fail("the apikey is missing (expected NAME:APIKEY:SECRETKEY)");
  if (secretKey === "") fail("the secretkey is missing (expected NAME:APIKEY:SECRETKEY)");
  return { name, apiKey, secretKey };
}
