/**
 * The words of a bash command, from a real parse (tree-sitter-bash, the grammar Codex and Claude
 * Code parse commands with), for permission allowances: a command counts only when it is ONE
 * simple command of literal words. Anything the shell would expand, substitute, redirect, assign,
 * glob, chain or run elsewhere (`$x`, `$(…)`, backticks, `~`, `*`, `{a,b}`, `>`, `<<`, `X=1 cmd`,
 * `;`, `&&`, `|`, `&`, newlines, `( )`, `{ }`, `<(…)`, `$'…'`, comments, backslashes) makes it
 * not literal, and so it is never covered by more than its exact text.
 *
 * The parser (web-tree-sitter's runtime and the bash grammar, two .wasm files) loads on the first
 * question about a bash call, never at the host's start; in dist/ both files sit in
 * dist/tree-sitter/ (esbuild.mjs) and web-tree-sitter's JS is a bundle of its own.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Node as SyntaxNode, Parser as TreeSitterParser } from "web-tree-sitter";

/** Set by esbuild in dist/: the .wasm files are then in dist/tree-sitter/. */
declare const __PI_BUNDLED__: boolean | undefined;
const bundled = typeof __PI_BUNDLED__ !== "undefined" && __PI_BUNDLED__;

const wasmFile = (name: "web-tree-sitter.wasm" | "tree-sitter-bash.wasm"): string =>
  bundled ? join(__dirname, "tree-sitter", name) : require.resolve(name === "web-tree-sitter.wasm" ? "web-tree-sitter/web-tree-sitter.wasm" : "tree-sitter-bash/tree-sitter-bash.wasm");

let parser: Promise<TreeSitterParser> | undefined;

/** The bash parser, made once; a failed load is tried again at the next question. */
function bashParser(): Promise<TreeSitterParser> {
  parser ??= (async () => {
    const { Parser, Language } = require("web-tree-sitter") as typeof import("web-tree-sitter");
    await Parser.init({ wasmBinary: readFileSync(wasmFile("web-tree-sitter.wasm")) });
    const bash = await Language.load(readFileSync(wasmFile("tree-sitter-bash.wasm")));
    return new Parser().setLanguage(bash);
  })();
  parser.catch(() => (parser = undefined)); // the awaiting question gets the error; the next one loads again
  return parser;
}

/** Unquoted word characters the shell takes literally in any position (no glob, tilde, brace, comment, escape or history). */
const literalUnquoted = /^[A-Za-z0-9_\-./:=,+@%]+$/;
/** Inside double quotes, only `$`, backticks and backslashes are special (`!` is history, off in scripts, but refused too). */
const specialInDoubleQuotes = /[$`\\!]/;
/** Bash's reserved words: in a command's first place they are syntax (`coproc ls`, `time ls`), whatever the grammar made of them. */
const reservedWords: ReadonlySet<string> = new Set(["!", "case", "coproc", "do", "done", "elif", "else", "esac", "fi", "for", "function", "if", "in", "select", "then", "time", "until", "while", "{", "}", "[[", "]]"]);
/** What may separate the words of a simple command. */
const blanks = /^[ \t]*$/;

/**
 * The argv of `command` when it is one simple command of literal words (quotes removed, as the
 * shell would); undefined for anything else, including a command the parser cannot read or a
 * parser that failed to load (the caller then offers the exact command only).
 */
export async function literalWords(command: string): Promise<string[] | undefined> {
  let bash: TreeSitterParser;
  try {
    bash = await bashParser();
  } catch {
    return undefined;
  }
  const tree = bash.parse(command);
  if (!tree) return undefined;
  try {
    return simpleCommandWords(tree.rootNode, command);
  } finally {
    tree.delete();
  }
}

function simpleCommandWords(root: SyntaxNode, source: string): string[] | undefined {
  if (root.hasError || root.type !== "program" || root.childCount !== 1) return undefined;
  const command = root.child(0);
  if (command?.type !== "command") return undefined;
  if (!blanks.test(source.slice(0, command.startIndex)) || !blanks.test(source.slice(command.endIndex))) return undefined;
  const words: string[] = [];
  let end = command.startIndex;
  for (const [i, child] of command.children.entries()) {
    if (!child || !blanks.test(source.slice(end, child.startIndex)) || (i > 0 && child.startIndex === end)) return undefined;
    end = child.endIndex;
    const node = child.type === "command_name" && child.childCount === 1 ? child.child(0) : i === 0 ? undefined : child;
    const word = node ? literalWord(node) : undefined;
    if (word === undefined) return undefined;
    words.push(word);
  }
  return words.length > 0 && !reservedWords.has(words[0]!) ? words : undefined;
}

/** The text a word stands for, when it is literal: plain characters, '…', "…" without specials, or these side by side. */
function literalWord(node: SyntaxNode): string | undefined {
  switch (node.type) {
    case "word":
    case "number":
      return literalUnquoted.test(node.text) ? node.text : undefined;
    case "raw_string":
      return node.text.length >= 2 && node.text.startsWith("'") && node.text.endsWith("'") ? node.text.slice(1, -1) : undefined;
    case "string": {
      const inner = node.text.slice(1, -1);
      const plain = node.text.length >= 2 && node.text.startsWith('"') && node.text.endsWith('"') && node.children.every((c) => c?.type === '"' || c?.type === "string_content");
      return plain && !specialInDoubleQuotes.test(inner) ? inner : undefined;
    }
    case "concatenation": {
      let text = "";
      let end = node.startIndex;
      for (const part of node.children) {
        const word = part && part.startIndex === end ? literalWord(part) : undefined;
        if (word === undefined || !part) return undefined;
        text += word;
        end = part.endIndex;
      }
      return end === node.endIndex ? text : undefined;
    }
    default:
      return undefined;
  }
}
