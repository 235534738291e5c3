/**
 * Parse-error counting (pure over a tree): ERROR nodes + MISSING nodes. Only subtrees that
 * contain an error are visited.
 */
import type { Node, Tree } from 'web-tree-sitter';

export function countErrors(tree: Tree): number {
  return errorRows(tree).length;
}

/** The start row of every ERROR and MISSING node (one entry per node). */
export function errorRows(tree: Tree): number[] {
  const root = tree.rootNode;
  if (!root.hasError) return [];
  const rows: number[] = [];
  const stack: Node[] = [root];
  while (stack.length) {
    const n = stack.pop()!;
    if (n.isMissing) {
      rows.push(n.startPosition.row);
      continue;
    }
    if (n.isError) rows.push(n.startPosition.row);
    // `children` (not nextSibling, which skips zero-width MISSING nodes).
    // (A MISSING node has an error cost, so hasError covers isMissing.)
    for (const k of n.children) {
      if (k && k.hasError) stack.push(k);
    }
  }
  return rows;
}

/** Whether the tree parsed without any ERROR or MISSING node. */
export function isValidTree(tree: Tree): boolean {
  return !tree.rootNode.hasError;
}
