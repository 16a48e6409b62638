#!/usr/bin/env node
/**
 * `npm run lint:contract`: the OpenAPI document the Worker serves at /doc, linted by
 *
 *   1. Redocly CLI      `redocly lint` with redocly.yaml (extends `recommended`),
 *   2. Spectral         `spectral lint -r .spectral.yaml` (extends `spectral:oas`),
 *   3. a completeness check of our own: every operation has a summary and a description, every
 *      parameter a description, path and required parameters an example, every request body and
 *      every response with content an example, every schema property a description.
 *
 * Any error or warning from any of them fails the run (exit 1); infos and hints are shown only.
 * The document is built in-process like `npm run client:generate` does (no server needed).
 *
 *   --url <base>   lint <base>/doc of a running service instead (e.g. http://localhost:8787)
 *   --file <json>  lint a saved document instead
 *   --keep <file>  also write the linted document to <file> (to open it in an editor)
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { documentFromSource, documentFromUrl, ROOT } from "./lib/openapi-doc.mjs";

/** @typedef {Record<string, any>} Node */
/** @typedef {{ tool: string, severity: "error" | "warn" | "info" | "hint", rule: string, where: string, message: string }} Problem */

const BIN = join(ROOT, "node_modules", ".bin");
const METHODS = ["get", "put", "post", "delete", "patch", "head", "options", "trace"];

/**
 * Runs a linter that reports JSON, on stdout or into `output`; a run that reports no JSON is a
 * failure of its own.
 * @param {string} name
 * @param {string[]} args
 * @param {string} [output]
 * @returns {unknown}
 */
function runJson(name, args, output) {
  const run = spawnSync(join(BIN, name), args, {
    cwd: ROOT,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
  });
  if (run.error) throw new Error(`${name} did not start: ${run.error.message}`);
  try {
    return JSON.parse(output ? readFileSync(output, "utf8") : run.stdout);
  } catch {
    throw new Error(
      `${name} exited ${run.status} without a JSON report:\n${run.stdout}${run.stderr}`,
    );
  }
}

/**
 * @param {string} file
 * @returns {Problem[]}
 */
function redocly(file) {
  const report = /** @type {{ problems: Node[] }} */ (
    runJson("redocly", ["lint", "--config", join(ROOT, "redocly.yaml"), "--format", "json", file])
  );
  return report.problems.map((p) => ({
    tool: "redocly",
    severity: p.severity === "error" ? "error" : p.severity === "warn" ? "warn" : "info",
    rule: p.ruleId,
    where: p.location?.[0]?.pointer ?? "#",
    message: p.message,
  }));
}

/**
 * @param {string} file
 * @returns {Problem[]}
 */
function spectral(file) {
  const output = `${file}.spectral.json`;
  const report = /** @type {Node[]} */ (
    runJson(
      "spectral",
      [
        "lint",
        "--ruleset",
        join(ROOT, ".spectral.yaml"),
        "--format",
        "json",
        "--output",
        output,
        file,
      ],
      output,
    )
  );
  /** @type {Problem["severity"][]} */
  const severities = ["error", "warn", "info", "hint"];
  return report.map((r) => ({
    tool: "spectral",
    severity: severities[r.severity] ?? "error",
    rule: r.code,
    where: "#/" + r.path.map((/** @type {string} */ k) => pointerEscape(String(k))).join("/"),
    message: r.message,
  }));
}

