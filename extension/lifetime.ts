import type * as vscode from "vscode";

/** Holds the resources of one lifetime (extension, agent process, webview) and frees them in reverse. */
export class Lifetime implements vscode.Disposable {
  private readonly items: { dispose(): unknown }[] = [];
  private disposed = false;

  add<T extends { dispose(): unknown }>(item: T): T {
    if (this.disposed) item.dispose();
    else this.items.push(item);
    return item;
  }

  dispose(): void {
    this.disposed = true;
    for (const item of this.items.splice(0).reverse()) {
      try {
        item.dispose();
      } catch {
        // one failing disposal must not keep the others alive
      }
    }
  }
}
