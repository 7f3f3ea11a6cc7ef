// The C grammar's two wasm modules (web-tree-sitter's runtime and tree-sitter-c), found and compiled
// once per thread, or adopted from the thread that compiled them. Kept apart from the parser so that
// a thread that only starts workers compiles the grammar without loading web-tree-sitter.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

// Node has WebAssembly, but the ES2022 library (no DOM) has no types for it: the little used here.
declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace WebAssembly {
    class Module {
      constructor(bytes: Uint8Array);
    }
    class Instance {
      constructor(module: Module, imports: Imports);
    }
    type Imports = Record<string, Record<string, unknown>>;
  }
}

/**
 * The grammar's wasm modules, compiled. A compiled `WebAssembly.Module` posted to a worker thread
 * (in `workerData` or a message) shares its machine code: the functions any thread compiled on first
 * call, or optimized, are there for all of them instead of being compiled again by each.
 */
export interface CGrammar {
  readonly runtime: WebAssembly.Module;
  readonly language: WebAssembly.Module;
}

let grammar: CGrammar | undefined;

/** Finds a wasm file beside the running script (the dist/ bundle) or in its npm package. */
export function locateWasm(file: string, packagePath: string): string {
  const beside = join(__dirname, file);
  return existsSync(beside) ? beside : require.resolve(packagePath);
}

/**
 * This thread's compiled grammar: on the first call `given` (compiled by another thread) or, without
 * it, compiled here; every later call returns that same one. Compiling takes milliseconds: V8
 * compiles each function when first called, which is the cost worth sharing.
 */
export function cGrammar(given?: CGrammar): CGrammar {
  grammar ??= given ?? {
    runtime: new WebAssembly.Module(
      readFileSync(locateWasm('web-tree-sitter.wasm', 'web-tree-sitter/web-tree-sitter.wasm')),
    ),
    language: new WebAssembly.Module(
      readFileSync(locateWasm('tree-sitter-c.wasm', 'tree-sitter-c/tree-sitter-c.wasm')),
    ),
  };
  return grammar;
}
