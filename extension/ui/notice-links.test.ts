import * as assert from "node:assert/strict";
import { noticeLinks } from "./notice-links";

/** VS Code's own rule for a link in a notification's message (parseLinkedText in base/common/linkedText.ts). */
const vscodeLink = /\[([^\]]+)\]\(((?:https?:\/\/|command:|file:)[^)\s]+)(?: (["'])(.+?)(\3))?\)/gi;
const linksIn = (text: string) => [...text.matchAll(vscodeLink)].map((m) => ({ label: m[1], target: m[2] }));

describe("noticeLinks (a closable notice's actions as links in its text)", () => {
  it("makes one link per action, running its command with its arguments", () => {
    const text = noticeLinks([{ label: "Show Log", command: "pi.showLog" }, { label: "Open Settings", command: "workbench.action.openSettings", args: ["pi.agent"] }]);
    assert.deepEqual(linksIn(text), [
      { label: "Show Log", target: "command:pi.showLog" },
      { label: "Open Settings", target: `command:workbench.action.openSettings?${encodeURIComponent('["pi.agent"]')}` },
    ]);
  });

  it("keeps a foreign label a label: it can neither end its link early nor make a link of its own", () => {
    for (const label of ["Allow](command:pi.evil)", "x] (command:pi.evil)", "[Fix](command:pi.evil)", "a\n](https://evil.example)", "Allow (this session)"]) {
      const found = linksIn(noticeLinks([{ label, command: "pi.sessions.answerFromNotice", args: ["token", 1] }]));
      assert.equal(found.length, 1, `${JSON.stringify(label)}: ${JSON.stringify(found)}`);
      assert.equal(found[0]!.target, `command:pi.sessions.answerFromNotice?${encodeURIComponent('["token",1]')}`, label);
    }
  });

  it("encodes arguments whole, parentheses and spaces too", () => {
    const [link] = linksIn(noticeLinks([{ label: "Go", command: "pi.x", args: ["a) b", "(c"] }]));
    assert.ok(link, "one link");
    assert.deepEqual(JSON.parse(decodeURIComponent(link.target.slice("command:pi.x?".length))), ["a) b", "(c"]);
  });
});
