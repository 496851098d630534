/**
 * A Pi extension (built to dist/pi-gateway.mjs, never part of the VS Code extension's bundle):
 * the editor loads it with `-e` into pi and other Pi-compatible agents it launches. It re-points
 * each provider the editor's model gateway serves at the gateway with pi's
 * `registerProvider("<existing provider>", { baseUrl })`, which keeps the provider's models
 * (pi 0.87.1, docs/custom-provider.md) and wins over models.json's baseUrl. The provider's key
 * variable holds the gateway's token, so pi's own key resolution is unchanged; the key itself
 * stays in the editor. The routes come in $PI_MODEL_GATEWAY (gateway-plan.ts's descriptor), with
 * the providers the gateway serves itself (VS Code's models), registered with their models.
 */
import { GATEWAY_ENV, type GatewayDescriptor } from "./gateway-plan";
import { errorText } from "../../shared/error-text";

/** The part of Pi's ExtensionAPI used here (structural: pi is not a dependency). */
interface PiExtensionApi {
  registerProvider(name: string, config: { baseUrl: string } & Record<string, unknown>): void;
}

export default function piGateway(pi: PiExtensionApi): void {
  const text = process.env[GATEWAY_ENV];
  if (!text) return;
  let descriptor: GatewayDescriptor;
  try {
    descriptor = JSON.parse(text) as GatewayDescriptor;
  } catch {
    process.stderr.write(`pi-gateway: ${GATEWAY_ENV} is not JSON; no provider re-pointed\n`);
    return;
  }
  for (const [name, route] of Object.entries(descriptor.providers ?? {})) {
    if (typeof route?.baseUrl !== "string" || !route.baseUrl.startsWith("http://127.0.0.1:")) continue;
    try {
      pi.registerProvider(name, { baseUrl: route.baseUrl });
    } catch (error) {
      process.stderr.write(`pi-gateway: could not re-point ${name}: ${errorText(error)}\n`);
    }
  }
  // Providers the gateway serves itself (VS Code's models): registered whole, models and all.
  for (const [name, config] of Object.entries(descriptor.custom ?? {})) {
    const baseUrl = config?.baseUrl;
    if (typeof baseUrl !== "string" || !baseUrl.startsWith("http://127.0.0.1:")) continue;
    try {
      pi.registerProvider(name, { ...config, baseUrl });
    } catch (error) {
      process.stderr.write(`pi-gateway: could not register ${name}: ${errorText(error)}\n`);
    }
  }
}
