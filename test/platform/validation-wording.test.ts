import { afterAll, describe, expect, it } from "vitest";
import { merged as mergedIn, VALIDATOR_WORDING } from "../fuzz/arbitraries";
import { loadDoc, operations, type Operation, type Schema } from "../fuzz/openapi";
import { callWorker } from "../fuzz/worker";
import { KEYS } from "../shared/helpers";

/**
 * Every 400 speaks about the field, never in the validator's words
 * (docs/api/errors-and-limits.md §7.3). For every operation of the live /doc, each parameter and
 * each body field (nested objects and array items included) is sent wrongly typed, out of range,
 * missing or unknown, one at a time, on top of a request that is otherwise valid; every 400 must
 * name the field that was spoiled and hold no phrase of zod's English messages.
 */

const doc = await loadDoc();
const ops = operations(doc);
const stats = { probes: 0, answered400: 0 };

/** A spoiled request: where the spoiled value sits and how the request differs from a valid one. */
interface Probe {
  /** The issue path the answer must name: `body.lines.0.quantity`, `query.product`, `path.id`. */
  target: string;
  what: string;
  params: Record<string, string>;
  query: [string, string][];
  body?: unknown;
}

type Path = (string | number)[];

const merged = (schema: Schema) => mergedIn(doc, schema);

/** The schema's variants, one per type (a nullable field is `anyOf [x, null]` or `type: [x, "null"]`). */
function typed(schema: Schema): Schema[] {
  const s = merged(schema);
  return ((s.anyOf ?? s.oneOf ?? [s]) as Schema[])
    .map((o) => merged(o))
    .flatMap((o) => (Array.isArray(o.type) ? o.type.map((type: string) => ({ ...o, type })) : [o]));
}

const variants = (schema: Schema) => typed(schema).filter((v) => v.type !== "null");
const nullable = (schema: Schema) => typed(schema).some((v) => v.type === "null");

/** Values of the wrong type or out of the schema's range. */
function wrongValues(schema: Schema): [string, unknown][] {
  const kinds = new Set(variants(schema).map((v) => v.type as string));
  const out: [string, unknown][] = [];
  if (!nullable(schema)) out.push(["null", null]);
  if (!kinds.has("string")) out.push(["a string", "abc"]);
  if (!kinds.has("integer") && !kinds.has("number")) out.push(["a number", 12]);
  if (!kinds.has("boolean")) out.push(["a boolean", true]);
  if (!kinds.has("object")) out.push(["an object", { a: 1 }]);
  if (!kinds.has("array")) out.push(["an array", ["abc"]]);
  for (const v of variants(schema)) {
    if (v.type === "integer") out.push(["a fraction", 1.5]);
    if (typeof v.minimum === "number") out.push(["below the minimum", v.minimum - 1]);
    if (typeof v.maximum === "number" && v.maximum < 2 ** 53 - 1)
      out.push(["above the maximum", v.maximum + 1]);
    if (v.enum) out.push(["no option", "NOT_AN_OPTION"]);
    if (v.type === "string" && v.pattern) {
      // "?!" is off most patterns, but a name may say it: then a control character is off.
      const off = ["?!", "a\u0000b"].find((x) => !new RegExp(v.pattern, "u").test(x));
      if (off !== undefined) out.push(["off the pattern", off]);
    }
    if (v.type === "string" && typeof v.maxLength === "number")
      out.push(["too long", "x".repeat(v.maxLength + 1)]);
    if (v.type === "string" && typeof v.minLength === "number" && v.minLength > 0)
      out.push(["empty", ""]);
    if (v.format === "date-time") out.push(["not an instant", "yesterday"]);
    if (v.type === "array" && typeof v.minItems === "number" && v.minItems > 0)
      out.push(["empty list", []]);
  }
  return out;
}

const clone = <T>(value: T): T => structuredClone(value);

function setAt(root: unknown, path: Path, value: unknown, remove = false): unknown {
  if (path.length === 0) return value;
  const copy = clone(root) as Record<string | number, unknown>;
  let node = copy;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  const last = path.at(-1)!;
  if (remove) delete node[last];
  else node[last] = value;
  return copy;
}

