// Resolves what a name in a TS/JS file refers to from its import or require, not from its spelling:
// `import * as fs from 'node:fs'`, `const { writeSync } = require('fs')`,
// `import { writevInFull as wv } from '@writev/runtime'`. Also notes which variables hold a FileHandle
// or a Writable stream, from how they were created or declared.
import * as ts from 'typescript';
import {
  TS_FILE_HANDLE_FACTORIES,
  TS_FILE_HANDLE_TYPES,
  TS_MODULES,
  TS_STREAM_FACTORIES,
  TS_STREAM_MEMBERS,
  TS_STREAM_TYPE_MODULES,
  TS_STREAM_TYPES,
} from '../catalogue';

/** What a local name is bound to: a module namespace (`name` absent) or one export of a module. */
export interface Binding {
  /** The module: normalised (`fs`, `runtime`) for known ones, the specifier as written otherwise. */
  readonly module: string;
  readonly name?: string;
}

/** The names of one file and what they refer to. */
export interface Bindings {
  readonly imports: ReadonlyMap<string, Binding>;
  /** Variables and parameters known to hold a FileHandle or a Writable stream. */
  readonly kinds: ReadonlyMap<string, 'handle' | 'stream'>;
  /** Variables and parameters declared (or initialised) as a string or as bytes, where unambiguous. */
  readonly types: ReadonlyMap<string, 'string' | 'bytes'>;
  /** The named-import declaration from the runtime, if any (a fix adds names to it). */
  readonly runtimeImport?: ts.ImportDeclaration;
  /** Where a new import goes: after the last import or require at the top, or at the start. */
  readonly importAt: number;
  /** The file uses `require` rather than `import` for its modules. */
  readonly commonJs: boolean;
  /** Names of the types (interfaces, classes, aliases, enums) the file declares itself. */
  readonly localTypes: ReadonlySet<string>;
}

function moduleName(specifier: string): string {
  return TS_MODULES[specifier] ?? specifier;
}

function requireOf(node: ts.Expression | undefined): string | undefined {
  if (
    node &&
    ts.isCallExpression(node) &&
    ts.isIdentifier(node.expression) &&
    node.expression.text === 'require' &&
    node.arguments.length === 1 &&
    ts.isStringLiteral(node.arguments[0]!)
  ) {
    return node.arguments[0].text;
  }
  return undefined;
}

/** The qualified name a callee expression resolves to (`fs.writeSync`), or its text when unknown. */
export function qualify(expr: ts.Expression, bindings: Bindings): string {
  if (ts.isIdentifier(expr)) {
    const b = bindings.imports.get(expr.text);
    return b ? (b.name ? `${b.module}.${b.name}` : b.module) : expr.text;
  }
  if (ts.isPropertyAccessExpression(expr)) return `${qualify(expr.expression, bindings)}.${expr.name.text}`;
  if (ts.isParenthesizedExpression(expr)) return qualify(expr.expression, bindings);
  return expr.getText();
}

function bindImport(decl: ts.ImportDeclaration, imports: Map<string, Binding>): void {
  if (!ts.isStringLiteral(decl.moduleSpecifier) || !decl.importClause) return;
  const module = moduleName(decl.moduleSpecifier.text);
  const clause = decl.importClause;
  if (clause.name) imports.set(clause.name.text, { module });
  const named = clause.namedBindings;
  if (named && ts.isNamespaceImport(named)) imports.set(named.name.text, { module });
  if (named && ts.isNamedImports(named)) {
    for (const el of named.elements) {
      const exported = (el.propertyName ?? el.name).text;
      // `import { promises as fsp } from 'fs'` is the promises namespace.
      if (module === 'fs' && exported === 'promises') imports.set(el.name.text, { module: 'fs/promises' });
      else imports.set(el.name.text, { module, name: exported });
    }
  }
}

function bindRequire(decl: ts.VariableDeclaration, imports: Map<string, Binding>): boolean {
  const specifier = requireOf(decl.initializer);
  if (specifier === undefined) return false;
  const module = moduleName(specifier);
  if (ts.isIdentifier(decl.name)) imports.set(decl.name.text, { module });
  else if (ts.isObjectBindingPattern(decl.name)) {
    for (const el of decl.name.elements) {
      if (!ts.isIdentifier(el.name)) continue;
      const exported =
        el.propertyName && ts.isIdentifier(el.propertyName) ? el.propertyName.text : el.name.text;
      imports.set(el.name.text, { module, name: exported });
    }
  }
  return true;
}

/**
 * The Node type a type annotation names (`Writable`, `net.Socket`, `http.ServerResponse`), when it is
 * one of the stream types or types with stream members and comes from a Node module: a `Socket`
 * imported from 'dgram' or from a WebSocket library, or declared in the file, is not a byte stream.
 * A name neither imported nor declared here is taken as the ambient Node type.
 */
