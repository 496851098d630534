import type { TSchema } from "@sinclair/typebox";
import { lenient, namedFrameSchemas } from "./frames";

/**
 * One JSON Schema document for other clients: `$defs.AgentInbound` (what a client may write,
 * checked strictly), `$defs.AgentOutbound` (what an agent may write, read tolerantly) and each
 * frame by name in its exact form.
 */
export function protocolSchemaDocument(version: string): Record<string, unknown> {
  const { inbound, outbound } = namedFrameSchemas();
  const defs: Record<string, TSchema | Record<string, unknown>> = {};
  for (const [name, schema] of Object.entries({ ...inbound, ...outbound })) defs[name] = strip(schema);
  const ref = (name: string) => ({ $ref: `#/$defs/${name}` });
  defs.AgentInbound = { description: "A frame a client writes to the agent's stdin.", anyOf: Object.keys(inbound).map(ref) };
  defs.AgentOutbound = {
    description: "A frame an agent writes to stdout, as clients should read it: nested objects need only their discriminators.",
    anyOf: Object.keys(outbound).map((name) => strip(lenient(outbound[name]))),
  };
  return {
    $schema: "http://json-schema.org/draft-07/schema#",
    $id: "https://pi-agent-vscode/protocol.schema.json",
    title: "Pi RPC protocol (Pi 0.87.1 + seed 001 host tools)",
    version,
    $defs: defs,
  };
}

/** TypeBox schemas carry symbol keys; JSON.stringify drops them, this also drops undefined values. */
function strip(schema: TSchema): Record<string, unknown> {
  return JSON.parse(JSON.stringify(schema)) as Record<string, unknown>;
}
