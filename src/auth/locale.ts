// Workspace settings that scheduling and rendering rely on, validated with the runtime's own Intl data.

/** An IANA time zone name (e.g. Europe/Paris, UTC), in its canonical spelling; null if unknown. */
export function parseTimeZone(value: string): string | null {
  const v = value.trim();
  // Names only: Intl also takes UTC offsets (+01:00), which are not zones and ignore daylight saving.
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(v)) return null;
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: v }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

/** A BCP 47 language tag (e.g. en, pt-BR, zh-Hant-TW), canonicalised; null if malformed. */
export function parseLocale(value: string): string | null {
  const v = value.trim();
  if (!v) return null;
  try {
    const [tag] = Intl.getCanonicalLocales(v);
    return tag ?? null;
  } catch {
    return null;
  }
}