/** A plausible valid value where the example has none (optional fields the example omits). */
function sample(schema: Schema): unknown {
  const v = variants(schema)[0] ?? {};
  if (v.example !== undefined) return v.example;
  if (v.enum) return v.enum[0];
  switch (v.type) {
    case "integer":
    case "number":
      return v.minimum ?? 1;
    case "boolean":
      return false;
    case "array":
      return [sample(v.items ?? {})];
    case "object":
      return Object.fromEntries(
        ((v.required ?? []) as string[]).map((k) => [k, sample(v.properties[k])]),
      );
    default:
      return v.format === "date-time" ? "2025-01-01T00:00:00Z" : "X-1";
  }
}

/**
 * Whether `value` is of the object variant `v` of a union: it holds each field the variant fixes
 * to one value (a change request item's `kind`). Any other variant is of every value.
 */
function fits(v: Schema, value: unknown): boolean {
  if (v.type !== "object" || !v.properties) return true;
  return Object.entries<Schema>(v.properties).every(([key, property]) => {
    const fixed = merged(property).enum as unknown[] | undefined;
    return fixed?.length !== 1 || (value as Record<string, unknown> | null)?.[key] === fixed[0];
  });
}

/** Every spoiled variant of `body` below `path`, recursing into objects and the first array item. */
function bodyProbes(schema: Schema, example: unknown, path: Path): [Path, string, unknown][] {
  const out: [Path, string, unknown][] = wrongValues(schema).map(([what, value]) => [
    path,
    what,
    setAt(example, path, value),
  ]);
  const at = (root: unknown) => path.reduce<any>((node, key) => node?.[key], root);
  for (const v of variants(schema)) {
    // A variant of a union other than the example's is spoiled on a value of its own.
    const body = fits(v, at(example)) ? example : setAt(example, path, sample(v));
    const here = at(body);
    if (v.type === "object" && v.properties) {
      out.push([
        [...path, "zzUnknown"],
        "an unknown field",
        setAt(body, [...path, "zzUnknown"], 1),
      ]);
      for (const key of (v.required ?? []) as string[]) {
        out.push([[...path, key], "missing", setAt(body, [...path, key], undefined, true)]);
      }
      for (const [key, child] of Object.entries<Schema>(v.properties)) {
        const filled =
          here && typeof here === "object" && key in here
            ? body
            : setAt(body, [...path, key], sample(child));
        out.push(...bodyProbes(child, filled, [...path, key]));
      }
    }
    if (v.type === "array" && v.items) {
      const filled =
        Array.isArray(here) && here.length ? body : setAt(body, path, [sample(v.items)]);
      out.push(...bodyProbes(v.items, filled, [...path, 0]));
    }
  }
  return out;
}

const QUERY_VALUES = [
  "",
  "abc",
  "-1",
  "0",
  "1.5",
  "1e3",
  "NOT_AN_OPTION",
  "$bogus:1",
  "x".repeat(300),
];
const PATH_VALUES = ["-1", "0", "abc", "1.5", "x".repeat(70), "%3F%21"];

/** A valid value of a path or query parameter (its format, not an existing record). */
function validParam(schema: Schema): string {
  const v = variants(schema)[0] ?? {};
  if (v.type === "integer") return "1";
  if (v.type === "array") return validParam(v.items ?? {});
  return String(v.enum?.[0] ?? v.example ?? "X-1");
}

function probes(op: Operation): Probe[] {
  const params = Object.fromEntries(
    op.parameters.filter((p) => p.in === "path").map((p) => [p.name, validParam(p.schema)]),
  );
  const query: [string, string][] = op.parameters
    .filter((p) => p.in === "query" && p.required)
    .map((p) => [p.name, validParam(p.schema)]);
  const example = op.body ? (merged(op.body).example ?? sample(op.body)) : undefined;
  const base = { params, query, body: example };
  const out: Probe[] = [];
  for (const p of op.parameters) {
    if (p.in === "path") {
      for (const value of PATH_VALUES) {
        out.push({
          ...base,
          params: { ...params, [p.name]: value },
          target: `path.${p.name}`,
          what: value,
        });
      }
    } else if (p.in === "query") {
      const others = query.filter(([name]) => name !== p.name);
      for (const value of QUERY_VALUES) {
        out.push({
          ...base,
          query: [...others, [p.name, value]],
          target: `query.${p.name}`,
          what: value,
        });
      }
      if (p.required)
        out.push({ ...base, query: others, target: `query.${p.name}`, what: "missing" });
    }
  }
  if (op.body) {
    for (const [path, what, body] of bodyProbes(op.body, example, [])) {
      out.push({ ...base, body, target: ["body", ...path].join("."), what });
    }
  }
  return out;
}

