// A syntax node's descendants of some types, searched for once per node. The rules ask the same
// node (a function, its body, a loop) for its declarations, its calls and its assignments, each rule
// for itself: web-tree-sitter answers every `descendantsOfType` by walking the node's whole subtree
// in the runtime, and those walks of the same large functions over and over were a large part of a
// whole tree's time in its profile (most of it on nodes already walked for other types). A node's
// descendants never change while its tree lives unedited: an edit of the tree forgets them, and a
// new parse makes a new tree.
import TreeSitter = require('web-tree-sitter');
import type { Node, Point, Tree } from 'web-tree-sitter';

/** One node's search: the types searched for so far, and what the search found, in document order. */
interface Searched {
  readonly kinds: ReadonlySet<string>;
  readonly nodes: readonly (Node | null)[];
}

/** The searches of each live tree, by node id (unique within a tree). */
const searches = new WeakMap<Tree, Map<number, Searched>>();

type DescendantsOfType = (
  this: Node,
  types: string | string[],
  start?: Point,
  end?: Point,
) => (Node | null)[];

/**
 * Makes every node object of the runtime answer `descendantsOfType` from a search of its subtree made
 * once (once per thread; later calls do nothing). The answer is the runtime's: a search for more types
 * finds, in the same document order, every node the search for fewer finds, so the nodes of the types
 * asked are those of a search for them all, filtered by type. A search bounded by positions is the
 * runtime's own. Each answer is a new array (callers may change it); the node objects in it are shared.
 */
export function rememberDescendants(): void {
  if (remembering) return;
  remembering = true;
  const nodes = TreeSitter.Node.prototype as unknown as { descendantsOfType: DescendantsOfType };
  const search = nodes.descendantsOfType;
  nodes.descendantsOfType = function (this: Node, types, start, end) {
    if (start !== undefined || end !== undefined) return search.call(this, types, start, end);
    const kinds = Array.isArray(types) ? types : [types];
    let byId = searches.get(this.tree);
    if (!byId) {
      byId = new Map();
      searches.set(this.tree, byId);
    }
    let searched = byId.get(this.id);
    if (!searched || !kinds.every((k) => searched!.kinds.has(k))) {
      // Every type any node was asked for so far: the rules ask a few types of every function, and a
      // walk of the subtree costs much more than the few nodes more it finds, so one walk of a node
      // then answers the questions that follow, whichever rule asks first.
      for (const k of kinds) asked.add(k);
      const all = new Set(asked);
      searched = { kinds: all, nodes: search.call(this, typeList(all)) };
      byId.set(this.id, searched);
    }
    return searched.nodes.filter((n) => n === null || kinds.includes(n.type));
  };
  // An edited tree's nodes move: what was found in it is forgotten.
  const trees = TreeSitter.Tree.prototype as unknown as { edit: (this: Tree, edit: unknown) => void };
  const edit = trees.edit;
  trees.edit = function (this: Tree, change) {
    searches.delete(this);
    edit.call(this, change);
  };
}

let remembering = false;

/**
 * `kinds` as the runtime's search takes them: an array, whose `includes` the runtime asks of every
 * symbol of the grammar (hundreds) to find the symbols to search for. Here it looks in the set: the
 * array's own scan of a few dozen types per symbol, for every node searched, was a visible part of a
 * whole tree's time in its profile.
 */
function typeList(kinds: ReadonlySet<string>): string[] {
  const list = [...kinds];
  list.includes = (kind: string) => kinds.has(kind);
  return list;
}

/** The types asked for so far, of any node (a few dozen: the rules' own constants). */
const asked = new Set<string>();
