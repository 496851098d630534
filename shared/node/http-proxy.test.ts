import * as assert from "node:assert/strict";
import { proxyFor, withHttpProxy } from "./http-proxy";

describe("proxyFor (HTTP(S)_PROXY, NO_PROXY)", () => {
  const target = (url: string) => new URL(url);
  it("picks the variable for the scheme, lower case first, and adds http:// to a bare host", () => {
    assert.equal(proxyFor(target("https://api.x.com/v1"), { HTTPS_PROXY: "http://up:1", https_proxy: "http://low:2" })?.host, "low:2");
    assert.equal(proxyFor(target("http://api.x.com/v1"), { HTTP_PROXY: "proxy.corp:3128" })?.href, "http://proxy.corp:3128/");
    assert.equal(proxyFor(target("http://api.x.com/v1"), { HTTPS_PROXY: "http://p:1" }), undefined);
  });

  it("NO_PROXY: a name with its subdomains, a leading dot or *., a port, or * for all", () => {
    const env = (noProxy: string) => ({ HTTPS_PROXY: "http://p:1", NO_PROXY: noProxy });
    assert.equal(proxyFor(target("https://api.x.com"), env("x.com")), undefined);
    assert.equal(proxyFor(target("https://api.x.com"), env(".x.com")), undefined);
    assert.equal(proxyFor(target("https://api.x.com"), env("*.x.com")), undefined);
    assert.ok(proxyFor(target("https://notx.com"), env("x.com")), "a suffix of the name is not a subdomain");
    assert.equal(proxyFor(target("https://api.x.com"), env("api.x.com:443")), undefined);
    assert.ok(proxyFor(target("https://api.x.com:8443"), env("api.x.com:443")));
    assert.equal(proxyFor(target("https://[::1]:9/"), env("::1")), undefined);
    assert.equal(proxyFor(target("https://anything"), env("a.b, *")), undefined);
  });

  it("settings.json's httpProxy stands for HTTP_PROXY and HTTPS_PROXY, without changing the environment given", () => {
    const env = { HTTPS_PROXY: "http://env:1", NO_PROXY: "internal.x" };
    const merged = withHttpProxy(env, "http://settings:2");
    assert.equal(proxyFor(new URL("https://api.x.com"), merged)?.host, "settings:2");
    assert.equal(proxyFor(new URL("http://api.x.com"), merged)?.host, "settings:2");
    assert.equal(proxyFor(new URL("https://internal.x"), merged), undefined);
    assert.equal(env.HTTPS_PROXY, "http://env:1");
    assert.equal(withHttpProxy(env, undefined), env);
  });

  it("never proxies a loopback target (the editor's key gateway at http://127.0.0.1 among them), whatever the variables say", () => {
    const env = { HTTP_PROXY: "http://proxy.corp:3128", HTTPS_PROXY: "http://proxy.corp:3128" };
    for (const url of ["http://127.0.0.1:5555/openai/v1", "http://127.9.8.7/", "http://localhost:1/", "https://api.localhost/", "http://[::1]:2/", "http://[::ffff:127.0.0.1]:3/"]) {
      assert.equal(proxyFor(new URL(url), env), undefined, url);
    }
    for (const url of ["http://128.0.0.1/", "http://127.0.0.1.example.com/", "http://localhost.example.com/", "http://10.0.0.1/", "http://[::2]/"]) {
      assert.ok(proxyFor(new URL(url), env), url);
    }
  });
});
