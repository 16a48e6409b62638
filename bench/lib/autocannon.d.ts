// The part of autocannon's programmatic API the bench uses (the package ships no types).
declare module "autocannon" {
  import type { EventEmitter } from "node:events";

  export interface Options {
    url: string;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    connections?: number;
    duration?: number;
    timeout?: number;
    pipelining?: number;
    /** Requests each connection cycles through; each inherits what it leaves out from above. */
    requests?: { headers?: Record<string, string> }[];
    /** Called with each connection's client once, before its first request. */
    setupClient?: (client: Client) => void;
  }

  /** A response's status line and headers, as the HTTP parser hands them over. */
  export interface ResponseHead {
    statusCode: number;
    /** `[name, value, name, value, …]` */
    headers: string[];
  }

  /** One connection. */
  export interface Client extends EventEmitter {
    on(event: "headers", listener: (head: ResponseHead) => void): this;
  }

  export interface Histogram {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    total: number;
    p50: number;
    p90: number;
    p99: number;
  }

  export interface Result {
    duration: number;
    requests: Histogram;
    latency: Histogram;
    throughput: Histogram;
    errors: number;
    timeouts: number;
    non2xx: number;
    "2xx": number;
    statusCodeStats: Record<string, { count: number }>;
  }

  export interface Instance extends EventEmitter, PromiseLike<Result> {
    stop(): void;
  }

  function autocannon(options: Options): Instance;
  export default autocannon;
}
