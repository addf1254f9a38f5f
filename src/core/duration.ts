/** A duration for people: "0.8 s", "42 s", "9 min 10 s". */
export function formatDuration(ms: number): string {
  const s = ms / 1000;
  if (s < 10) return `${s.toFixed(1)} s`;
  if (s < 120) return `${Math.round(s)} s`;
  return `${Math.floor(s / 60)} min ${Math.round(s % 60)} s`;
}

const UNITS_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, min: 60_000, h: 3_600_000 };

/**
 * A duration as people write it: "30s", "500ms", "5m", "1h", "90" (seconds). Undefined when the
 * text is none of these; the caller names the setting in its error.
 */
export function parseDuration(text: string): number | undefined {
  const match = /^(\d+(?:\.\d+)?)\s*(ms|s|min|m|h)?$/.exec(text.trim());
  if (!match) return undefined;
  const ms = Number(match[1]) * UNITS_MS[match[2] ?? 's'];
  return Number.isFinite(ms) ? Math.round(ms) : undefined;
}
