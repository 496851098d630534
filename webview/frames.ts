/** Work deferred to the next animation frame; a task queued twice in one frame runs once. */
const pending = new Set<() => void>();
let scheduled = false;

export function onNextFrame(task: () => void): void {
  pending.add(task);
  if (scheduled) return;
  scheduled = true;
  requestAnimationFrame(flush);
}

/** Runs what is pending now (e.g. before a full re-render replaces it). */
export function flushFrames(): void {
  flush();
}

function flush(): void {
  scheduled = false;
  const tasks = [...pending];
  pending.clear();
  for (const task of tasks) {
    try {
      task();
    } catch (error) {
      console.error("chat render task failed", error);
    }
  }
}
