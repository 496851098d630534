/**
 * Runs `work` one at a time: asked while it runs, it runs once more after (with the state as it is
 * then), and further asks before that run begins share it. For the agent's restart: settings
 * changed one by one, or a command meanwhile, never make two restarts at once.
 */
export function oneAtATime<T>(work: () => Promise<T>): () => Promise<T> {
  let tail: Promise<unknown> = Promise.resolve();
  let waiting: Promise<T> | undefined;
  return () => {
    if (waiting) return waiting;
    const run = tail.catch(() => undefined).then(() => {
      waiting = undefined; // begun: a later ask is after it
      return work();
    });
    waiting = run;
    tail = run;
    return run;
  };
}
