/**
 * The `zod` of the Worker bundle (wrangler.toml [alias]; the tests run it too, vitest.config.ts):
 * the `z` that @hono/zod-openapi imports, extends and re-exports to src/, holding only the members
 * the service uses. @hono/zod-openapi passes zod's whole `z` namespace to a function as a value
 * (`extendZodWithOpenApi(z)`), so a bundler must keep every member of it: every schema kind and
 * string format, the ahead-of-time compiler (`z.compile`, whose code generation Workers forbid),
 * JSON Schema import, and the error messages of some 60 languages (`z.locales`), none of which the
 * service runs. The functions and classes are zod's own, from the same modules; only the namespace
 * is smaller. docs/performance.md "The Worker bundle" has the sizes.
 *
 * A member src/ uses but this object lacks would be `undefined` in the Worker: the test suite runs
 * with this module, and test/scripts/worker-bundle.test.mjs checks every `z.<member>` of src/
 * against it. Add a member here when src/ starts using it.
 */
import {
  array,
  boolean,
  config,
  discriminatedUnion,
  enum as enumOf,
  literal,
  NEVER,
  null as nullOf,
  number,
  object,
  record,
  strictObject,
  string,
  tuple,
  union,
  unknown,
  ZodType,
} from "zod/v4";

export const z = Object.freeze({
  array,
  boolean,
  config,
  discriminatedUnion,
  enum: enumOf,
  literal,
  NEVER,
  null: nullOf,
  number,
  object,
  record,
  strictObject,
  string,
  tuple,
  union,
  unknown,
  /** Not used by src/ as a value: @hono/zod-openapi adds `.openapi()` to its prototype. */
  ZodType,
});

export default z;
