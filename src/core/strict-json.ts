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

/** Digits alone, at most 15 of them: exactly the integer they write, without looking further. */
const PLAIN_INTEGER = /^-?\d{1,15}$/;

/** True when `text` parses to an integer that is not exactly the number the text writes. */
export function roundsToInteger(text: string): boolean {
  // Nearly every number of a body (quantities, amounts) is a plain integer: answered at once.
  if (PLAIN_INTEGER.test(text)) return false;
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

/** Objects of up to this many keys find a duplicate in a list; larger ones in a Set. */
const FEW_KEYS = 16;

const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const MINUS = 0x2d;
const ZERO = 0x30;
const NINE = 0x39;
const DOT = 0x2e;
const LOWER_E = 0x65;
const UPPER_E = 0x45;

/**
 * Reads a valid JSON text once, allocating nothing per value but object keys: where a value sits
 * is the stack of keys and indexes above it, written out as a path (`body.lines.3.quantity`) only
 * for a value that has an issue, not for every value of a 500-line body.
 */
class Scanner {
  private at = 0;
  readonly issues: FieldIssue[] = [];
  /** The keys (and array indexes) from the root down to the value being read. */
  private readonly keys: (string | number)[] = [];

  constructor(
    private readonly text: string,
    private readonly root: string,
  ) {}

  private path(): string {
    return [this.root, ...this.keys].join(".");
  }

  private skipSpace() {
    for (;;) {
      const c = this.text.charCodeAt(this.at);
      if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return;
      this.at += 1;
    }
  }

  value(depth: number): void {
    this.skipSpace();
    const c = this.text.charCodeAt(this.at);
    if ((c === OPEN_OBJECT || c === OPEN_ARRAY) && depth >= MAX_JSON_DEPTH) {
      this.issues.push({
        path: this.path(),
        message: `is nested more than ${MAX_JSON_DEPTH} levels deep`,
      });
      throw new Stop();
    }
    if (c === OPEN_OBJECT) this.object(depth + 1);
    else if (c === OPEN_ARRAY) this.array(depth + 1);
    else if (c === QUOTE) this.string();
    else if (c === 0x74 || c === 0x6e) this.at += 4; // true, null
    else if (c === 0x66) this.at += 5; // false
    else this.number();
  }

  private object(depth: number) {
    this.at += 1;
    this.skipSpace();
    if (this.text.charCodeAt(this.at) === CLOSE_OBJECT) {
      this.at += 1;
      return;
    }
    const few: string[] = [];
    let many: Set<string> | undefined;
    const level = this.keys.length;
    for (;;) {
      this.skipSpace();
      const key = this.string();
      this.keys[level] = key;
      if (many ? many.has(key) : few.includes(key)) {
        this.issues.push({
          path: this.path(),
          message: "appears more than once in the same object",
        });
      } else if (many) {
        many.add(key);
      } else if (few.push(key) > FEW_KEYS) {
        many = new Set(few);
      }
      this.skipSpace();
      this.at += 1; // ':'
      this.value(depth);
      this.keys.length = level + 1;
      if (this.endOf(CLOSE_OBJECT)) break;
    }
    this.keys.length = level;
  }

  private array(depth: number) {
    this.at += 1;
    this.skipSpace();
    if (this.text.charCodeAt(this.at) === CLOSE_ARRAY) {
      this.at += 1;
      return;
    }
    const level = this.keys.length;
    for (let index = 0; ; index++) {
      this.keys[level] = index;
      this.value(depth);
      this.keys.length = level + 1;
      if (this.endOf(CLOSE_ARRAY)) break;
    }
    this.keys.length = level;
  }

  /** After a member: true at the closing bracket (consumed), false after a comma. */
  private endOf(close: number): boolean {
    this.skipSpace();
    const c = this.text.charCodeAt(this.at);
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
      if (c === BACKSLASH) {
        escaped = true;
        end += 2;
      } else if (c === QUOTE) break;
      else end += 1;
    }
    this.at = end + 1;
    return escaped
      ? (JSON.parse(this.text.slice(start, end + 1)) as string)
      : this.text.slice(start + 1, end);
  }

  private number() {
    // Nearly every number of a body is 1-15 digits alone (PLAIN_INTEGER): skipped in place.
    const start = this.at;
    let end = this.text.charCodeAt(start) === MINUS ? start + 1 : start;
    const first = end;
    for (let c = this.text.charCodeAt(end); c >= ZERO && c <= NINE; c = this.text.charCodeAt(end)) {
      end += 1;
    }
    const next = this.text.charCodeAt(end);
    if (end - first <= 15 && next !== DOT && next !== LOWER_E && next !== UPPER_E) {
      this.at = end;
      return;
    }
    NUMBER.lastIndex = start;
    const text = NUMBER.exec(this.text)![0];
    this.at += text.length;
    if (roundsToInteger(text)) {
      const shown = text.length > 40 ? `${text.slice(0, 40)}…` : text;
      this.issues.push({
        path: this.path(),
        message: `must be an exact integer; ${shown} is not one (it would be read as ${Number(text)})`,
      });
    }
  }
}

class Stop extends Error {}

/** The issues of a valid JSON text, with paths rooted at `root` (`body.lines.3.quantity`). */
export function jsonTextIssues(text: string, root = "body"): FieldIssue[] {
  const scanner = new Scanner(text, root);
  try {
    scanner.value(0);
  } catch (err) {
    if (!(err instanceof Stop)) throw err;
  }
  return scanner.issues;
}
