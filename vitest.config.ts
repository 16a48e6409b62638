import { createHash } from "node:crypto";
import { fileURLToPath } from "node:url";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-pool-workers";
import { defineConfig } from "vitest/config";
import { unstable_readConfig } from "wrangler";
import { writeDocument } from "./scripts/lib/openapi-doc.mjs";
import { workerSource } from "./scripts/lib/worker-source.mjs";

/** The keys the tests send; the Worker only ever sees their SHA-256. */
export const TEST_KEYS = { admin: "test-admin-key", read: "test-read-key" };
/**
 * Admin keys named `writer-0` … for the files that write thousands of times a minute, far above
 * one key's write limit: test/fuzz/worker.ts spreads their admin calls over these, as many
 * back-office clients would send them.
 */
/**
 * Keys in the owner form (`owner:name:role:sha256`, docs/api/access.md §6): two keys of one owner,
 * as a rotation leaves them for a while, and another owner's.
 * test/change-requests/change-requests-owners.test.ts.
 */
const OWNER_KEYS = [
  { key: "test-alice-key-2026", entry: "alice:alice-2026:admin" },
  { key: "test-alice-key-2027", entry: "alice:alice-2027:admin" },
  { key: "test-bob-key", entry: "bob:bob-laptop:admin" },
];
/**
 * Sales keys (docs/quotes.md §1), named as worked example F's quote policy names its approvers:
 * test/quotes*.test.ts.
 */
const SALES_KEYS = ["rep-1", "rep-2", "manager", "director"].map((name) => ({
  key: `test-${name}-key`,
  entry: `${name}:${name}:sales`,
}));
const WRITER_KEYS = Array.from({ length: 128 }, (_, i) => `test-writer-key-${i}`);
const sha256 = (key: string) => createHash("sha256").update(key).digest("hex");
const SRC = fileURLToPath(new URL("./src/", import.meta.url));

type RateLimitConfig = { name: string; simple: { limit: number; period: number } };

export default defineConfig(async () => {
  // The same migrations folder wrangler applies in dev and deploy.
  const migrations = await readD1Migrations("drizzle");
  // The rate limits run as wrangler.toml declares them; the tests read the numbers from here.
  const { ratelimits, alias } = unstable_readConfig({ config: "./wrangler.toml" });
  // GET /doc serves the document the build generates from src/ (scripts/worker-build.mjs does it
  // for wrangler): generated here too, so the tests read the /doc of the source they run.
  await writeDocument();
  return {
    // The Worker's module aliases, as wrangler.toml declares them (the `zod` of the bundle,
    // src/core/zod-entry.ts): the tests run the modules a deploy bundles. Exact import paths,
    // as wrangler matches them.
    resolve: {
      alias: Object.entries<string>(alias ?? {}).map(([find, path]) => ({
        find: new RegExp(`^${find.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`),
        replacement: fileURLToPath(new URL(path, import.meta.url)),
      })),
    },
    plugins: [
      // The Worker's source, as wrangler bundles it (scripts/worker-build.mjs): src/ without the
      // words of /doc (scripts/lib/worker-source.mjs), so the tests run the code a deploy runs.
      {
        name: "worker-source",
        enforce: "pre",
        transform(code: string, id: string) {
          const file = id.split("?")[0] ?? id;
          if (!file.startsWith(SRC) || !file.endsWith(".ts")) return undefined;
          return { code: workerSource(code, file), map: null };
        },
      },
      cloudflareTest({
        main: "./src/index.ts",
        wrangler: { configPath: "./wrangler.toml" },
        miniflare: {
          // A second, empty database: test/tools/csv-round-trip.test.ts imports into it ("a fresh
          // DB").
          d1Databases: ["IMPORT_DB"],
          bindings: {
            TEST_MIGRATIONS: migrations,
            TEST_RATE_LIMITS: Object.fromEntries(
              ratelimits.map((r: RateLimitConfig) => [r.name, r.simple]),
            ),
            TEST_WRITER_KEYS: WRITER_KEYS,
            API_KEYS: [
              `admin:${sha256(TEST_KEYS.admin)}`,
              `read:${sha256(TEST_KEYS.read)}`,
              ...WRITER_KEYS.map((key, i) => `writer-${i}:admin:${sha256(key)}`),
              ...[...OWNER_KEYS, ...SALES_KEYS].map(({ key, entry }) => `${entry}:${sha256(key)}`),
            ].join(","),
            // The test receiver listens on 127.0.0.1 (test/receiver.setup.mjs); retries come fast.
            WEBHOOK_ALLOWED_HOSTS: "127.0.0.1",
            WEBHOOK_RETRY_BASE_SECONDS: "1",
          },
        },
      }),
    ],
    test: {
      setupFiles: ["./test/apply-migrations.ts"],
      globalSetup: ["./test/receiver.setup.mjs"],
      include: ["test/**/*.test.ts"],
    },
  };
});
