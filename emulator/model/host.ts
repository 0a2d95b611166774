// Hypervisor hosts: the catalog's seeded, read-only list, for administrators only.
import type { AccountScope } from "../core";
import { permissionDenied } from "../core";
import type { Catalog, HostRecord } from "../seeded-catalog";

export function listHosts(catalog: Catalog, scope: AccountScope, filters: { uuid?: string }): HostRecord[] {
  if (!scope.account.isAdmin) throw permissionDenied("listing hypervisor hosts needs an administrator account");
  return catalog.hosts.filter((host) => filters.uuid === undefined || host.uuid === filters.uuid);
}
