/**
 * Instants are typed as ISO 8601 in UTC, 24-hour: "2026-12-01 00:00" (a `T` instead of the space,
 * seconds, or a date alone are read too). Not `<input type="datetime-local">`: browsers show that
 * in the reader's locale ("12/01/2026, 12:00 AM"), which reads wrongly under a "UTC" label and
 * differs from every instant the API answers.
 */

/** The format, for hints and placeholders. */
export const INSTANT_FORMAT = "YYYY-MM-DD HH:MM";

const INSTANT = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?)?$/;

export type ParsedInstant = { ok: true; value: string | undefined } | { ok: false; error: string };

/**
 * "2026-12-01 00:00" → "2026-12-01T00:00:00Z" (UTC); empty → undefined (the API's default);
 * anything else, or a day or time that does not exist (2026-02-30, 24:00), a sentence.
 */
export function parseInstant(text: string): ParsedInstant {
  const typed = text.trim();
  if (typed === "") return { ok: true, value: undefined };
  const match = INSTANT.exec(typed);
  const error = `type the date and time as ${INSTANT_FORMAT} (24-hour, UTC), e.g. 2026-12-01 00:00`;
  if (!match) return { ok: false, error };
  const [y, mo, d, h = "00", mi = "00", s = "00"] = match.slice(1) as string[];
  const iso = `${y}-${mo}-${d}T${h}:${mi}:${s}Z`;
  const ms = Date.parse(iso);
  // Date.parse rolls 2026-02-30 over to March; an instant that does not read back is not one.
  if (Number.isNaN(ms) || new Date(ms).toISOString() !== iso.replace("Z", ".000Z")) {
    return { ok: false, error: `${typed} is not a date and time that exists` };
  }
  return { ok: true, value: iso };
}

/** An instant as the fields show it: "2026-12-01 00:00" (UTC). */
export const formatInstant = (ms: number) =>
  new Date(ms).toISOString().slice(0, 16).replace("T", " ");

/** An instant the API answered, as pages show it: "2026-12-01 00:00 UTC"; none: "–". */
export const formatUtc = (iso: string | null) =>
  iso ? `${iso.slice(0, 16).replace("T", " ")} UTC` : "–";
