import * as vscode from "vscode";
import type { FromWebview, ToWebview } from "../../shared/webview-protocol";
import type { AgentSupervisor } from "../agent-supervisor";
import type { ChatViewProvider } from "./chat-view";
import { Transcript } from "./transcript";

/** Connects the chat view to the agent: prompts and aborts go out, events come back as transcript changes. */
export class ChatController implements vscode.Disposable {
  readonly transcript: Transcript;
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(
    private readonly supervisor: AgentSupervisor,
    private readonly view: ChatViewProvider,
  ) {
    this.transcript = new Transcript((message) => view.post(message));
    this.subscriptions.push(
      view.onMessage((message) => void this.handle(message)),
      supervisor.onDidChangeStatus((status) => view.post({ type: "status", status })),
    );
    supervisor.onAttach((client, lifetime) => {
      lifetime.add(client.onEvent((event) => {
        this.transcript.apply(event);
        if (event.type === "agent_start") supervisor.setStatus("running");
      }));
      lifetime.add(client.onSettled(() => supervisor.setStatus("idle")));
    });
  }

  post(message: ToWebview): void {
    this.view.post(message);
  }

  private async handle(message: FromWebview): Promise<void> {
    switch (message.type) {
      case "ready":
        this.view.post({ type: "reset", items: this.transcript.snapshot() });
        this.view.post({ type: "status", status: this.supervisor.status });
        void this.supervisor.ensureStarted().catch((error: unknown) => this.showError(error));
        return;
      case "prompt":
        return this.prompt(message.text);
      case "abort":
        return this.abort();
    }
  }

  async prompt(text: string): Promise<void> {
    try {
      const client = await this.supervisor.ensureStarted();
      const running = this.supervisor.status === "running";
      await client.request("prompt", running ? { message: text, streamingBehavior: "steer" } : { message: text });
    } catch (error) {
      this.showError(error);
    }
  }

  async abort(): Promise<void> {
    const client = this.supervisor.client;
    if (!client) return;
    try {
      await client.request("abort", {});
    } catch (error) {
      this.showError(error);
    }
  }

  private showError(error: unknown): void {
    this.transcript.add({ kind: "error", text: error instanceof Error ? error.message : String(error) });
  }

  dispose(): void {
    for (const sub of this.subscriptions.splice(0)) sub.dispose();
  }
}
