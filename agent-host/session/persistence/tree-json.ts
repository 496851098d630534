import type { TreeNode } from "./session-manager";

/**
 * The JSON of a session tree, exactly as JSON.stringify writes it, built without recursion: each
 * entry is stringified on its own (shallow, V8's fast path) and the nesting is written by hand. A
 * branch a thousand entries deep is several times slower through JSON.stringify, and a long
 * linear session overflows its stack.
 */
export function encodeTree(roots: readonly TreeNode[]): string {
  const out: string[] = ["["];
  const stack: { nodes: readonly TreeNode[]; next: number; owner?: TreeNode }[] = [{ nodes: roots, next: 0 }];
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    if (top.next === top.nodes.length) {
      stack.pop();
      out.push("]");
      if (top.owner) out.push(labelFields(top.owner), "}");
      continue;
    }
    const node = top.nodes[top.next++]!;
    if (top.next > 1) out.push(",");
    out.push('{"entry":', JSON.stringify(node.entry), ',"children":[');
    stack.push({ nodes: node.children, next: 0, owner: node });
  }
  return out.join("");
}

/** The keys TreeNode has after `children`, when set. */
function labelFields(node: TreeNode): string {
  let text = "";
  if (node.label !== undefined) text += `,"label":${JSON.stringify(node.label)}`;
  if (node.labelTimestamp !== undefined) text += `,"labelTimestamp":${JSON.stringify(node.labelTimestamp)}`;
  return text;
}
