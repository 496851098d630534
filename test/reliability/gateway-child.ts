// A key gateway (AgentGateway, as the extension starts it) in a process of its own, so that a test
// can give it a throwaway CA through NODE_EXTRA_CA_CERTS. Its configuration (the stored keys, the
// agent's environment, VS Code's proxy) comes as one JSON line on stdin, so no key is in an
// argument list; it answers with one JSON line ({ roots: each provider's root at the gateway, token }) and serves until it is killed.
import { AgentGateway, type EditorProxy } from "../../extension/gateway/agent-gateway";

interface ChildConfig {
  keys: Record<string, string>;
  agentEnv: Record<string, string>;
  editorProxy?: EditorProxy;
}

let input = "";
process.stdin.on("data", (chunk: Buffer) => {
  input += chunk.toString();
  const newline = input.indexOf("\n");
  if (newline < 0) return;
  process.stdin.pause();
  const config = JSON.parse(input.slice(0, newline)) as ChildConfig;
  void AgentGateway.start({ variables: Object.keys(config.keys), key: async (v) => config.keys[v], allowsOrigin: async () => true }, config.agentEnv, config.editorProxy).then(
    (gateway) => {
      const descriptor = JSON.parse(gateway.env.PI_MODEL_GATEWAY ?? "{}") as { providers?: Record<string, { gateway: string }> };
      const roots = Object.fromEntries(Object.entries(descriptor.providers ?? {}).map(([name, p]) => [name, p.gateway]));
      const token = Object.entries(gateway.env).find(([name]) => name !== "PI_MODEL_GATEWAY")?.[1];
      process.stdout.write(`${JSON.stringify({ roots, token })}\n`);
    },
    (error: unknown) => {
      process.stdout.write(`${JSON.stringify({ error: String(error) })}\n`);
      process.exit(1);
    },
  );
});
