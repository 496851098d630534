import { strict as assert } from "node:assert";
import { checkAuthorizationUrl, checkCallbackUrl } from "./mcp-oauth-url";

describe("MCP OAuth URLs", () => {
  it("offers https pages and http ones on this machine only", () => {
    assert.equal(checkAuthorizationUrl("https://auth.example/authorize?x=1").host, "auth.example");
    assert.equal(checkAuthorizationUrl("http://127.0.0.1:9/authorize").port, "9");
    for (const bad of ["javascript:alert(1)", "file:///etc/passwd", "command:workbench.action.terminal.new", "vscode://x/y", "http://auth.example/a", "https://u:p@auth.example/", "https://auth.example/\u202Eevil", `https://a.example/?${"x".repeat(9000)}`, "https://a.example/\nb", "not a url"]) {
      assert.throws(() => checkAuthorizationUrl(bad), /refused/, bad.slice(0, 40));
    }
  });

  it("a callbackUrl must be http on a loopback host", () => {
    assert.equal(checkCallbackUrl("http://localhost/cb").pathname, "/cb");
    assert.equal(checkCallbackUrl("http://[::1]:8080/callback").port, "8080");
    for (const bad of ["https://127.0.0.1/callback", "http://127.0.0.1.attacker.example/callback", "http://10.0.0.1/callback"]) assert.throws(() => checkCallbackUrl(bad), /must use http/);
  });
});
