/**
 * Shallow requests as one serve sees them: the repository lookups their parsing needs (object
 * types, git's short ref names), the tips `deepen-relative` starts from, and the `shallow` lines a
 * shallow repository adds to its v0 advertisement. Shared by the v0 and v2 conversations.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { encodePktLine } from '../protocol/pktLine';
import type { RawRefs } from './repository';
import { gitAsync, listedPeels } from './repository';
import type { ShallowContext } from './shallow';
import {
  expandRefName,
  parseShallowLines,
  type ParsedShallow,
  type NumberedLine,
  type ShallowAsk,
  type ShallowLookup,
} from './shallowArgs';

/** The object of every ref by full name, HEAD included when it resolves. */
function refObjects(raw: RawRefs, gitDir: string): Map<string, string> {
  const byName = new Map(raw.refs.map((ref) => [ref.name, ref]));
  const objects = new Map<string, string>();
  const resolve = (name: string): string | undefined => {
    let ref = byName.get(name);
    for (let hops = 0; ref?.symref !== undefined && hops < 5; hops++) ref = byName.get(ref.symref);
    return ref?.symref === undefined ? ref?.oid : undefined;
  };
  for (const ref of raw.refs) {
    const oid = resolve(ref.name);
    if (oid !== undefined) objects.set(ref.name, oid);
  }
  try {
    const head = readFileSync(join(gitDir, 'HEAD'), 'utf8').trim();
    const target = /^ref: (.+)$/.exec(head)?.[1];
    const oid = target === undefined ? head : resolve(target);
    if (oid !== undefined && /^[0-9a-f]{40,64}$/.test(oid)) objects.set('HEAD', oid);
  } catch {
    // no readable HEAD: it cannot be named
  }
  return objects;
}

/** Everything shallow requests need from one serve. */
export class ShallowSupport {
  private objects: Map<string, string> | undefined;

  constructor(
    private readonly gitDir: string,
    private readonly raw: RawRefs,
    readonly serverShallows: ReadonlySet<string>,
    private readonly tips: () => readonly string[],
  ) {}

  private refs(): Map<string, string> {
    this.objects ??= refObjects(this.raw, this.gitDir);
    return this.objects;
  }

  /** The lookups parsing needs: object types by one `cat-file`, ref names from the ref list. */
  readonly lookup: ShallowLookup = {
    types: async (oids) => {
      const out = await gitAsync(
        this.gitDir,
        ['cat-file', '--batch-check=%(objectname) %(objecttype)'],
        `${oids.join('\n')}\n`,
      );
      const types = new Map<string, string>();
      for (const line of out.split('\n')) {
        const [oid, type] = line.split(' ');
        if (oid && type && type !== 'missing') types.set(oid, type);
      }
      return types;
    },
    expandRef: (name) => expandRefName(name, new Set(this.refs().keys())),
  };

  /** Parses a request's shallow lines; see {@link parseShallowLines}. */
  parse(lines: readonly NumberedLine[], relative: boolean): Promise<ParsedShallow> {
    return parseShallowLines(lines, relative, this.raw.objectFormat, this.lookup);
  }

  /** The boundary computation's view of the serve. */
  context(): ShallowContext {
    return {
      gitDir: this.gitDir,
      serverShallows: this.serverShallows,
      ourTips: this.tips,
      peels: listedPeels(this.raw),
    };
  }

  /** The object of a full ref name `deepen-not` resolved to. */
  readonly refOid = (ref: string): string => this.refs().get(ref)!;

  /**
   * The `shallow <oid>` lines a shallow repository adds to its v0 advertisement, after the refs
   * (sorted, as git lists its shallow commits).
   */
  advertisement(): Uint8Array[] {
    return [...this.serverShallows].sort().map((oid) => encodePktLine(`shallow ${oid}\n`));
  }
}

/** Whether a parse gave an ask (else a refusal). */
export function parsedAsk(parsed: ParsedShallow): parsed is { ask: ShallowAsk } {
  return 'ask' in parsed;
}
