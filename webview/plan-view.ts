import type { TodoPhase } from "../shared/protocol/session";
import { progress } from "../shared/plan-edits";
import type { FromWebview } from "../shared/webview-protocol";
import { h, icon } from "./dom";

type TaskStatus = TodoPhase["tasks"][number]["status"];

const statusIcon: Record<TaskStatus, string> = { pending: "circle-large-outline", in_progress: "circle-large-filled", completed: "pass-filled", abandoned: "circle-slash" };
const statusWord: Record<TaskStatus, string> = { pending: "to do", in_progress: "in progress", completed: "done", abandoned: "abandoned" };

/**
 * The agent's plan above the message box: its progress in one line (Plan 2/5), folded open or
 * shut by the user, each task with its state; a task's button marks it done (or not done again),
 * which the extension sends to the agent (`set_todos`). Hidden while the agent keeps no plan.
 */
export class PlanView {
  private phases: TodoPhase[] = [];
  /** Shut by the user: stays shut across updates. */
  private shut = false;

  constructor(
    private readonly element: HTMLElement,
    private readonly post: (message: FromWebview) => void,
  ) {}

  set(phases: TodoPhase[]): void {
    this.phases = phases;
    this.render();
  }

  private render(): void {
    const tasks = this.phases.flatMap((p) => p.tasks);
    this.element.hidden = tasks.length === 0;
    if (tasks.length === 0) return void this.element.replaceChildren();
    const { done, total } = progress(this.phases);
    const current = tasks.find((t) => t.status === "in_progress");
    const details = h("details", { class: "plan-fold", open: !this.shut });
    details.addEventListener("toggle", () => (this.shut = !details.open));
    details.append(
      h("summary", { "aria-label": `Plan: ${done} of ${total} done${current ? `, now: ${current.content}` : ""}` },
        icon("list-tree"), h("span", { class: "plan-title" }, "Plan"), h("span", { class: "plan-progress" }, `${done}/${total}`),
        h("progress", { class: "plan-bar", max: String(total || 1), value: String(done), "aria-hidden": "true" }),
        current ? h("span", { class: "plan-current" }, current.content) : null),
      ...this.phases.map((phase) => this.phase(phase)),
    );
    this.element.replaceChildren(details);
  }

  private phase(phase: TodoPhase): HTMLElement {
    const showName = this.phases.length > 1;
    return h("div", { class: "plan-phase", role: "list", "aria-label": phase.name },
      showName ? h("div", { class: "plan-phase-name" }, phase.name) : null,
      ...phase.tasks.map((task) => {
        const toggle = h("button", { type: "button", class: "icon-button plan-toggle", "data-task": task.id, title: task.status === "completed" ? "Mark as not done" : "Mark as done", "aria-label": `${task.content}: ${statusWord[task.status]}. ${task.status === "completed" ? "Mark as not done" : "Mark as done"}` }, icon(statusIcon[task.status]));
        toggle.addEventListener("click", () => this.post({ type: "planToggle", phaseId: phase.id, taskId: task.id }));
        return h("div", { class: "plan-task", role: "listitem", "data-status": task.status }, toggle, h("span", { class: "plan-task-text" }, task.content));
      }));
  }
}
