/**
 * The ACP SDK, loaded when the first ACP agent starts: dist/acp-sdk.js beside the extension's
 * bundle (esbuild.mjs builds it apart), or the package itself from source. Nothing of ACP is read
 * before an ACP agent is used. A computed name, so esbuild leaves it out of extension.js.
 */
import * as path from "node:path";
import type * as Sdk from "@agentclientprotocol/sdk" with { "resolution-mode": "import" };

/** Set by esbuild in dist/. */
declare const __PI_BUNDLED__: boolean | undefined;

export type AcpSdk = Pick<typeof Sdk, "client" | "ndJsonStream" | "PROTOCOL_VERSION">;

const packageName = "@agentclientprotocol/sdk";
let sdk: Promise<AcpSdk> | undefined;

export function loadAcpSdk(): Promise<AcpSdk> {
  sdk ??= typeof __PI_BUNDLED__ !== "undefined" && __PI_BUNDLED__
    ? Promise.resolve((require as (id: string) => AcpSdk)(path.join(__dirname, "acp-sdk.js")))
    : (import(packageName) as Promise<AcpSdk>);
  return sdk;
}
