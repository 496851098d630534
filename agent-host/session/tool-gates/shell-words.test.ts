import { strict as assert } from "node:assert";
import { literalWords } from "./shell-words";

describe("shell words (tree-sitter-bash): one simple command of literal words, or nothing", () => {
  it("gives the words the shell would pass, quotes removed", async () => {
    const cases: [string, string[]][] = [
      ["ls -la", ["ls", "-la"]],
      ["l's' -a", ["ls", "-a"]],
      ["ls 'a b' \"c d\" ''", ["ls", "a b", "c d", ""]],
      ["ls a'b'c\"d\"", ["ls", "abcd"]],
      ["  head\t-n 5  ", ["head", "-n", "5"]],
      ["ls --color=always -- x", ["ls", "--color=always", "--", "x"]],
      ["cat 'é😀' x", ["cat", "é😀", "x"]],
      ["grep -e '$HOME' 'a;b|c'", ["grep", "-e", "$HOME", "a;b|c"]],
    ];
    for (const [command, words] of cases) assert.deepEqual(await literalWords(command), words, command);
  });

  it("refuses anything the shell would expand, substitute, redirect, assign, glob, chain or run elsewhere", async () => {
    const refused = [
      "ls $(x)", "ls `x`", "ls $x", "ls ${x}", "ls \"$x\"", "ls \"`x`\"", "ls \"a\\\"b\"", "ls $((1+1))", "ls $'\\x41'", "ls $\"x\"",
      "ls ~", "ls ~/x", "ls *", "ls a?", "ls [ab]", "ls {a,b}", "ls a\\ b", "\\ls", "ls !x",
      "ls > f", "ls 2>/dev/null", "ls < f", "ls <<EOF\nx\nEOF", "ls <<< x", "ls <(x)", "ls >(x)",
      "X=1 ls", "PATH=. ls", "ls; x", "ls && x", "ls || x", "ls | x", "ls & x", "ls &", "ls\nx", "ls\n", "ls \\\nx",
      "(ls)", "{ ls; }", "if ls; then x; fi", "ls # c", "ls -la\r", "ｌｓ", "ls\u00a0-la", "ls 'unterminated", "function f { ls; }", "",
      "coproc ls", "time ls", "! ls", "[[ -f x ]]", "ls $IFS",
    ];
    for (const command of refused) assert.equal(await literalWords(command), undefined, JSON.stringify(command));
  });

  it("parses a command in well under a millisecond once loaded", async () => {
    await literalWords("ls");
    const started = performance.now();
    for (let i = 0; i < 200; i++) await literalWords(`grep -rn 'TODO ${i}' src --include=*.ts`);
    const perCall = (performance.now() - started) / 200;
    assert.ok(perCall < 5, `${perCall.toFixed(3)} ms a parse`);
  });
});
