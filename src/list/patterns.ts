import { INSTANT_PATTERN } from "../core/schemas";
import type { FieldType } from "./config";

/**
 * The patterns /doc declares for `select` and `filter.<field>` values: regular expressions that
 * take exactly what `parse.ts` takes (docs/list-queries.md §6, §7), so a client or a fuzzer that
 * follows /doc sends nothing the server refuses, and nothing it refuses matches. Each is written
 * from the same configuration the parser reads. Two rules no pattern of one value can state stay
 * in prose: a datetime must be a real date (no 30 February) in the years 0000-9999 UTC, and
 * at most 80 distinct text filter values per request.
 */

/** A literal in a pattern (escaping only what Unicode-mode patterns allow escaped). */
const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");

const oneOf = (values: readonly string[]) => `(?:${values.map(literal).join("|")})`;

/** Anything, line breaks included (a query value may hold any character). */
const ANY = "[\\s\\S]*";

/**
 * `select`: comma-separated pieces, each a selectable field or empty, spaces around it ignored
 * (the parser splits at commas, trims each piece and drops empty ones).
 */
export function selectPattern(selectable: readonly string[]): string {
  const piece = `\\s*${oneOf(selectable)}?\\s*`;
  return `^${piece}(?:,${piece})*$`;
}

/** One value of the field's type, as `convertValue` takes it; undefined for text (anything). */
function valuePattern(type: FieldType): string | undefined {
  if (Array.isArray(type)) return oneOf(type);
  switch (type) {
    case "number":
      return "-?[0-9]{1,15}";
    case "boolean":
      return "(?:[tT][rR][uU][eE]|[fF][aA][lL][sS][eE]|1|0)";
    case "datetime":
      return `(?:${INSTANT_PATTERN})`;
    default:
      return undefined;
  }
}

/** The term after any `$not:`, with the operator `op` (no operator is `$eq`). */
function operatorTerm(op: string, value: string | undefined): string {
  const name = literal(op);
  // Without ":" the operand is empty: only text takes an empty value.
  if (value === undefined) return op === "$btw" ? `${name}:[^,]*,[^,]*` : `${name}(?::${ANY})?`;
  if (op === "$in") return `${name}:${value}(?:,${value})*`;
  if (op === "$btw") return `${name}:${value},${value}`;
  return `${name}:${value}`;
}

/**
 * `filter.<field>`: `[$not:][$op:]value` with the operators the field allows. A value without an
 * operator may not start with `$` (that would be read as an operator); `$null` ignores what
 * follows it.
 */
export function filterPattern(type: FieldType, ops: readonly string[]): string {
  const value = valuePattern(type);
  const terms = [value ?? `(?:[^$]${ANY})?`];
  for (const op of ops) {
    if (op === "$not") continue;
    terms.push(op === "$null" ? `\\$null(?::${ANY})?` : operatorTerm(op, value));
  }
  const term = `(?:${terms.join("|")})`;
  if (!ops.includes("$not")) return `^${term}$`;
  // `$not` alone negates an empty value, which only text takes.
  return value === undefined ? `^(?:\\$not:${term}|\\$not|${term})$` : `^(?:\\$not:)?${term}$`;
}
