/** What a connected agent can do, found by probing rather than by its name. */
export interface AgentCapabilities {
  /** "pi": Pi >= 0.81 (or our host); "pi-legacy": older Pi; "omp": oh-my-pi's dialect. */
  flavor: "pi" | "pi-legacy" | "omp";
  /** set_host_tools / host_tool_call (seed 001). */
  hostTools: boolean;
  /** set_todos (seed 001). */
  todos: boolean;
  /** set_interrupt_mode (seed 001). */
  interruptMode: boolean;
  /** set_permission_mode (ours: the bundled host). */
  permissionModes: boolean;
  /** set_delta_interval (ours: the bundled host joins streamed deltas on request). */
  deltaPacing: boolean;
  /** The agent sends agent_settled after the last agent_end of a run (Pi >= 0.80.4). */
  agentSettled: boolean;
  /** clear_queue, get_entries, get_tree, get_available_thinking_levels, get_commands (Pi >= 0.84). */
  sessionTree: boolean;
  /** The command that forks from an entry: Pi says fork, oh-my-pi says branch. */
  forkCommand: "fork" | "branch";
}

export const assumedCapabilities: AgentCapabilities = {
  flavor: "pi",
  hostTools: false,
  todos: false,
  interruptMode: false,
  permissionModes: false,
  deltaPacing: false,
  agentSettled: true,
  sessionTree: true,
  forkCommand: "fork",
};

export interface ProbeResults {
  state: Record<string, unknown>;
  sawReadyFrame: boolean;
  hasThinkingLevelsCommand: boolean;
  hasHostTools: boolean;
}

export function capabilitiesFrom(probe: ProbeResults): AgentCapabilities {
  const omp = probe.sawReadyFrame || "queuedMessageCount" in probe.state;
  const modernPi = !omp && probe.hasThinkingLevelsCommand;
  return {
    flavor: omp ? "omp" : modernPi ? "pi" : "pi-legacy",
    hostTools: probe.hasHostTools,
    todos: omp || "todoPhases" in probe.state,
    interruptMode: omp || "interruptMode" in probe.state,
    permissionModes: "permissionMode" in probe.state,
    deltaPacing: "deltaIntervalMs" in probe.state,
    agentSettled: modernPi,
    sessionTree: modernPi,
    forkCommand: omp ? "branch" : "fork",
  };
}
