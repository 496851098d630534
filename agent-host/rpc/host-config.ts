/**
 * What a host reads before anything else: the agent directory, whether the project is trusted
 * (what project files may load), and pi's settings.json (the project's only when trusted).
 */
import * as os from "node:os";
import { protectedResources, resolveProjectTrust } from "../../shared/node/project-trust";
import { defaultAgentDir } from "../ai/models/registry";
import { loadSettings, type Settings } from "../session/settings";
import type { CliOptions } from "./cli-options";
import { errorText } from "../../shared/error-text";

export interface HostConfig {
  agentDir: string;
  /** What loads at start-up (project settings, extensions): the decision, or true when there was nothing to protect. */
  projectTrusted: boolean;
  /** The decision taken at start-up; undefined when the folder had nothing to protect (decided at first read). */
  trustAtStart: boolean | undefined;
  settings: Settings;
}

export function loadHostConfig(options: CliOptions, cwd: string, env: NodeJS.ProcessEnv, warn: (message: string) => void): HostConfig {
  const agentDir = defaultAgentDir(env);
  const trustAtStart = projectTrust(options.approve, cwd, agentDir, warn);
  const projectTrusted = trustAtStart ?? true;
  const { settings, problems } = loadSettings(agentDir, cwd, projectTrusted);
  problems.forEach(warn);
  return { agentDir, projectTrusted, trustAtStart, settings };
}

/**
 * The environment of the processes the host starts for the model and the user (bash, `!command`,
 * an extension's exec): the host's own, with settings.json's `httpProxy` as HTTP(S)_PROXY, as pi
 * applies it. Built apart: the host's process.env is never changed.
 */
export function childEnv(env: NodeJS.ProcessEnv, settings: Settings): NodeJS.ProcessEnv {
  const proxy = httpProxy(settings);
  return proxy ? { ...env, HTTP_PROXY: proxy, HTTPS_PROXY: proxy } : env;
}

/** settings.json's `httpProxy` for model requests, if set. */
export function httpProxy(settings: Settings): string | undefined {
  return typeof settings.httpProxy === "string" && settings.httpProxy ? settings.httpProxy : undefined;
}

/**
 * Project trust as pi decides it without a prompt; a broken trust.json trusts nothing. Undefined
 * when there is nothing to protect yet: decided when a protected resource is first read.
 */
function projectTrust(approve: boolean | undefined, cwd: string, agentDir: string, warn: (message: string) => void): boolean | undefined {
  if (approve !== undefined) return approve;
  try {
    if (protectedResources(cwd, os.homedir()).length === 0) return undefined;
    return resolveProjectTrust(undefined, cwd, agentDir, os.homedir());
  } catch (error) {
    warn(`${errorText(error)}; project resources are not loaded`);
    return false;
  }
}
