/**
 * How the generated SDKs spell a schema name (Pulumi's code generators' rules): Python's snake_case
 * (`vpcOfferingUuid` to `vpc_offering_uuid`, `SHA256Hash` to `sha256_hash`) and Go's exported names
 * (`VpcOfferingUuid`). The docs' examples are written with them, and the native plugin's messages
 * name a bad argument in each SDK's spelling.
 */

export function pythonName(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1_$2")
    .toLowerCase();
}

export const goName = (name: string): string => name.charAt(0).toUpperCase() + name.slice(1);
