/**
 * Infracost's published JSON schema (infracost.schema.json beside this file: a copy of
 * schema/infracost.schema.json of github.com/infracost/infracost at commit
 * 95ba4f49a7abf5567b04f751a115543281a4ab18, its provenance in its `$comment`), and a validator of
 * documents against it: JSON Schema draft-04 with formats (`date-time`) checked, through ajv 6 (in
 * node_modules as ESLint's dependency; it still reads draft-04, which ajv 8 needs a plugin for).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import Ajv from "ajv";

export const INFRACOST_SCHEMA_FILE = path.join(__dirname, "infracost.schema.json");

let validate: Ajv.ValidateFunction | undefined;

/** The schema's complaints about `doc` (path and message each), none when it is valid. */
export function infracostSchemaErrors(doc: unknown): string[] {
  if (!validate) {
    const ajv = new Ajv({ schemaId: "id", allErrors: true, format: "full", extendRefs: true, logger: false });
    ajv.addMetaSchema(
      JSON.parse(fs.readFileSync(require.resolve("ajv/lib/refs/json-schema-draft-04.json"), "utf8")) as object,
    );
    validate = ajv.compile(JSON.parse(fs.readFileSync(INFRACOST_SCHEMA_FILE, "utf8")) as object);
  }
  if (validate(doc)) return [];
  return (validate.errors ?? []).map((e) => `${e.dataPath || "(root)"} ${e.message ?? ""} ${JSON.stringify(e.params)}`);
}
