/**
 * What a running ACP agent offers beyond Pi's RPC, as the editor's commands use it: its own
 * modes (the mode picker), its sign-out, its saved sessions. Undefined for a Pi agent.
 */
import { settings } from "../settings";
import { AcpTransport } from "./acp-transport";
import type { SignOutResult } from "./acp-sign-out";
import { knownAgentOf } from "./known-agents";

/** An ACP agent's own modes, as our mode picker shows them. */
export interface AgentModes {
  current: string;
  available: { id: string; name: string; description?: string }[];
  set(id: string): Promise<void>;
}

/** Pi: Sign Out of ACP Agent, for the running agent. */
export interface AcpSignOut {
  agentName: string;
  /** It declares ACP's logout; without it nothing is sent and the report says what stays. */
  logoutOffered: boolean;
  /** What it records of a sign-in in its own files (known agents). */
  record?: string;
  signOut(): Promise<SignOutResult>;
}

/** An ACP agent's saved sessions (session/list, session/load), where it declares them. */
export interface AgentSessions {
  agentName: string;
  canList: boolean;
  canLoad: boolean;
  list(): Promise<{ sessionId: string; title?: string; updatedAt?: string }[]>;
  /** Reopens one; its history becomes the chat's (get_messages). */
  load(sessionId: string): Promise<void>;
}

/** What a running ACP agent offers beyond Pi's RPC, as the editor's commands use it. */
export interface AcpFeatures {
  /** Its name, as it names itself. */
  name: string;
  /** Its own modes (our mode picker), or undefined when it has none. */
  modes: AgentModes | undefined;
  signOut: AcpSignOut;
  sessions: AgentSessions;
}

/** The features of the agent behind `transport`, or undefined for a Pi agent. */
export function acpFeatures(transport: unknown): AcpFeatures | undefined {
  if (!(transport instanceof AcpTransport)) return undefined;
  const { bridge } = transport;
  const record = knownAgentOf(settings.agentCommand, settings.agentArgs)?.signInRecord;
  const { list, load } = bridge.sessionSupport;
  return {
    name: bridge.name,
    modes: bridge.modeChoice(),
    signOut: { agentName: bridge.name, logoutOffered: bridge.logoutOffered, ...(record ? { record } : {}), signOut: () => bridge.signOut() },
    sessions: {
      agentName: bridge.name,
      canList: list,
      canLoad: load,
      list: async () => (await bridge.listSessions()).map((s) => ({ sessionId: s.sessionId, ...(s.title ? { title: s.title } : {}), ...(s.updatedAt ? { updatedAt: s.updatedAt } : {}) })),
      load: (sessionId) => bridge.loadSession(sessionId),
    },
  };
}
