// The types of csv-http.mjs for the Worker tests (tsconfig.json has no allowJs), emitted from its JSDoc:
// npx tsc --allowJs --declaration --emitDeclarationOnly --skipLibCheck --target ES2022 --module ES2022
//   --moduleResolution bundler --outDir scripts/lib scripts/lib/{csv,money,csv-kinds,csv-engine,csv-http}.mjs
// then prettier. Regenerate when its exports change; this header is kept by hand.

/* eslint-disable @typescript-eslint/no-explicit-any -- JSON bodies, as the JSDoc says */

/**
 * @param {{ url: string, key: string, urlSource?: string }} target the service's base URL, an
 *   API key, and where the URL came from (said when nothing answers there)
 * @param {{ fetch?: Fetch, retryPauseMs?: number }} [options] another fetch (the tests pass the
 *   Worker's); the first retry pause (doubled on each attempt)
 * @returns {Api}
 */
export function createApi(
  target: {
    url: string;
    key: string;
    urlSource?: string;
  },
  {
    fetch: send,
    retryPauseMs,
  }?: {
    fetch?: Fetch;
    retryPauseMs?: number;
  },
): Api;
/**
 * "404 NOT_FOUND: pricelist 12 not found" from a problem+json answer, with the usual remedy.
 * @param {ApiResponse} res
 */
export function describeFailure(res: ApiResponse): string;
export type ApiResponse = {
  status: number;
  body: any;
  headers: Headers;
};
export type Api = {
  url: string;
  get: (path: string) => Promise<ApiResponse>;
  put: (path: string, body: unknown) => Promise<ApiResponse>;
};
export type Fetch = (url: string, init: RequestInit) => Promise<Response>;
