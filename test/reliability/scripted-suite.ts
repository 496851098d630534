import { startMockLlm, type MockLlm } from "../support/mock-llm";

/**
 * A suite's scripted LLM, started before its tests, and what its tests start, undone after them
 * all, last first (launches' folders, hosts, the LLM itself).
 */
export function useScriptedSuite(): { readonly llm: MockLlm; undo(step: () => unknown): void } {
  let llm: MockLlm | undefined;
  const steps: (() => unknown)[] = [];
  before(async () => {
    const started = await startMockLlm();
    llm = started;
    steps.push(() => started.close());
  });
  after(async () => {
    for (const step of steps.reverse()) await step();
  });
  return {
    get llm() {
      if (!llm) throw new Error("the scripted LLM starts before the suite's tests");
      return llm;
    },
    undo: (step) => void steps.push(step),
  };
}
