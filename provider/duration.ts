// Durations as users write them: Pulumi's customTimeouts ("10m") and the requestTimeout setting ("30s").

/** "90s", "10m", "1h", "1h30m" to milliseconds; undefined when absent or unreadable. */
export function parseDuration(text: string | undefined): number | undefined {
  if (!text) return undefined;
  const pattern = /(\d+(?:\.\d+)?)(ms|s|m|h)/g;
  const units: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
  let total = 0;
  let consumed = "";
  for (const match of text.matchAll(pattern)) {
    total += Number(match[1]) * units[match[2]];
    consumed += match[0];
  }
  return consumed === text.replace(/\s+/g, "") && total > 0 ? total : undefined;
}
