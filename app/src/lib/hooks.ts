import { useEffect, useRef, useState } from "preact/hooks";
import { describeError, isAbort } from "./api";

export type Loaded<T> =
  { state: "loading" } | { state: "failed"; message: string } | { state: "ready"; value: T };

/**
 * Runs `load` when `deps` change (the previous run is aborted and its answer dropped), and
 * tells whether it is loading, failed (with a sentence) or ready.
 */
export function useLoad<T>(load: (signal: AbortSignal) => Promise<T>, deps: unknown[]): Loaded<T> {
  const [loaded, setLoaded] = useState<Loaded<T>>({ state: "loading" });
  useEffect(() => {
    const controller = new AbortController();
    setLoaded({ state: "loading" });
    load(controller.signal).then(
      (value) => controller.signal.aborted || setLoaded({ state: "ready", value }),
      (error: unknown) => {
        if (controller.signal.aborted || isAbort(error)) return;
        setLoaded({ state: "failed", message: describeError(error) });
      },
    );
    return () => controller.abort();
  }, deps);
  return loaded;
}

/** `value`, once it has stopped changing for `ms`. */
export function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/** Tenths of a second since `running` became true, ticking while it stays true. */
export function useElapsedTenths(running: boolean): number {
  const [tenths, setTenths] = useState(0);
  const started = useRef(0);
  useEffect(() => {
    if (!running) return;
    started.current = performance.now();
    setTenths(0);
    const timer = setInterval(
      () => setTenths(Math.floor((performance.now() - started.current) / 100)),
      100,
    );
    return () => clearInterval(timer);
  }, [running]);
  return tenths;
}
