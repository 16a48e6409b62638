import type { FieldIssue } from "./errors";

/**
 * What `JSON.parse` hides in a request body, found on the JSON text itself:
 * - a key that appears twice in one object (JSON.parse keeps the last one silently, so two
 *   readers of the same body could disagree about what it says);
 * - a number whose text is not the integer it parses to (`1.0000000000000001` and
 *   `9007199254740990.9` parse to integers, so a later integer check cannot see the difference);
 * - nesting deeper than any body of this API needs.
 *
 * Every number in our request bodies is an integer (money in minor units, basis points,
 * quantities), so a number that only becomes an integer by rounding is refused wherever it
 * appears. Fractions that stay fractions (`1.5`) are left to the schema, which names the field.
 * The text must already be valid JSON: the caller parses it first.
 */
export const MAX_JSON_DEPTH = 64;

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;
const isDigit = (c: number) => c >= 0x30 && c <= 0x39;

/** True when `text` parses to an integer that is not exactly the number the text writes. */
export function roundsToInteger(text: string): boolean {
  const parsed = Number(text);
  if (!Number.isInteger(parsed)) return false;
  const [, sign, whole, fraction = "", exponent = "0"] = DECIMAL.exec(text)!;
  let digits = (whole! + fraction).replace(/^0+(?=\d)/, "");
  let scale = Number(exponent) - fraction.length;
  while (digits.length > 1 && digits.endsWith("0")) {
    digits = digits.slice(0, -1);
    scale += 1;
  }
  if (digits === "0") return false;
  if (scale < 0) return true;
  return BigInt(sign + digits) * 10n ** BigInt(scale) !== BigInt(parsed);
}

class Scanner {
  private at = 0;
  readonly issues: FieldIssue[] = [];
  /**
   * Where the value being read sits: the keys and indexes from the root, written out as a path
   * (`body.lines.3.quantity`) only for a value that has an issue, not for every value of a
   * 500-line body. Its length is the value's depth, plus one.
   */
  private readonly path: (string | number)[];

  constructor(
    private readonly text: string,
    root: string,
  ) {
    this.path = [root];
  }

  private issue(message: string) {
    this.issues.push({ path: this.path.join("."), message });
  }

  private skipSpace() {
    for (;;) {
      const c = this.text.charCodeAt(this.at);
      if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return;
      this.at += 1;
    }
  }

  value(): void {
    this.skipSpace();
    const c = this.text[this.at];
    if ((c === "{" || c === "[") && this.path.length > MAX_JSON_DEPTH) {
      this.issue(`is nested more than ${MAX_JSON_DEPTH} levels deep`);
      throw new Stop();
    }
    if (c === "{") this.object();
    else if (c === "[") this.array();
    else if (c === '"') this.string();
    else if (c === "t" || c === "n") this.at += 4;
    else if (c === "f") this.at += 5;
    else this.number();
  }

  private object() {
    this.at += 1;
    // The keys in an array while they are few (a cart line has two), in a set past 8.
    let seen: string[] | Set<string> = [];
    this.skipSpace();
    if (this.text[this.at] === "}") {
      this.at += 1;
      return;
    }
    for (;;) {
      this.skipSpace();
      const key = this.string();
      this.path.push(key);
      if (Array.isArray(seen) ? seen.includes(key) : seen.has(key)) {
        this.issue("appears more than once in the same object");
      }
      if (!Array.isArray(seen)) seen.add(key);
      else if (seen.push(key) > 8) seen = new Set(seen);
      this.skipSpace();
      this.at += 1; // ':'
      this.value();
      this.path.pop();
      if (this.endOf("}")) return;
    }
  }

  private array() {
    this.at += 1;
    this.skipSpace();
    if (this.text[this.at] === "]") {
      this.at += 1;
      return;
    }
    for (let index = 0; ; index++) {
      this.path.push(index);
      this.value();
      this.path.pop();
      if (this.endOf("]")) return;
    }
  }

  /** After a member: true at the closing bracket (consumed), false after a comma. */
  private endOf(close: string): boolean {
    this.skipSpace();
    const c = this.text[this.at];
    this.at += 1;
    return c === close;
  }

  /** Skips a string and returns its value (decoded only when it holds an escape). */
  private string(): string {
    const start = this.at;
    let end = start + 1;
    let escaped = false;
    for (;;) {
      const c = this.text.charCodeAt(end);
      if (c === 0x5c) {
        escaped = true;
        end += 2;
      } else if (c === 0x22) break;
      else end += 1;
    }
    this.at = end + 1;
    return escaped
      ? (JSON.parse(this.text.slice(start, end + 1)) as string)
      : this.text.slice(start + 1, end);
  }

  private number() {
    // Nearly every number of a body is a plain integer (quantities, amounts): at most 15 digits
    // with no fraction or exponent are exactly the integer they write, so they are only skipped.
    let end = this.text[this.at] === "-" ? this.at + 1 : this.at;
    const digits = end;
    while (isDigit(this.text.charCodeAt(end))) end += 1;
    const next = this.text[end];
    if (end - digits <= 15 && next !== "." && next !== "e" && next !== "E") {
      this.at = end;
      return;
    }
    NUMBER.lastIndex = this.at;
    const text = NUMBER.exec(this.text)![0];
    this.at += text.length;
    if (roundsToInteger(text)) {
      const shown = text.length > 40 ? `${text.slice(0, 40)}…` : text;
      this.issue(
        `must be an exact integer; ${shown} is not one (it would be read as ${Number(text)})`,
      );
    }
  }
}

class Stop extends Error {}

/** The issues of a valid JSON text, with paths rooted at `root` (`body.lines.3.quantity`). */
export function jsonTextIssues(text: string, root = "body"): FieldIssue[] {
  const scanner = new Scanner(text, root);
  try {
    scanner.value();
  } catch (err) {
    if (!(err instanceof Stop)) throw err;
  }
  return scanner.issues;
}
