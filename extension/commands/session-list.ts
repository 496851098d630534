/** Resume Session's list: the summaries the host's ACP session/list gives too (shared/node/session-summary.ts). */
export { listSessions, readSessionSummary, type SessionSummary } from "../../shared/node/session-summary";
