// A helper may name its descriptor through an accessor of the object it is given (`write_all(
// conn_socket(conn), buf, n)`, a client library's `LIBsocket(conn)`): the accessor hands back the
// descriptor the object holds, so two calls given the same object write to the same descriptor, as
// with `conn->fd`. Its callers' descriptor is that accessor of what they pass. Only a call of one
// argument, a parameter the body never changes, whose name reads as an accessor (it ends with a
// descriptor word and says nothing of opening, duplicating or accepting one, see catalogue.ts
// `descriptorAccessor`): `mkstemp(path)` or `open_conn(cfg)` hand back a new descriptor each call.
import type { Node } from 'web-tree-sitter';
import { descriptorAccessor } from '../catalogue';
import type { WrapperTarget } from '../wrapper';
import { callArgs, calleeName, withoutCasts } from './syntax';

/**
 * The descriptor `node` (a helper's write's descriptor argument, casts removed) names when it is an
 * accessor called on one of the helper's parameters (`params`) that the body never assigns
 * (`assigned`): that parameter, through that accessor. Undefined for anything else.
 */
export function accessorTarget(
  node: Node,
  params: readonly (string | undefined)[],
  assigned: ReadonlySet<string>,
): WrapperTarget | undefined {
  if (node.type !== 'call_expression') return undefined;
  const name = calleeName(node);
  if (name === undefined || !descriptorAccessor(name)) return undefined;
  const args = callArgs(node);
  if (args.length !== 1) return undefined;
  const arg = withoutCasts(args[0]!);
  if (arg.type !== 'identifier' || assigned.has(arg.text)) return undefined;
  const param = params.indexOf(arg.text);
  return param < 0 ? undefined : { param, accessor: name };
}

/** The descriptor a call of a helper writing through `accessor` names, given `arg` (its text). */
export function accessedDescriptor(accessor: string, arg: string): string {
  return `${accessor}(${arg.trim()})`;
}