async function send(op: Operation, probe: Probe) {
  const path = op.path.replace(/\{(\w+)\}/g, (_m, name: string) => probe.params[name] ?? "");
  const search = new URLSearchParams(probe.query).toString();
  const url = `http://pricing.test${path}${search ? `?${search}` : ""}`;
  const headers: Record<string, string> = { "x-webhook-signature": KEYS.admin };
  let body: string | undefined;
  if (probe.body !== undefined) {
    body = JSON.stringify(probe.body);
    headers["content-type"] = "application/json";
  }
  const res = await callWorker(new Request(url, { method: op.method, headers, body }));
  return { status: res.status, text: await res.text() };
}

/** What is wrong with a 400's wording; empty when it speaks about the spoiled field. */
function wordingFaults(probe: Probe, text: string): string[] {
  const problem = JSON.parse(text) as {
    detail: string;
    errors?: { path: string; message: string }[];
  };
  const faults: string[] = [];
  const issues = problem.errors ?? [];
  for (const { path, message } of issues) {
    if (VALIDATOR_WORDING.test(message)) faults.push(`validator wording: ${path}: ${message}`);
    // Only a body that is not an object at all is an issue of the whole body.
    if (!path.includes(".") && probe.target !== path) faults.push(`names no field: ${path}`);
  }
  if (VALIDATOR_WORDING.test(problem.detail))
    faults.push(`validator wording in detail: ${problem.detail}`);
  const names = (path: string) => path === probe.target || path.startsWith(`${probe.target}.`);
  if (!issues.some((issue) => names(issue.path))) {
    faults.push(`no issue names ${probe.target}: ${JSON.stringify(issues.map((i) => i.path))}`);
  }
  return faults;
}

describe("no validator wording in any 400 (docs/api/errors-and-limits.md §7.3)", () => {
  it("the wording pattern knows zod's phrasings and spares ours", () => {
    for (const zod of [
      "Invalid input: expected int, received number",
      "Invalid input: expected string, received undefined",
      'Invalid option: expected one of "A"|"B"',
      "Too small: expected number to be >=1",
      "Too big: expected string to have <=200 characters",
      'Unrecognized key: "x"',
      "Invalid string: must match pattern /^x$/",
      "Invalid input",
    ]) {
      expect(VALIDATOR_WORDING.test(zod), zod).toBe(true);
    }
    for (const ours of [
      "must be an integer",
      "must be at least 1",
      "must be one of ACTIVE, DRAFT",
      "is required",
      "is not a known field",
      "must be a whole number 1-1000000",
    ]) {
      expect(VALIDATOR_WORDING.test(ours), ours).toBe(false);
    }
  });

  ops.forEach((op) => {
    it(`${op.method} ${op.path} (${op.id})`, { timeout: 120_000 }, async () => {
      const faults = new Map<string, string>();
      let answered400 = 0;
      for (const probe of probes(op)) {
        const res = await send(op, probe);
        stats.probes++;
        expect(res.status, `${probe.target} ${probe.what}`).toBeLessThan(500);
        if (res.status !== 400) continue;
        answered400++;
        stats.answered400++;
        for (const fault of wordingFaults(probe, res.text)) {
          const key = `${probe.target} (${probe.what}) → ${fault}`.slice(0, 300);
          faults.set(key, res.text.slice(0, 400));
        }
      }
      expect([...faults.keys()]).toEqual([]);
      if (op.parameters.some((p) => p.in !== "header") || op.body) {
        expect(answered400).toBeGreaterThan(0);
      }
    });
  });
});

afterAll(() => {
  console.log(
    `validation wording: ${ops.length} operations, ${stats.probes} spoiled requests, ` +
      `${stats.answered400} answered 400`,
  );
});
