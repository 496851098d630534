/**
 * Reviewing what the agents changed: the Changes view, each file's diff (before ↔ now) with Keep /
 * Undo per hunk (lenses) and per file, Keep All / Undo All, the keys. Pending since the user last
 * kept or undid a file, across runs; each change belongs to the sessions whose agents made it
 * (a chat shows and acts on its own session's, the Changes view lists every session's). See review-state.ts for the list,
 * review-tracking.ts for how changes are found, hunks.ts for what Keep and Undo do.
 */
import type * as vscode from "vscode";
import type { AgentAttach } from "../supervision/supervisor-options";
import { Lifetime } from "../lifetime";
import { ChangesView } from "./changes-view";
import { registerReviewCommands, type ReviewSessions } from "./review-actions";
import { registerReviewContent } from "./review-diff";
import { registerReviewLenses } from "./review-lenses";
import { ReviewState, type ChangesReview } from "./review-state";
import { trackAgentChanges } from "./review-tracking";

export type { ChangesReview, ReviewSummary } from "./review-state";
export type { ReviewSessions } from "./review-actions";

export interface ReviewServices {
  everyAgent: { onAttach(hook: AgentAttach): void };
  /** The folders agents work in (workspace folders, session worktrees): a record elsewhere is not taken in. */
  roots(): readonly string[];
  /** The checkpoint store; undefined while checkpoints are off. */
  store(): string | undefined;
  /** The sessions of the window: whose changes the palette's Keep All / Undo All take. */
  sessions: ReviewSessions;
  log: vscode.LogOutputChannel;
}

export interface InstalledReview extends vscode.Disposable {
  readonly review: ChangesReview;
}

export function installReview(services: ReviewServices): InstalledReview {
  const lifetime = new Lifetime();
  const state = lifetime.add(new ReviewState((owner) => services.sessions.conversation(owner)));
  lifetime.add(trackAgentChanges({ everyAgent: services.everyAgent, store: services.store, roots: services.roots, state, log: services.log }));
  lifetime.add(registerReviewContent(state));
  lifetime.add(registerReviewLenses(state));
  lifetime.add(registerReviewCommands(state, services.sessions, services.log));
  lifetime.add(new ChangesView(state));
  return { review: state, dispose: () => lifetime.dispose() };
}
