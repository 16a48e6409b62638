/**
 * The pages take instants from <input type="datetime-local">, which has no zone: they are read
 * as UTC, as the API answers them. "2025-06-15T10:00" → "2025-06-15T10:00:00Z"; empty → undefined
 * (the API's default: now).
 */
export const utcInstant = (local: string) =>
  local === "" ? undefined : `${local}${local.length === 16 ? ":00" : ""}Z`;
