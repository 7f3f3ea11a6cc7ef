/**
 * Partial clone on the server side: whether `filter` is offered (`uploadpack.allowFilter`), which
 * filters are allowed (`uploadpackfilter.allow`, `uploadpackfilter.<filter>.allow`,
 * `uploadpackfilter.tree.maxDepth`, as git-config(1) documents them), the one `filter` line a
 * request may carry, and what `git pack-objects` is then given.
 *
 * Refusals use git's words: a disallowed filter is an `ERR` the client sees (`filter 'tree' not
 * supported`), a malformed or unnegotiated one ends the serve as git's die() does.
 */
import { UploadPackError } from './errors';
import {
  canonicalFilter,
  parseFilterSpec,
  parseUnsigned,
  sparseExpressions,
  type FilterSpec,
} from './filterSpec';
import type { ServeConfig } from './serveConfig';

/** The filter kinds `uploadpackfilter.<kind>.allow` names. */
const KINDS = ['blob:none', 'blob:limit', 'object:type', 'tree', 'sparse:oid', 'combine'] as const;

/** Which filters a repository serves. */
export interface FilterPolicy {
  /** `uploadpack.allowFilter`: the `filter` capability is advertised and filter lines accepted. */
  readonly enabled: boolean;
  /**
   * Refuses a filter the configuration does not allow, with git's ERR text.
   * @throws {@link UploadPackError}
   */
  check(spec: FilterSpec): void;
}

/** A refusal git also sends to the client as an `ERR` line. */
function refuseOnWire(message: string): UploadPackError {
  return new UploadPackError(message, { wire: message });
}

/**
 * Reads the filter settings in the order git read them (a later value wins; `tree.maxDepth` also
 * allows `tree` at that point).
 *
 * @throws {@link UploadPackError} for a value that is not a boolean or a number, in git's words.
 */
export function filterPolicy(config: ServeConfig): FilterPolicy {
  const enabled = config.bool('uploadpack.allowfilter', false);
  let fallback = true;
  const allowed = new Map<string, boolean>();
  let maxDepth: bigint | undefined;
  for (const entry of config.entries) {
    const key = entry.key;
    if (key === 'uploadpackfilter.allow') fallback = config.parseBool(entry);
    else if (key === 'uploadpackfilter.tree.maxdepth') {
      const n = parseUnsigned(entry.value ?? '');
      if (!('value' in n)) {
        throw new UploadPackError(
          `bad numeric config value '${entry.value ?? ''}' for '${key}': ${n.problem}`,
        );
      }
      maxDepth = n.value;
      allowed.set('tree', true);
    } else {
      const kind = /^uploadpackfilter\.(.+)\.allow$/.exec(key)?.[1];
      if (kind !== undefined && (KINDS as readonly string[]).includes(kind)) {
        allowed.set(kind, config.parseBool(entry));
      }
    }
  }
  const check = (spec: FilterSpec): void => {
    if (!(allowed.get(spec.kind) ?? fallback)) throw refuseOnWire(`filter '${spec.kind}' not supported`);
    if (spec.kind === 'tree' && maxDepth !== undefined && spec.depth > maxDepth) {
      throw refuseOnWire(`tree filter allows max depth ${maxDepth}, but got ${spec.depth}`);
    }
    if (spec.kind === 'combine') spec.filters.forEach(check);
  };
  return { enabled, check };
}

/** The filter of one request, from its `filter <spec>` line. */
export class FilterRequest {
  private parsed: FilterSpec | undefined;

  constructor(private readonly policy: FilterPolicy) {}

  /** The filter asked for, if any. */
  get spec(): FilterSpec | undefined {
    return this.parsed;
  }

  /**
   * Takes a `filter <spec>` line: parsed, then checked against the policy, as git does when it
   * reads the line. `negotiated` says whether the client may send one at all (protocol v0: the
   * `filter` capability was advertised and chosen).
   *
   * @returns false when `line` is not a filter line.
   * @throws {@link UploadPackError} for a filter not negotiated, a second filter, a malformed spec
   *   or one the configuration does not allow.
   */
  take(line: string, negotiated: boolean): boolean {
    if (!line.startsWith('filter ')) return false;
    if (!negotiated) throw new UploadPackError('git upload-pack: filtering capability not negotiated');
    if (this.parsed !== undefined) throw new UploadPackError('multiple filter-specs cannot be combined');
    const spec = parseFilterSpec(line.slice('filter '.length));
    this.policy.check(spec);
    this.parsed = spec;
    return true;
  }
}

/** What `git pack-objects` is given for a filter, and whether its pack may be cached. */
export interface PackFilter {
  /** The `--filter=` value. */
  readonly arg: string;
  /**
   * Whether `arg` names the objects by content alone. A `sparse:oid` expression that did not
   * resolve to an object is passed as the client wrote it (so git's own error reaches the client)
   * and its pack is not cached.
   */
  readonly cacheable: boolean;
}

/** Whether git can be asked to resolve an expression: one line of `cat-file --batch-check` input. */
function resolvable(expression: string): boolean {
  return expression !== '' && [...expression].every((ch) => ch.charCodeAt(0) >= 0x20 && ch !== '\x7f');
}

/**
 * The pack-objects filter of `spec`. Each `sparse:oid` expression (`main:.sparse`) is resolved to
 * its object id first: the pack depends on that object, and resolving once and passing the id
 * means the key and the pack cannot disagree when a ref moves meanwhile.
 *
 * @param resolve - runs `git cat-file --batch-check` on the given input, returning its output.
 */
export async function packFilter(
  spec: FilterSpec,
  resolve: (input: string) => Promise<string>,
  objectFormat: 'sha1' | 'sha256',
): Promise<PackFilter> {
  const expressions = [...new Set(sparseExpressions(spec))];
  if (expressions.length === 0) return { arg: canonicalFilter(spec), cacheable: true };
  const raw = { arg: canonicalFilter(spec, new Map(expressions.map((e) => [e, e]))), cacheable: false };
  if (!expressions.every(resolvable)) return raw;
  let answer: string;
  try {
    answer = await resolve(`${expressions.join('\n')}\n`);
  } catch {
    return raw;
  }
  const hex = objectFormat === 'sha256' ? 64 : 40;
  const lines = answer.split('\n');
  const resolved = new Map<string, string>();
  for (const [i, expression] of expressions.entries()) {
    const oid = new RegExp(`^([0-9a-f]{${hex}}) [a-z]+ \\d+$`).exec(lines[i] ?? '')?.[1];
    if (oid === undefined) return raw;
    resolved.set(expression, oid);
  }
  return { arg: canonicalFilter(spec, resolved), cacheable: true };
}
