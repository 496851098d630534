import hljs from "highlight.js/lib/core";
import bash from "highlight.js/lib/languages/bash";
import c from "highlight.js/lib/languages/c";
import cpp from "highlight.js/lib/languages/cpp";
import csharp from "highlight.js/lib/languages/csharp";
import css from "highlight.js/lib/languages/css";
import diff from "highlight.js/lib/languages/diff";
import go from "highlight.js/lib/languages/go";
import java from "highlight.js/lib/languages/java";
import javascript from "highlight.js/lib/languages/javascript";
import json from "highlight.js/lib/languages/json";
import markdown from "highlight.js/lib/languages/markdown";
import python from "highlight.js/lib/languages/python";
import rust from "highlight.js/lib/languages/rust";
import shell from "highlight.js/lib/languages/shell";
import sql from "highlight.js/lib/languages/sql";
import typescript from "highlight.js/lib/languages/typescript";
import xml from "highlight.js/lib/languages/xml";
import yaml from "highlight.js/lib/languages/yaml";

const languages = { bash, c, cpp, csharp, css, diff, go, java, javascript, json, markdown, python, rust, shell, sql, typescript, xml, yaml };
for (const [name, language] of Object.entries(languages)) hljs.registerLanguage(name, language);

/** Above this size a block is shown without colours (highlighting is not worth the frame). */
const maxHighlighted = 20_000;

/**
 * Highlighted HTML for a fenced code block of a language we know, else undefined. highlight.js
 * escapes the code; its output is sanitized again with the rest of the message.
 */
export function highlight(code: string, language: string): string | undefined {
  const name = language.trim().toLowerCase();
  if (!name || code.length > maxHighlighted || !hljs.getLanguage(name)) return undefined;
  try {
    return hljs.highlight(code, { language: name, ignoreIllegals: true }).value;
  } catch {
    return undefined;
  }
}
