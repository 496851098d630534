import type { TodoPhase } from "../shared/protocol/session";
import { progress } from "../shared/plan-edits";
import type { FromWebview } from "../shared/webview-protocol";
import { h, icon } from "./dom";

type TaskStatus = TodoPhase["tasks"][number]["status"];

const statusIcon: Record<TaskStatus, string> = { pending: "circle-large-outline", in_progress: "circle-large-filled", completed: "pass-filled", abandoned: "circle-slash" };
const statusWord: Record<TaskStatus, string> = { pending: "to do", in_progress: "in progress", completed: "done", abandoned: "abandoned" };

/**
 * The agent's plan above the message box, folded to one line (Plan · 2 of 5 done, and the task
 * under way) so the transcript keeps its room; the user unfolds it to every task (within a part
 * of the view), and it stays as the user left it across updates. A task's button marks it done (or
 * not done again), which the extension sends to the agent (`set_todos`); renaming, moving, adding
 * and removing are in the Plan view, one click away. When the agent in plan mode has answered,
 * Approve plan and Keep planning sit right under the plan. Hidden while there is neither.
 */
export class PlanView {
  private phases: TodoPhase[] = [];
  private awaitingApproval = false;
  /** Unfolded by the user: stays open across updates. */
  private open = false;

  constructor(
    private readonly element: HTMLElement,
    private readonly post: (message: FromWebview) => void,
    /** Keep planning: the message box takes what should change. */
    private readonly focusMessageBox: () => void,
  ) {}

  set(phases: TodoPhase[], awaitingApproval: boolean): void {
    this.phases = phases;
    this.awaitingApproval = awaitingApproval;
    this.render();
  }

  private render(): void {
    const tasks = this.phases.flatMap((p) => p.tasks);
    this.element.hidden = tasks.length === 0 && !this.awaitingApproval;
    // The focus stays on the button or line it was on while the plan is drawn anew.
    const focused = (document.activeElement as HTMLElement | null)?.dataset?.action;
    this.element.replaceChildren(...[tasks.length > 0 ? this.fold(tasks) : null, this.awaitingApproval ? this.decision() : null].filter((e): e is HTMLElement => e !== null));
    if (focused) this.element.querySelector<HTMLElement>(`[data-action="${focused}"]`)?.focus();
  }

  private fold(tasks: TodoPhase["tasks"]): HTMLElement {
    const { done, total } = progress(this.phases);
    const current = tasks.find((t) => t.status === "in_progress");
    const details = h("details", { class: "plan-fold", open: this.open });
    details.addEventListener("toggle", () => (this.open = details.open));
    const edit = h("button", { type: "button", class: "plan-link", "data-action": "plan-edit", title: "Rename, move, add or remove tasks in the Plan view" }, icon("edit"), "Edit in the Plan view");
    edit.addEventListener("click", () => this.post({ type: "planAction", action: "edit" }));
    details.append(
      h("summary", { "data-action": "plan-fold", "aria-label": `Plan: ${done} of ${total} done${current ? `, now: ${current.content}` : ""}` },
        icon("list-tree"), h("span", { class: "plan-title" }, h("strong", {}, "Plan"), ` · ${done} of ${total} done`),
        h("progress", { class: "plan-bar", max: String(total || 1), value: String(done), "aria-hidden": "true" }),
        current ? h("span", { class: "plan-current" }, current.content) : null),
      h("div", { class: "plan-list" }, ...this.phases.map((phase) => this.phase(phase)), edit),
    );
    return details;
  }

  /** Approve plan and Keep planning: what Pi: Approve Plan and Pi: Keep Planning do, for this chat's session. */
  private decision(): HTMLElement {
    const button = (action: "approve" | "keepPlanning", label: string, title: string, primary: boolean) => {
      const b = h("button", { type: "button", class: primary ? "plan-decide primary" : "plan-decide", "data-action": action === "approve" ? "plan-approve" : "plan-keep", title }, label);
      b.addEventListener("click", () => {
        if (action === "keepPlanning") this.focusMessageBox();
        this.post({ type: "planAction", action });
      });
      return b;
    };
    return h("div", { class: "plan-decision", role: "group", "aria-label": "The plan waits for your decision" },
      button("approve", "Approve plan", "Approve the plan: choose how the agent works on it, then it starts", true),
      button("keepPlanning", "Keep planning", "Stay in plan mode and say what should change", false));
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