export function nodeTypeName(
  type: ts.TypeNode | undefined,
  bindings: Pick<Bindings, 'imports' | 'localTypes'>,
): string | undefined {
  if (!type || !ts.isTypeReferenceNode(type)) return undefined;
  const full = type.typeName.getText();
  if (full === 'NodeJS.WritableStream') return full;
  const local = ts.isIdentifier(type.typeName) ? type.typeName : undefined;
  // `import { Socket as NetSocket } from 'net'`: the name the module exports.
  const imported = local ? bindings.imports.get(local.text) : undefined;
  const name = local ? (imported?.name ?? local.text) : (type.typeName as ts.QualifiedName).right.text;
  if (!TS_STREAM_TYPES.has(name) && !(name in TS_STREAM_MEMBERS)) return undefined;
  const qualifier = ts.isQualifiedName(type.typeName) ? type.typeName.left : undefined;
  if (qualifier) {
    // The global namespace of Node's types (`NodeJS.WriteStream`, process.stdout's type).
    if (ts.isIdentifier(qualifier) && qualifier.text === 'NodeJS' && !bindings.imports.has('NodeJS'))
      return name;
    if (!ts.isIdentifier(qualifier)) return undefined;
    const b = bindings.imports.get(qualifier.text);
    return b && !b.name && TS_STREAM_TYPE_MODULES.has(b.module) ? name : undefined;
  }
  if (imported) return TS_STREAM_TYPE_MODULES.has(imported.module) ? name : undefined;
  return bindings.localTypes.has(name) ? undefined : name;
}

/** `handle` or `stream` for a type annotation that names a FileHandle or a Node stream. */
export function kindOfType(
  type: ts.TypeNode | undefined,
  bindings: Pick<Bindings, 'imports' | 'localTypes'>,
): 'handle' | 'stream' | undefined {
  const text = type?.getText().replace(/^.*\./, '');
  if (!text) return undefined;
  if (TS_FILE_HANDLE_TYPES.has(text)) return 'handle';
  const name = nodeTypeName(type, bindings);
  return name && (TS_STREAM_TYPES.has(name) || name === 'NodeJS.WritableStream') ? 'stream' : undefined;
}

function kindOfInit(init: ts.Expression | undefined, partial: Bindings): 'handle' | 'stream' | undefined {
  let at = init;
  if (at && ts.isAwaitExpression(at)) {
    const call = at.expression;
    if (ts.isCallExpression(call) && TS_FILE_HANDLE_FACTORIES.has(qualify(call.expression, partial)))
      return 'handle';
    return undefined;
  }
  if (at && (ts.isCallExpression(at) || ts.isNewExpression(at))) {
    at = at.expression;
    return TS_STREAM_FACTORIES.has(qualify(at, partial)) ? 'stream' : undefined;
  }
  return undefined;
}

function typeOf(
  type: ts.TypeNode | undefined,
  init: ts.Expression | undefined,
  partial: Bindings,
): 'string' | 'bytes' | undefined {
  const text = type?.getText();
  if (text === 'string') return 'string';
  if (text === 'Buffer' || text === 'Uint8Array') return 'bytes';
  if (type || !init) return undefined;
  if (ts.isStringLiteral(init) || ts.isTemplateExpression(init) || ts.isNoSubstitutionTemplateLiteral(init))
    return 'string';
  if (
    ts.isCallExpression(init) &&
    /^Buffer\.(from|alloc|allocUnsafe|concat)$/.test(qualify(init.expression, partial))
  ) {
    return 'bytes';
  }
  return undefined;
}

/** Reads the imports, requires and handle/stream variables of a source file. */
export function readBindings(file: ts.SourceFile): Bindings {
  const imports = new Map<string, Binding>();
  let runtimeImport: ts.ImportDeclaration | undefined;
  let importAt = 0;
  let commonJs = false;
  let sawImport = false;
  for (const stmt of file.statements) {
    if (ts.isImportDeclaration(stmt)) {
      bindImport(stmt, imports);
      sawImport = true;
      importAt = stmt.end;
      const named = stmt.importClause?.namedBindings;
      if (
        ts.isStringLiteral(stmt.moduleSpecifier) &&
        moduleName(stmt.moduleSpecifier.text) === 'runtime' &&
        named &&
        ts.isNamedImports(named)
      ) {
        runtimeImport = stmt;
      }
    } else if (ts.isVariableStatement(stmt)) {
      let required = false;
      for (const decl of stmt.declarationList.declarations) required = bindRequire(decl, imports) || required;
      if (required) {
        commonJs = !sawImport;
        importAt = stmt.end;
      }
    }
  }
  const localTypes = new Set<string>();
  const declared = (node: ts.Node): void => {
    if (
      (ts.isInterfaceDeclaration(node) ||
        ts.isClassDeclaration(node) ||
        ts.isTypeAliasDeclaration(node) ||
        ts.isEnumDeclaration(node)) &&
      node.name
    )
      localTypes.add(node.name.text);
    ts.forEachChild(node, declared);
  };
  declared(file);
  const partial: Bindings = {
    imports,
    kinds: new Map(),
    types: new Map(),
    importAt,
    commonJs,
    localTypes,
  };
  const kinds = new Map<string, 'handle' | 'stream'>();
  const types = new Map<string, 'string' | 'bytes'>();
  const ambiguous = new Set<string>();
  const visit = (node: ts.Node): void => {
    if ((ts.isVariableDeclaration(node) || ts.isParameter(node)) && ts.isIdentifier(node.name)) {
      const name = node.name.text;
      const kind = kindOfType(node.type, partial) ?? kindOfInit(node.initializer, partial);
      if (kind) kinds.set(name, kind);
      const type = typeOf(node.type, node.initializer, partial);
      if (types.has(name) && types.get(name) !== type) ambiguous.add(name);
      if (type) types.set(name, type);
      else ambiguous.add(name);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  for (const name of ambiguous) types.delete(name);
  return { imports, kinds, types, runtimeImport, importAt, commonJs, localTypes };
}
