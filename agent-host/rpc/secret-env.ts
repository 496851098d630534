/**
 * Keys the editor injected from its SecretStorage reach the providers, never a tool's process.
 * The editor names them in PI_SECRET_ENV; they (and PI_SECRET_ENV) are taken out of process.env
 * at start-up, so nothing the host spawns inherits them — the bash tool, `!command`, ripgrep and
 * fd, an extension's exec or its own child_process calls — and only the model registry gets them
 * back. Keys the user had in their own shell environment stay, as in pi.
 */
export const SECRET_ENV_NAMES = "PI_SECRET_ENV";

/** Removes the named secrets (and the list itself) from `env`; returns them. */
export function takeSecretEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  const names = (env[SECRET_ENV_NAMES] ?? "").split(",").map((name) => name.trim()).filter(Boolean);
  delete env[SECRET_ENV_NAMES];
  const secrets: Record<string, string> = {};
  for (const name of names) {
    const value = env[name];
    if (value !== undefined) secrets[name] = value;
    delete env[name];
  }
  return secrets;
}
