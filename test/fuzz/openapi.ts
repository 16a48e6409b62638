import { exports } from "cloudflare:workers";
import Ajv2020, { type ValidateFunction } from "ajv/dist/2020";
import addFormats from "ajv-formats";

/** The live OpenAPI document, read through the real Worker, and what the fuzzer needs from it. */

export type Schema = Record<string, any>;

export interface Parameter {
  name: string;
  in: "path" | "query" | "header";
  required?: boolean;
  description?: string;
  schema: Schema;
}

export interface Operation {
  id: string;
  method: string;
  /** The OpenAPI path template, `/v1/api/pricelist/{id}`. */
  path: string;
  parameters: Parameter[];
  body?: Schema;
  /** Every status the operation documents. */
  documented: Set<number>;
  /** A write: the doc promises 403 to a key without the role. */
  write: boolean;
  /**
   * A write a read key may make too (`x-roles` names `read`: a quote's accept, decline, redeem,
   * docs/quotes.md §1): a read key gets no 403 on a path the operation's route matches.
   */
  readWrite: boolean;
  responses: Record<string, Schema>;
}

export async function loadDoc(): Promise<Schema> {
  const res = await exports.default.fetch(new Request("http://pricing.test/doc"));
  if (res.status !== 200) throw new Error(`/doc answered ${res.status}`);
  return (await res.json()) as Schema;
}

export function operations(doc: Schema): Operation[] {
  const ops: Operation[] = [];
  for (const [path, item] of Object.entries<Schema>(doc.paths)) {
    for (const [method, op] of Object.entries<Schema>(item)) {
      const documented = new Set(Object.keys(op.responses).map(Number));
      const readWrite =
        documented.has(403) && ((op["x-roles"] as string[] | undefined) ?? []).includes("read");
      ops.push({
        id: op.operationId,
        method: method.toUpperCase(),
        path,
        parameters: (op.parameters ?? []) as Parameter[],
        body: op.requestBody?.content?.["application/json"]?.schema,
        documented,
        write: documented.has(403) && !readWrite,
        readWrite,
        responses: op.responses,
      });
    }
  }
  return ops;
}

/** Follows `$ref`s to components until a schema with content. */
export function deref(doc: Schema, schema: Schema): Schema {
  let s = schema;
  for (let i = 0; s?.$ref && i < 20; i++) {
    const parts = (s.$ref as string).replace(/^#\//, "").split("/");
    s = parts.reduce((node: any, key) => node[key.replace(/~1/g, "/").replace(/~0/g, "~")], doc);
  }
  return s;
}

const DOC_ID = "https://pricing.test/doc";

/** Rewrites local refs so they resolve against the document registered under DOC_ID. */
function rebase(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(rebase);
  if (node && typeof node === "object") {
    return Object.fromEntries(
      Object.entries(node).map(([k, v]) => [
        k,
        k === "$ref" && typeof v === "string" && v.startsWith("#") ? DOC_ID + v : rebase(v),
      ]),
    );
  }
  return node;
}

export interface Validators {
  /** The validator of a documented JSON response, or undefined when the status has no JSON body. */
  response(op: Operation, status: number): ValidateFunction | undefined;
  problem: ValidateFunction;
  errorsText(v: ValidateFunction): string;
}

export function validators(doc: Schema): Validators {
  // OpenAPI's `example` is not a JSON Schema keyword; strict mode off lets ajv skip it.
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ $id: DOC_ID, components: doc.components });
  const cache = new Map<string, ValidateFunction | undefined>();
  const response = (op: Operation, status: number) => {
    const key = `${op.id} ${status}`;
    if (!cache.has(key)) {
      const schema = op.responses[String(status)]?.content?.["application/json"]?.schema;
      cache.set(key, schema ? ajv.compile(rebase(schema) as Schema) : undefined);
    }
    return cache.get(key);
  };
  return {
    response,
    problem: ajv.compile({ $ref: `${DOC_ID}#/components/schemas/Problem` }),
    errorsText: (v) => ajv.errorsText(v.errors, { separator: "; " }),
  };
}
