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

/** Runs the pending tasks, and those they queue (a render that then asks to keep the end in view: the same frame). */
function flush(): void {
  scheduled = true; // what the tasks queue runs in this flush: no frame of its own
  for (let round = 0; pending.size > 0 && round < 10; round++) {
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
  scheduled = false;
  if (pending.size > 0) {
    scheduled = true;
    requestAnimationFrame(flush);
  }
}
