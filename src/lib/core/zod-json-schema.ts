/**
 * zod's JSON Schema output, as the Worker bundle has it (wrangler.toml [alias], for the two modules
 * zod's schema classes import it from; docs/performance.md "The Worker bundle"): absent. Every zod
 * schema class refers to it (`.toJSONSchema()`, `~standard.jsonSchema`), so a bundler keeps it,
 * some 18 KiB minified; the service never calls it (/doc is written by zod-to-openapi, from the
 * schemas themselves). A call would throw. `aggregateChecks` is zod's own: `.format`, `.minLength`
 * and `.maxLength` of a schema, which zod-to-openapi reads for /doc, come from it.
 */
export { aggregateChecks } from "../../../node_modules/zod/v4/core/json-schema-processors.js";

const absent = (): never => {
  throw new Error("zod's JSON Schema output is not in the Worker bundle");
};

export const toJSONSchema = absent;
export const createStandardJSONSchemaMethod = () => absent;
export const createToJSONSchemaMethod = () => absent;
export const anyProcessor = absent;
export const arrayProcessor = absent;
export const bigintProcessor = absent;
export const booleanProcessor = absent;
export const catchProcessor = absent;
export const customProcessor = absent;
export const dateProcessor = absent;
export const defaultProcessor = absent;
export const enumProcessor = absent;
export const fileProcessor = absent;
export const functionProcessor = absent;
export const intersectionProcessor = absent;
export const lazyProcessor = absent;
export const literalProcessor = absent;
export const mapProcessor = absent;
export const nanProcessor = absent;
export const neverProcessor = absent;
export const nonoptionalProcessor = absent;
export const nullProcessor = absent;
export const nullableProcessor = absent;
export const numberProcessor = absent;
export const objectProcessor = absent;
export const optionalProcessor = absent;
export const pipeProcessor = absent;
export const prefaultProcessor = absent;
export const promiseProcessor = absent;
export const readonlyProcessor = absent;
export const recordProcessor = absent;
export const setProcessor = absent;
export const stringProcessor = absent;
export const successProcessor = absent;
export const symbolProcessor = absent;
export const templateLiteralProcessor = absent;
export const transformProcessor = absent;
export const tupleProcessor = absent;
export const undefinedProcessor = absent;
export const unionProcessor = absent;
export const unknownProcessor = absent;
export const voidProcessor = absent;
