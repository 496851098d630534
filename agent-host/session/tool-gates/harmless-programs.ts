/**
 * Programs that may be allowed "with any arguments" for a session: an allow-list, as Codex's
 * known-safe check keeps one, of programs that only read, print or compute, none of whose options
 * runs another program, writes a file or changes the system (checked against their GNU manuals).
 * A program not named here gets the exact command only: unknown programs, and those with options
 * that run or write, e.g. find (`-exec`, `-delete`, `-fprint`), xargs, env, git (`--output`,
 * `-c`, `grep -O`, aliases, `--exec-path`), rg (`--pre`), sed (`-i`, `e`, `w`), awk, sort (`-o`,
 * `--compress-program`), uniq (an output operand), tee, tar, file (`-C`), xxd (an output
 * operand), tree (`-o`), date (`-s`), diff (`-l` pipes through `pr`), hostname, npm/npx/pnpm/yarn,
 * make, python, node, shells.
 */
export const harmlessPrograms: ReadonlySet<string> = new Set([
  "ls", "cat", "tac", "head", "tail", "wc", "nl", "cut", "tr", "rev", "fold", "fmt", "column", "paste", "join", "comm", "expand", "unexpand",
  "grep", "egrep", "fgrep", "cmp",
  "pwd", "echo", "printf", "seq", "expr", "true", "false", "sleep",
  "stat", "du", "df", "basename", "dirname", "realpath", "readlink", "od", "hexdump", "strings",
  "md5sum", "sha1sum", "sha224sum", "sha256sum", "sha384sum", "sha512sum", "b2sum", "cksum",
  "whoami", "id", "uname", "nproc", "which",
]);
