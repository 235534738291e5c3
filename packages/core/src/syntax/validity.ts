/**
 * Parse-error counting (pure over a tree): ERROR nodes + MISSING nodes. Only subtrees that
 * contain an error are visited.
 */
import type { Node, Tree } from 'web-tree-sitter';

export function countErrors(tree: Tree): number {
  const root = tree.rootNode;
  if (!root.hasError) return 0;
  let count = 0;
  const stack: Node[] = [root];
  while (stack.length) {
    const n = stack.pop()!;
    if (n.isMissing) { count++; continue; }
    if (n.isError) count++;
    // `children` (not nextSibling, which skips zero-width MISSING nodes).
    for (const k of n.children) {
      if (k && (k.hasError || k.isMissing)) stack.push(k);
    }
  }
  return count;
}

/** Whether the tree parsed without any ERROR or MISSING node. */
export function isValidTree(tree: Tree): boolean {
  return !tree.rootNode.hasError;
}
