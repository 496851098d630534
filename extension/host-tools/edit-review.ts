/**
 * The review of a proposed edit: a native diff of the buffer before and after (two read-only
 * virtual documents of the `pi-edit` scheme), decided with the Accept / Reject buttons in the
 * diff editor's title (commands pi.hostTools.acceptEdit / rejectEdit). Closing the diff rejects;
 * cancelling the tool call closes it and answers "cancelled".
 */
import { basename } from "node:path";
import * as vscode from "vscode";
import type { CancellationToken } from "vscode-jsonrpc";

export type ReviewOutcome = "accepted" | "rejected" | "cancelled";

export const reviewScheme = "pi-edit";
export const acceptEditCommand = "pi.hostTools.acceptEdit";
export const rejectEditCommand = "pi.hostTools.rejectEdit";

/** The review id a `pi-edit:` URI belongs to. */
function reviewIdOf(uri: vscode.Uri | undefined): string | undefined {
  if (uri?.scheme !== reviewScheme) return undefined;
  return new URLSearchParams(uri.query).get("review") ?? undefined;
}

function diffReviewId(tab: vscode.Tab): string | undefined {
  return tab.input instanceof vscode.TabInputTextDiff ? reviewIdOf(tab.input.modified) : undefined;
}

export class EditReviewer implements vscode.Disposable {
  private readonly contents = new Map<string, string>();
  private readonly pending = new Map<string, (outcome: ReviewOutcome) => void>();
  private readonly disposables: vscode.Disposable[] = [];
  private counter = 0;

  constructor() {
    this.disposables.push(
      vscode.workspace.registerTextDocumentContentProvider(reviewScheme, {
        provideTextDocumentContent: (uri) => this.contents.get(uri.toString()),
      }),
      vscode.commands.registerCommand(acceptEditCommand, (uri?: vscode.Uri) => this.decide(uri, "accepted")),
      vscode.commands.registerCommand(rejectEditCommand, (uri?: vscode.Uri) => this.decide(uri, "rejected")),
      // The user closed the diff without deciding: that is a rejection (moving it to another group is not).
      vscode.window.tabGroups.onDidChangeTabs((event) => {
        for (const tab of event.closed) {
          const id = diffReviewId(tab);
          if (id !== undefined && this.tabsOf(id).length === 0) this.finish(id, "rejected");
        }
      }),
    );
  }

  /**
   * Shows `before` and `proposed` side by side and waits for the user's decision (or for
   * `token` to be cancelled). The diff is closed in every case.
   */
  async review(target: vscode.Uri, before: string, proposed: string, token: CancellationToken, protectedFile = false): Promise<ReviewOutcome> {
    if (token.isCancellationRequested) return "cancelled";
    const id = String(++this.counter);
    const side = (name: string) => vscode.Uri.from({ scheme: reviewScheme, path: target.path, query: `review=${id}&side=${name}` });
    const [beforeUri, proposedUri] = [side("before"), side("proposed")];
    this.contents.set(beforeUri.toString(), before);
    this.contents.set(proposedUri.toString(), proposed);
    const outcome = new Promise<ReviewOutcome>((resolve) => this.pending.set(id, resolve));
    const cancel = token.onCancellationRequested(() => this.finish(id, "cancelled"));
    try {
      const title = `${basename(target.fsPath)}: Pi's proposed edit${protectedFile ? " of a protected file" : ""} (Accept ✓ / Reject ✗)`;
      await vscode.commands.executeCommand("vscode.diff", beforeUri, proposedUri, title, { preview: false });
      if (token.isCancellationRequested) this.finish(id, "cancelled");
      return await outcome;
    } catch (error) {
      this.finish(id, "cancelled");
      throw error;
    } finally {
      cancel.dispose();
      await this.closeTabs(id);
      this.contents.delete(beforeUri.toString());
      this.contents.delete(proposedUri.toString());
    }
  }

  /** Accept or Reject from the diff title (argument: its resource) or the command palette (the active diff). */
  private decide(uri: vscode.Uri | undefined, outcome: "accepted" | "rejected"): void {
    const active = vscode.window.tabGroups.activeTabGroup.activeTab;
    const id = reviewIdOf(uri) ?? (active ? diffReviewId(active) : undefined) ?? (this.pending.size === 1 ? [...this.pending.keys()][0] : undefined);
    if (id === undefined || !this.pending.has(id)) {
      void vscode.window.showInformationMessage("No edit from Pi is waiting for review here.");
      return;
    }
    this.finish(id, outcome);
  }

  private finish(id: string, outcome: ReviewOutcome): void {
    const resolve = this.pending.get(id);
    if (!resolve) return;
    this.pending.delete(id);
    resolve(outcome);
  }

  private tabsOf(id: string): vscode.Tab[] {
    return vscode.window.tabGroups.all.flatMap((group) => group.tabs.filter((tab) => diffReviewId(tab) === id));
  }

  private async closeTabs(id: string): Promise<void> {
    const tabs = this.tabsOf(id);
    if (tabs.length > 0) await vscode.window.tabGroups.close(tabs, true);
  }

  dispose(): void {
    for (const id of [...this.pending.keys()]) this.finish(id, "cancelled");
    for (const disposable of this.disposables.splice(0)) disposable.dispose();
    this.contents.clear();
  }
}
