// The Worker bundle's stand-in for zod's `locales` index (wrangler.toml [alias]): zod exports
// every language's error map in one namespace (`z.locales`), and @hono/zod-openapi keeps the `z`
// namespace alive as a value, so a bundler cannot drop the 60-odd languages (some 250 KB
// minified). The service words every message itself (src/lib/core/wording.ts) and zod's own default
// is English, so English is all it needs. Tests run zod unaliased: the answers are the same.
export { default as en } from "zod/v4/locales/en.js";
