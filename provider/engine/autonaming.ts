// How check names a resource whose auto-named argument the program leaves out: as the stack's `pulumi:autonaming`
// says, when Pulumi's engine sends it with Check (the native plugin opts in; a dynamic provider cannot), else
// `<logical name>-<7 hex digits>`. A name once given is kept across updates in every mode, as pulumi-aws and
// azure-native keep theirs: the stack's setting names what is created (or replaced), it renames nothing.

/** The stack's autonaming for one resource, as the engine sends it (CheckRequest.AutonamingOptions). */
export interface Autonaming {
  /**
   * propose: the proposed name, unless the program gives one. enforce: the same, and the provider may not alter it
   * (this one never alters a name: a name the argument's rules refuse is an error in both). disable: no auto-name,
   * the program must give one.
   */
  mode: "propose" | "enforce" | "disable";
  /** The stack's pattern as the engine expanded it (`${name}`, `${stack}`, `${hex(4)}`...); propose and enforce. */
  proposedName?: string;
}

/** Where the auto-name comes from, for the messages of a name check refuses. */
const AUTONAMING_SETTING = "pulumi:autonaming";

/** The auto-name an absent argument takes, or why it takes none (a check failure's reason). */
export type AutoNamed = { name: string; proposed: boolean } | { failure: string };

/**
 * The auto-name when the program gives none: the previous name, else what the stack's autonaming
 * says, else `fallback()` (`<logical name>-<7 hex>`).
 */
export function autoNamed(
  naming: { previousName?: string; autonaming?: Autonaming },
  fallback: () => string,
): AutoNamed {
  if (naming.previousName !== undefined) return { name: naming.previousName, proposed: false };
  const autonaming = naming.autonaming;
  if (!autonaming) return { name: fallback(), proposed: false };
  if (autonaming.mode === "disable")
    return {
      failure: `is required: the stack's autonaming is disabled (${AUTONAMING_SETTING}), so the program must give it`,
    };
  return { name: autonaming.proposedName ?? "", proposed: true };
}

/** A check failure's reason for a name the stack's autonaming proposed: the rule, then the name and where it came from. */
export function proposedNameReason(reason: string, name: string): string {
  return `${reason}; "${name}" is the name the stack's autonaming pattern gave (${AUTONAMING_SETTING})`;
}