/** @param {string} key */
const pointerEscape = (key) => key.replace(/~/g, "~0").replace(/\//g, "~1");

/**
 * What the linters do not ask for but the contract promises (issue 7): descriptions and examples
 * everywhere a reader or a generated client looks.
 * @param {Node} doc
 * @returns {Problem[]}
 */
export function completeness(doc) {
  /** @type {Problem[]} */
  const problems = [];
  /** @param {string} rule @param {string[]} at @param {string} message */
  const report = (rule, at, message) =>
    problems.push({
      tool: "contract",
      severity: "warn",
      rule,
      where: "#/" + at.map(pointerEscape).join("/"),
      message,
    });

  /** @param {Node | undefined} node @returns {Node | undefined} */
  const deref = (node) => {
    let n = node;
    for (let i = 0; n?.$ref && i < 20; i++) {
      n = String(n.$ref)
        .replace(/^#\//, "")
        .split("/")
        .map((k) => k.replace(/~1/g, "/").replace(/~0/g, "~"))
        .reduce((/** @type {Node | undefined} */ acc, k) => acc?.[k], doc);
    }
    return n;
  };
  /** @param {Node | undefined} node */
  const hasExample = (node) =>
    node !== undefined &&
    (node.example !== undefined ||
      (Array.isArray(node.examples) && node.examples.length > 0) ||
      (node.examples &&
        typeof node.examples === "object" &&
        Object.keys(node.examples).length > 0));
  /** @param {Node} media */
  const mediaHasExample = (media) => hasExample(media) || hasExample(deref(media.schema));
  /**
   * Its own description, the referenced component's, or (as the generator writes a described
   * reference: `allOf: [{ $ref }, { description }]`) one of its allOf parts'.
   * @param {Node | undefined} schema
   * @returns {boolean}
   */
  const described = (schema) =>
    Boolean(
      schema?.description?.trim() ||
      (schema?.$ref && deref(schema)?.description?.trim()) ||
      (Array.isArray(schema?.allOf) && schema.allOf.some(described)),
    );

  /** @type {Set<Node>} */
  const seen = new Set();
  /** @param {Node | undefined} schema @param {string[]} at */
  const walkSchema = (schema, at) => {
    if (!schema || typeof schema !== "object" || schema.$ref || seen.has(schema)) return;
    seen.add(schema);
    for (const [name, property] of Object.entries(schema.properties ?? {})) {
      if (!described(property)) {
        report(
          "property-description",
          [...at, "properties", name],
          `property ${name} has no description`,
        );
      }
      walkSchema(property, [...at, "properties", name]);
    }
    if (schema.items && typeof schema.items === "object")
      walkSchema(schema.items, [...at, "items"]);
    for (const key of ["prefixItems", "allOf", "anyOf", "oneOf"]) {
      (schema[key] ?? []).forEach((/** @type {Node} */ s, /** @type {number} */ i) =>
        walkSchema(s, [...at, key, String(i)]),
      );
    }
    if (schema.additionalProperties && typeof schema.additionalProperties === "object") {
      walkSchema(schema.additionalProperties, [...at, "additionalProperties"]);
    }
  };

  for (const [name, schema] of Object.entries(doc.components?.schemas ?? {})) {
    walkSchema(schema, ["components", "schemas", name]);
  }

  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of METHODS) {
      /** @type {Node | undefined} */
      const op = item[method];
      if (!op) continue;
      const at = ["paths", path, method];
      const label = `${method.toUpperCase()} ${path}`;
      if (!op.summary?.trim()) report("operation-summary", at, `${label} has no summary`);
      if (!op.description?.trim())
        report("operation-description", at, `${label} has no description`);

      /** @type {Node[]} */
      const parameters = [...(item.parameters ?? []), ...(op.parameters ?? [])];
      parameters.forEach((raw, i) => {
        const p = deref(raw) ?? {};
        const pAt = [...at, "parameters", String(i)];
        if (!p.description?.trim()) {
          report("parameter-description", pAt, `${label}: parameter ${p.name} has no description`);
        }
        if ((p.required || p.in === "path") && !hasExample(p) && !hasExample(deref(p.schema))) {
          report("parameter-example", pAt, `${label}: parameter ${p.name} has no example`);
        }
        walkSchema(p.schema, [...pAt, "schema"]);
      });

      for (const [type, media] of Object.entries(deref(op.requestBody)?.content ?? {})) {
        const mAt = [...at, "requestBody", "content", type];
        if (!mediaHasExample(media)) report("request-example", mAt, `${label}: no request example`);
        walkSchema(media.schema, [...mAt, "schema"]);
      }
      for (const [status, raw] of Object.entries(op.responses ?? {})) {
        for (const [type, media] of Object.entries(deref(raw)?.content ?? {})) {
          const mAt = [...at, "responses", status, "content", type];
          if (!mediaHasExample(media)) {
            report("response-example", mAt, `${label}: response ${status} has no example`);
          }
          walkSchema(media.schema, [...mAt, "schema"]);
        }
      }
    }
  }
  return problems;
}

async function main() {
  const { values } = parseArgs({
    options: { url: { type: "string" }, file: { type: "string" }, keep: { type: "string" } },
  });
  const cwd = process.env.INIT_CWD ?? process.cwd();
  const doc = values.url
    ? await documentFromUrl(values.url)
    : values.file
      ? JSON.parse(readFileSync(resolve(cwd, values.file), "utf8"))
      : await documentFromSource();
  const dir = mkdtempSync(join(tmpdir(), "pricing-contract-"));
  try {
    const file = join(dir, "openapi.json");
    writeFileSync(file, JSON.stringify(doc, null, 2) + "\n");
    if (values.keep) copyFileSync(file, resolve(cwd, values.keep));

    const results = [
      { tool: "redocly", problems: redocly(file) },
      { tool: "spectral", problems: spectral(file) },
      { tool: "contract", problems: completeness(doc) },
    ];
    let failures = 0;
    for (const { tool, problems } of results) {
      const count = (/** @type {string} */ s) => problems.filter((p) => p.severity === s).length;
      const [errors, warnings] = [count("error"), count("warn")];
      failures += errors + warnings;
      console.log(
        `${tool}: ${errors} error(s), ${warnings} warning(s)` +
          (problems.length > errors + warnings
            ? `, ${problems.length - errors - warnings} info(s)`
            : ""),
      );
      for (const p of problems)
        console.log(`  ${p.severity.padEnd(5)} ${p.rule}  ${p.where}\n        ${p.message}`);
    }
    const operations = Object.values(doc.paths ?? {}).flatMap((item) =>
      Object.keys(item).filter((k) => METHODS.includes(k)),
    ).length;
    if (failures) {
      console.error(`lint:contract: ${failures} problem(s) in /doc (${operations} operations)`);
      process.exit(1);
    }
    console.log(`lint:contract: /doc (${operations} operations) is clean`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(`[lint:contract] ${error instanceof Error ? error.message : error}`);
  process.exit(1);
});
