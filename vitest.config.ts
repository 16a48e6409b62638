import { createHash } from "node:crypto";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-pool-workers";
import { defineConfig } from "vitest/config";

/** The keys the tests send; the Worker only ever sees their SHA-256. */
export const TEST_KEYS = { admin: "test-admin-key", read: "test-read-key" };
const sha256 = (key: string) => createHash("sha256").update(key).digest("hex");

export default defineConfig(async () => {
  // The same migrations folder wrangler applies in dev and deploy.
  const migrations = await readD1Migrations("drizzle");
  return {
    plugins: [
      cloudflareTest({
        main: "./src/index.ts",
        wrangler: { configPath: "./wrangler.toml" },
        miniflare: {
          // A second, empty database: test/csv-round-trip.test.ts imports into it ("a fresh DB").
          d1Databases: ["IMPORT_DB"],
          bindings: {
            TEST_MIGRATIONS: migrations,
            API_KEYS: `admin:${sha256(TEST_KEYS.admin)},read:${sha256(TEST_KEYS.read)}`,
          },
          ratelimits: {
            // The suites send thousands of requests per file with one key: far above any limit.
            RATE_LIMITER: { simple: { limit: 1_000_000_000, period: 60 } },
            // A real (Miniflare) limiter with a low limit, injected by test/limits-and-security.test.ts.
            LOW_RATE_LIMITER: { simple: { limit: 3, period: 60 } },
          },
        },
      }),
    ],
    test: {
      setupFiles: ["./test/apply-migrations.ts"],
      include: ["test/**/*.test.ts"],
    },
  };
});
