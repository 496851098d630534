/**
 * fetch with a time limit that holds under garbage collection. In Node 20 (VS Code 1.100's
 * extension host and the test runner), `AbortSignal.timeout()` inside `AbortSignal.any()` can be
 * collected before it fires, and undici follows a request's signal weakly too: against a server that
 * never answers, the request then waits forever. Here a plain timer holds the controller, and the
 * call ends when it aborts whether or not undici heard. The limit covers the headers and the body.
 */
export function boundedFetch(fetchFn: typeof fetch, timeoutMs: number, outer?: AbortSignal): typeof fetch {
  return (input, init) => {
    const controller = new AbortController();
    const requestSignal = input instanceof Request ? input.signal : undefined;
    const sources = [outer, init?.signal ?? undefined, requestSignal].filter((s): s is AbortSignal => s !== undefined);
    const detach: (() => void)[] = [];
    const timer = setTimeout(() => controller.abort(new DOMException(`no answer within ${Math.round(timeoutMs / 1000)} s`, "TimeoutError")), timeoutMs);
    // The limit alone does not keep a process alive; the request's own socket does while it lasts.
    timer.unref();
    controller.signal.addEventListener("abort", () => (clearTimeout(timer), detach.forEach((off) => off())), { once: true });
    for (const source of sources) {
      if (source.aborted) controller.abort(source.reason);
      const follow = (): void => controller.abort(source.reason);
      source.addEventListener("abort", follow, { once: true });
      detach.push(() => source.removeEventListener("abort", follow));
    }
    const ended = new Promise<never>((_, reject) => {
      const end = (): void => reject(controller.signal.reason);
      if (controller.signal.aborted) end();
      else controller.signal.addEventListener("abort", end, { once: true });
    });
    return Promise.race([fetchFn(input, { ...init, signal: controller.signal }), ended]);
  };
}
