// A syntax node's type, read from the runtime once per node object. web-tree-sitter answers `type` by
// copying the node into the runtime's memory and asking it for the node's symbol, every time; the
// analyzer's rules ask most nodes' types several times over, and those copies were a visible part of
// reading a function in whole-tree profiles. A node's type never changes: an edit of its tree moves
// it, and a new parse makes new node objects.
import TreeSitter = require('web-tree-sitter');

/** Where a node object keeps its type once read. */
const TYPE = Symbol('type');

interface Remembering {
  [TYPE]?: string;
}

/** Makes every node object of the runtime remember its type (once per thread; later calls do nothing). */
export function rememberNodeTypes(): void {
  const proto = TreeSitter.Node.prototype as object;
  if (remembering) return;
  remembering = true;
  const runtime = Object.getOwnPropertyDescriptor(proto, 'type');
  if (!runtime?.get) return;
  Object.defineProperty(proto, 'type', {
    configurable: true,
    enumerable: false,
    get(this: Remembering): string {
      return (this[TYPE] ??= runtime.get!.call(this) as string);
    },
  });
}

let remembering = false;
