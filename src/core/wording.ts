import type { z } from "@hono/zod-openapi";

/**
 * The validator's issues in our words (docs/api/errors-and-limits.md §7.3): every message a schema
 * does not word itself is a predicate about the field its path names ("must be an integer", "is
 * required"), never zod's English ("Invalid input: expected int, received number"). Installed once
 * as zod's `customError` (src/core/errors.ts), so a schema's own message still wins and no
 * route can miss it.
 */

type Issue = z.core.$ZodRawIssue;

const NOUNS: Record<string, string> = {
  string: "a string",
  number: "a number",
  int: "an integer",
  bigint: "an integer",
  boolean: "true or false",
  array: "an array",
  tuple: "an array",
  object: "an object",
  record: "an object",
  date: "a date",
  null: "null",
};

/** What the client sent, as a noun: "a number", "an array", "null". */
function sent(input: unknown): string {
  if (input === null) return "null";
  if (Array.isArray(input)) return "an array";
  if (typeof input === "boolean") return "a boolean";
  if (typeof input === "number" && !Number.isInteger(input)) return "a fraction";
  return NOUNS[typeof input] ?? typeof input;
}

function typeMessage(expected: string, input: unknown): string {
  if (input === undefined) return "is required";
  const noun = NOUNS[expected];
  if (!noun) return "has a type that is not allowed here";
  return `must be ${noun}, not ${sent(input)}`;
}

const UNITS: Record<string, [one: string, many: string]> = {
  string: ["character", "characters"],
  array: ["item", "items"],
  set: ["item", "items"],
  file: ["byte", "bytes"],
};

function sizeMessage(issue: Issue & { code: "too_small" | "too_big" }): string {
  const small = issue.code === "too_small";
  const limit = small ? issue.minimum : issue.maximum;
  const unit = UNITS[issue.origin];
  if (unit) {
    if (small && Number(limit) === 1 && !issue.exact) return "must not be empty";
    const amount = issue.exact ? "exactly" : small ? "at least" : "at most";
    const word = Number(limit) === 1 ? unit[0] : unit[1];
    return `must ${issue.origin === "string" ? "be" : "have"} ${amount} ${limit} ${word}`;
  }
  if (issue.exact) return `must be exactly ${limit}`;
  if (issue.inclusive === false) return `must be ${small ? "greater" : "less"} than ${limit}`;
  return `must be ${small ? "at least" : "at most"} ${limit}`;
}

const listed = (values: readonly unknown[]) => {
  const words = values.map((v) => (typeof v === "string" ? v : JSON.stringify(v)));
  return words.length === 2 ? `${words[0]} or ${words[1]}` : words.join(", ");
};

/** A union none of whose branches took the value: the types it would take, when that is the story. */
function unionMessage(issue: Issue & { code: "invalid_union" }): string {
  if (issue.input === undefined) return "is required";
  const expected = issue.errors.map((branch) =>
    branch.length === 1 && branch[0]!.code === "invalid_type" && branch[0]!.path.length === 0
      ? NOUNS[branch[0]!.expected]
      : undefined,
  );
  if (expected.every(Boolean)) return `must be ${listed([...new Set(expected)])}`;
  return "does not have any of the forms allowed here";
}

/** zod's customError: our message for an issue the schema did not word itself. */
export function issueMessage(issue: Issue): string {
  switch (issue.code) {
    case "invalid_type":
      return typeMessage(issue.expected, issue.input);
    case "invalid_value":
      return issue.values.length > 2
        ? `must be one of ${listed(issue.values)}`
        : `must be ${listed(issue.values)}`;
    case "too_small":
    case "too_big":
      return sizeMessage(issue);
    case "invalid_format":
      return issue.format === "regex"
        ? "does not have the form required here"
        : `must be a valid ${issue.format.replaceAll("_", " ")}`;
    case "not_multiple_of":
      return `must be a multiple of ${issue.divisor}`;
    case "unrecognized_keys":
      return "is not a known field";
    case "invalid_union":
      return unionMessage(issue);
    case "invalid_key":
      return "has a key that is not allowed here";
    case "invalid_element":
      return "holds an element that is not allowed here";
    default:
      return issue.input === undefined ? "is required" : "is not allowed here";
  }
}
