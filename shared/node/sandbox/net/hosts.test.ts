import { strict as assert } from "node:assert";
import { isPublicAddress } from "./addresses";
import { canonicalAddress, matches, parseAuthority, parseHostPattern, type HostPattern } from "./hosts";

const pattern = (text: string): HostPattern => {
  const parsed = parseHostPattern(text);
  assert.ok(parsed, `a pattern: ${text}`);
  return parsed;
};

describe("sandbox network: host patterns", () => {
  it("matches an exact host, a *. suffix (subdomains only) and an optional port", () => {
    const target = (text: string) => parseAuthority(text)!;
    assert.ok(matches(pattern("registry.npmjs.org"), target("registry.npmjs.org:443")));
    assert.ok(matches(pattern("registry.npmjs.org"), target("REGISTRY.NPMJS.ORG.:80")), "case and a trailing dot are spellings of the same host");
    assert.ok(!matches(pattern("registry.npmjs.org"), target("registry.npmjs.org.evil.com:443")));
    assert.ok(!matches(pattern("registry.npmjs.org"), target("evilregistry.npmjs.org:443")));
    assert.ok(matches(pattern("*.github.com"), target("api.github.com:443")));
    assert.ok(matches(pattern("*.github.com"), target("a.b.github.com:443")));
    assert.ok(!matches(pattern("*.github.com"), target("github.com:443")), "the suffix pattern is for subdomains");
    assert.ok(!matches(pattern("*.github.com"), target("evilgithub.com:443")));
    assert.ok(matches(pattern("pypi.org:443"), target("pypi.org:443")));
    assert.ok(!matches(pattern("pypi.org:443"), target("pypi.org:80")));
    assert.ok(matches(pattern("127.0.0.1:8080"), target("127.0.0.1:8080")));
    assert.ok(matches(pattern("[::1]:8080"), target("[0:0:0:0:0:0:0:1]:8080")));
  });

  it("puts every spelling of an address in one canonical form, so none slips past a pattern", () => {
    for (const spelling of ["2130706433", "0x7f000001", "0x7f.1", "127.1", "0177.0.0.1", "127.0.0.1"]) {
      assert.deepEqual(parseAuthority(`${spelling}:80`), { host: "127.0.0.1", port: 80 }, spelling);
    }
    assert.deepEqual(parseAuthority("[::ffff:127.0.0.1]:80"), { host: "[::ffff:7f00:1]", port: 80 });
    assert.deepEqual(parseAuthority("exa%6dple.com:443"), { host: "example.com", port: 443 });
    assert.deepEqual(parseAuthority("bücher.de:443"), { host: "xn--bcher-kva.de", port: 443 });
    assert.equal(canonicalAddress("::ffff:7f00:1"), "[::ffff:7f00:1]");
    assert.equal(canonicalAddress("::FFFF:127.0.0.1"), "[::ffff:7f00:1]");
  });

  it("refuses what is not a host: user info, paths, bare IPv6, zone ids, bad ports, wide wildcards", () => {
    for (const bad of ["allowed.com@evil.com:443", "evil.com/allowed.com:443", "evil.com#@allowed.com:443", "evil.com\\@allowed.com:443", "::1:80", "[fe80::1%25eth0]:80", "a.com:0", "a.com:65536", "a.com:80:80", "a.com:-1", "a.com: 80", "a b.com:80", "[::1]x:80", ""]) {
      assert.equal(parseAuthority(bad, 80), undefined, bad);
    }
    for (const bad of ["*", "*.com", "*.127.0.0.1", "*.[::1]", "evil.com/x", "user@host.com", "host.com:http", ""]) {
      assert.equal(parseHostPattern(bad), undefined, bad);
    }
  });
});

describe("sandbox network: which addresses are public", () => {
  it("refuses loopback, private, link-local and every IPv6 form that carries one", () => {
    const closed = [
      "127.0.0.1", "127.255.255.254", "0.0.0.0", "10.1.2.3", "172.16.0.1", "172.31.255.255", "192.168.1.1", "169.254.169.254", "100.64.0.1", "224.0.0.1", "255.255.255.255", "198.18.0.1",
      "::1", "::", "fe80::1", "fc00::1", "fd12:3456::1", "ff02::1", "::ffff:127.0.0.1", "::ffff:7f00:1", "::ffff:10.0.0.1", "::127.0.0.1", "64:ff9b::7f00:1", "2002:7f00:1::1", "2001:0:4136:e378::1", "2001:db8::1",
    ];
    for (const address of closed) assert.equal(isPublicAddress(address), false, address);
    for (const address of ["8.8.8.8", "1.1.1.1", "172.32.0.1", "151.101.1.69", "2606:4700::1111", "2a00:1450:4001::200e"]) assert.equal(isPublicAddress(address), true, address);
    for (const notAnAddress of ["localhost", "2130706433", "", "[::1]"]) assert.equal(isPublicAddress(notAnAddress), false, notAnAddress);
  });
});
