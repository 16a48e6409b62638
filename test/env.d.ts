import type { D1Migration } from "@cloudflare/vitest-pool-workers";
import type { Bindings } from "../src/http/env";

declare module "vitest" {
  export interface ProvidedContext {
    /** The webhook receiver of test/receiver.setup.mjs, e.g. http://127.0.0.1:41234. */
    receiverUrl: string;
  }
}

declare global {
  namespace Cloudflare {
    interface Env extends Bindings {
      TEST_MIGRATIONS: D1Migration[];
      /** Admin keys for the files that write thousands of times a minute (test/fuzz/worker.ts). */
      TEST_WRITER_KEYS: string[];
      /** wrangler.toml's `[[ratelimits]]`, by binding name (vitest.config.ts). */
      TEST_RATE_LIMITS: Record<string, { limit: number; period: 10 | 60 }>;
    }
    interface GlobalProps {
      mainModule: typeof import("../src/index");
    }
  }
}
