import { strict as assert } from "node:assert";
import { mountList } from "./mount-order";

describe("sandbox: the order of the mounts (mount-order.ts)", () => {
  // d10b91f: the read-only `.pi` bound after the rebuilt ~/.pi/agent showed the live folder.
  it("mounts shallower paths first, in the order given at one depth, the read-only remounts last", () => {
    const m = mountList();
    m.mount("/h/.pi/agent", "--tmpfs", "/h/.pi/agent");
    m.remountReadOnly("/h/.pi/agent");
    m.mount("/h", "--tmpfs", "/h");
    m.mount("/h/.pi", "--bind-try", "/h/.pi", "/h/.pi");
    m.mount("/h/.pi", "--ro-bind", "/h/.pi", "/h/.pi");
    assert.deepEqual(m.args(), ["--tmpfs", "/h", "--bind-try", "/h/.pi", "/h/.pi", "--ro-bind", "/h/.pi", "/h/.pi", "--tmpfs", "/h/.pi/agent", "--remount-ro", "/h/.pi/agent"]);
  });

  it("binds read-only what lies at or below a path kept read-only, but a writable root", () => {
    const m = mountList();
    m.keepReadOnly("/h/.pi");
    m.mount("/h/.pi", "--bind-try", "/h/.pi", "/h/.pi");
    m.mount("/h/.pi/agent/x", "--bind", "/h/.pi/agent/x", "/h/.pi/agent/x");
    m.root("/h/.pi/agent/sessions");
    assert.deepEqual(m.args(), ["--ro-bind-try", "/h/.pi", "/h/.pi", "--ro-bind", "/h/.pi/agent/x", "/h/.pi/agent/x", "--bind", "/h/.pi/agent/sessions", "/h/.pi/agent/sessions"]);
  });

  it("mounts nothing below a hidden secret but a writable root there and what lies in it", () => {
    const m = mountList();
    m.hideSecret("/h/.password-store");
    m.mount("/h/.password-store", "--tmpfs", "/h/.password-store");
    m.mount("/h/.password-store/.git", "--ro-bind", "/h/.password-store/.git", "/h/.password-store/.git");
    m.hideSecret("/h/.config/Code/User/globalStorage");
    m.mount("/h/.config/Code/User/globalStorage", "--tmpfs", "/h/.config/Code/User/globalStorage");
    m.root("/h/.config/Code/User/globalStorage/pi");
    m.mount("/h/.config/Code/User/globalStorage/pi/.git", "--ro-bind", "/h/.config/Code/User/globalStorage/pi/.git", "/h/.config/Code/User/globalStorage/pi/.git");
    const args = m.args();
    assert.ok(!args.includes("/h/.password-store/.git"), args.join(" "));
    assert.ok(args.includes("/h/.config/Code/User/globalStorage/pi") && args.includes("/h/.config/Code/User/globalStorage/pi/.git"), args.join(" "));
  });
});
