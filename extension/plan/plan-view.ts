import * as vscode from "vscode";
import type { TodoPhase } from "../../shared/protocol";
import { Lifetime } from "../lifetime";
import type { AgentSession } from "../sessions/agent-session";
import type { SessionRegistry } from "../sessions/session-registry";
import { addTask, moveTask, progress, removeTask, renameTask, toggleDone, type TaskRef, type TodoStatus } from "../../shared/plan-edits";
import { notificationText } from "../ui/plain-text";
import { errorText } from "../../shared/error-text";

export const PLAN_VIEW_ID = "pi.plan";

type Node = { kind: "phase"; phase: TodoPhase } | { kind: "task"; phase: TodoPhase; task: TodoPhase["tasks"][number] };

const icons: Record<TodoStatus, vscode.ThemeIcon> = {
  pending: new vscode.ThemeIcon("circle-large-outline"),
  in_progress: new vscode.ThemeIcon("sync~spin", new vscode.ThemeColor("charts.blue")),
  completed: new vscode.ThemeIcon("pass-filled", new vscode.ThemeColor("testing.iconPassed")),
  abandoned: new vscode.ThemeIcon("circle-slash"),
};
const statusText: Record<TodoStatus, string> = { pending: "to do", in_progress: "in progress", completed: "done", abandoned: "abandoned" };

/**
 * The Plan view (shown while the session the user works with has a plan): that plan, live, with progress; tasks can be
 * marked done, added, renamed, moved and removed, and each edit reaches the agent (PlanState.edit).
 * Labels are tree-item text (never markdown), so a task's content shows as written.
 */
export class PlanView implements vscode.TreeDataProvider<Node>, vscode.Disposable {
  private readonly lifetime = new Lifetime();
  private readonly changeEmitter = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changeEmitter.event;
  private readonly view: vscode.TreeView<Node>;
  private watched = new Lifetime();

  constructor(private readonly sessions: SessionRegistry) {
    this.view = this.lifetime.add(vscode.window.createTreeView(PLAN_VIEW_ID, { treeDataProvider: this, showCollapseAll: true }));
    this.lifetime.add(this.changeEmitter);
    this.lifetime.add(sessions.onDidChange(() => this.watch()));
    this.lifetime.add({ dispose: () => this.watched.dispose() });
    this.watch();
    const run = (name: string, edit: (phases: readonly TodoPhase[], node: Node | undefined) => Promise<TodoPhase[] | undefined> | TodoPhase[] | undefined) =>
      vscode.commands.registerCommand(`pi.plan.${name}`, async (node?: Node) => {
        const plan = this.session.plan;
        const next = await edit(plan.phases, node ?? this.view.selection[0]);
        if (next) await plan.edit(next).catch((error: unknown) => void vscode.window.showErrorMessage(`Pi: the plan could not be changed: ${notificationText(errorText(error))}`));
      });
    const ref = (node: Node | undefined): TaskRef | undefined => (node?.kind === "task" ? { phaseId: node.phase.id, taskId: node.task.id } : undefined);
    const withRef = (change: (phases: readonly TodoPhase[], ref: TaskRef) => TodoPhase[]) => (phases: readonly TodoPhase[], node: Node | undefined) => {
      const r = ref(node);
      return r ? change(phases, r) : undefined;
    };
    this.lifetime.add(run("toggleDone", withRef(toggleDone)));
    this.lifetime.add(run("moveUp", withRef((phases, r) => moveTask(phases, r, -1))));
    this.lifetime.add(run("moveDown", withRef((phases, r) => moveTask(phases, r, 1))));
    this.lifetime.add(run("removeTask", withRef(removeTask)));
    this.lifetime.add(run("renameTask", async (phases, node) => {
      const r = ref(node);
      if (!r || node?.kind !== "task") return undefined;
      const content = await vscode.window.showInputBox({ title: "Pi: Rename Task", value: node.task.content, ignoreFocusOut: true });
      return content?.trim() ? renameTask(phases, r, content.trim()) : undefined;
    }));
    this.lifetime.add(run("addTask", async (phases, node) => {
      const content = await vscode.window.showInputBox({ title: "Pi: Add Task to the Plan", placeHolder: "What should be done", ignoreFocusOut: true });
      return content?.trim() ? addTask(phases, content.trim(), node?.phase.id) : undefined;
    }));
  }

  private get session(): AgentSession {
    return this.sessions.active;
  }

  /** Follows the active session's plan. */
  private watch(): void {
    this.watched.dispose();
    this.watched = new Lifetime();
    this.watched.add(this.session.plan.onDidChange(() => this.refresh()));
    this.refresh();
  }

  private refresh(): void {
    const phases = this.session.plan.phases;
    const { done, total } = progress(phases);
    this.view.description = total > 0 ? `${done}/${total} done` : undefined;
    // "" rather than undefined: VS Code keeps a message that is set to undefined on screen.
    this.view.message = phases.length === 0 ? (this.session.plan.supported ? "No plan yet. The agent's todo list shows here as it works; Add Task starts one." : "This agent keeps no plan.") : "";
    void vscode.commands.executeCommand("setContext", "pi.planEditable", this.session.plan.supported);
    void vscode.commands.executeCommand("setContext", "pi.hasPlan", phases.length > 0); // the view shows only then
    this.changeEmitter.fire();
  }

  getChildren(node?: Node): Node[] {
    if (!node) return this.session.plan.phases.map((phase) => ({ kind: "phase", phase }));
    return node.kind === "phase" ? node.phase.tasks.map((task) => ({ kind: "task", phase: node.phase, task })) : [];
  }

  getTreeItem(node: Node): vscode.TreeItem {
    if (node.kind === "phase") {
      const { done, total } = progress([node.phase]);
      const item = new vscode.TreeItem(node.phase.name, vscode.TreeItemCollapsibleState.Expanded);
      item.id = `phase:${node.phase.id}`;
      item.description = `${done}/${total}`;
      item.contextValue = "piPlanPhase";
      return item;
    }
    const item = new vscode.TreeItem(node.task.content, vscode.TreeItemCollapsibleState.None);
    item.id = `task:${node.phase.id}:${node.task.id}`;
    item.iconPath = icons[node.task.status];
    item.description = node.task.status === "in_progress" ? "in progress" : undefined;
    item.tooltip = `${node.task.content} (${statusText[node.task.status]})`;
    item.accessibilityInformation = { label: `${node.task.content}, ${statusText[node.task.status]}` };
    item.contextValue = "piPlanTask";
    return item;
  }

  dispose(): void {
    this.lifetime.dispose();
  }
}
