// Answers "the nodes of these kinds inside this statement" for every statement of a function from one
// search of its body. Each `descendantsOfType` call crosses the parser's wasm boundary and first
// matches the kinds against every symbol of the grammar (363 for C) in JavaScript: a fixed cost per
// call that the per-statement searches of the statement summaries paid thousands of times on a large
// tree, most of them on statements with one or two matches.
import type { Node } from 'web-tree-sitter';

/** The nodes of some kinds under one root, found once, in document order. */
export class SubtreeIndex {
  private nodes: Node[] | undefined;
  private starts: number[] = [];

  /** Searches `root` (which it does not modify) on the first question. */
  constructor(
    private readonly root: Node,
    private readonly kinds: string[],
  ) {}

  /**
   * What `node.descendantsOfType(kinds)` returns (node itself included), in the same order, for a
   * node under the root. A node with errors is searched directly: error recovery may nest nodes in
   * ways their ranges do not show.
   */
  within(node: Node): Node[] {
    if (node.hasError) return node.descendantsOfType(this.kinds).filter((n): n is Node => n !== null);
    if (!this.nodes) {
      this.nodes = this.root.descendantsOfType(this.kinds).filter((n): n is Node => n !== null);
      this.starts = this.nodes.map((n) => n.startIndex);
    }
    const start = node.startIndex;
    const end = node.endIndex;
    // Document order is preorder: starts never decrease, and a node's descendants follow it.
    let lo = 0;
    for (let hi = this.starts.length; lo < hi;) {
      const mid = (lo + hi) >> 1;
      if (this.starts[mid]! < start) lo = mid + 1;
      else hi = mid;
    }
    const found: Node[] = [];
    for (let i = lo; i < this.nodes.length && this.starts[i]! < end; i++) {
      const n = this.nodes[i]!;
      // An enclosing node that starts where `node` does ends after it.
      if (n.endIndex <= end) found.push(n);
    }
    return found;
  }
}
