// The types of demo-change-requests.mjs that test/tools/demo-data.test.ts uses (tsconfig.json has
// no allowJs), written by hand from its JSDoc; keep them in step with its exports.

/** The first instant of the month after `now` (epoch ms), UTC. */
export function nextMonth(now: number): number;

/** The two requests' bodies, effective the first day of the month after `now`. */
export function demoChangeRequests(now: number): {
  approved: { title: string; effectiveAt: string; items: object[] };
  pending: { title: string; effectiveAt: string; items: object[] };
};

/** One API call: method, path, JSON body (or undefined) and the API key; status and parsed body. */
export type Call = (
  method: string,
  path: string,
  body: unknown,
  key: string,
) => Promise<{ status: number; body: unknown }>;

/** What the test reads of a request as the API answers it (docs/api/change-requests.md §17). */
export interface DemoRequest {
  id: number;
  title: string;
  status: string;
  effectiveAt: string | null;
  author: string;
  approvedBy: string | null;
  impact: { channelCodes: string[]; pricesChanged: number; maxRaiseBp: number; maxCutBp: number };
}

/**
 * Makes the two requests through the API: both created and submitted by `author`, the first
 * approved by `approver`; answers them as the API does after the last action.
 */
export function addDemoChangeRequests(
  call: Call,
  keys: { author: string; approver: string },
  now: number,
): Promise<{ approved: DemoRequest; pending: DemoRequest }>;
