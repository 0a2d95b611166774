// How the generated SDKs spell a schema name: Python's snake_case (`SHA256Hash` to `sha256_hash`) and Go's exported
// names. Used by the docs' examples and by the native plugin's messages about a bad argument.

export function pythonName(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1_$2")
    .toLowerCase();
}

export const goName = (name: string): string => name.charAt(0).toUpperCase() + name.slice(1);
