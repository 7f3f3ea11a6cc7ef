import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { HashAlgorithm } from './objectId';
import { ObjectCorruptError } from './errors';
import { LooseObjectStore } from './looseObjects';
import { PackFile } from './packFile';
import { PackIndex } from './packIndex';
import { checkRegularFile } from './regularFile';
import type { WindowCache } from './packWindows';

/** Where an object is stored in a pack: the pack and the entry's index position and offset. */
export interface PackedLocation {
  readonly pack: PackFile;
  readonly position: number;
  readonly offset: number;
}

/**
 * One `objects` directory: its loose objects and its packs (`pack/*.idx` with their `.pack`).
 * Packs are listed newest first, as Git searches them, and listed again when the pack directory
 * changes, so objects packed after opening (by a concurrent `git gc` or fast-import) are found.
 */
export class ObjectDirectory {
  /** The loose objects of this directory. */
  readonly loose: LooseObjectStore;
  private packs: PackFile[] = [];
  private readonly packDir: string;
  private scannedAt = Number.NaN;

  constructor(
    /** The `objects` directory. */
    readonly path: string,
    private readonly algorithm: HashAlgorithm,
    /** Where the packs' windows are kept (shared with the repository's other directories). */
    private readonly windows?: WindowCache,
  ) {
    this.loose = new LooseObjectStore(path, algorithm);
    this.packDir = join(path, 'pack');
    this.rescan();
  }

  /** The packs found so far, newest first. */
  get packFiles(): readonly PackFile[] {
    return this.packs;
  }

  /** The pack entry of the binary object id `id`, or undefined when no pack of this directory has it. */
  findPacked(id: Uint8Array): PackedLocation | undefined {
    for (const pack of this.packs) {
      const position = pack.index.find(id);
      if (position >= 0) return { pack, position, offset: pack.index.offsetAt(position) };
    }
    return undefined;
  }

  /**
   * Lists the pack directory again if it changed since the last listing, opening new packs and
   * dropping deleted ones. Returns whether anything changed.
   */
  rescan(): boolean {
    const mtime = statSync(this.packDir, { throwIfNoEntry: false })?.mtimeMs ?? 0;
    if (mtime === this.scannedAt) return false;
    this.scannedAt = mtime;
    const names = mtime === 0 ? [] : readdirSync(this.packDir);
    const present = new Set(names);
    const known = new Map(this.packs.map((p) => [p.file, p]));
    const found: { pack: PackFile; mtime: number }[] = [];
    for (const name of names) {
      if (!name.endsWith('.idx')) continue;
      const packName = `${name.slice(0, -4)}.pack`;
      if (!present.has(packName)) continue; // an index still being written, or a pack deleted
      const file = join(this.packDir, packName);
      const indexFile = join(this.packDir, name);
      // A FIFO would block the open, a device would be read without end: refuse them by name.
      for (const f of known.has(file) ? [] : [indexFile, file]) {
        checkRegularFile(f, (problem) => new ObjectCorruptError(f, undefined, problem));
      }
      const pack =
        known.get(file) ??
        PackFile.open(file, PackIndex.open(indexFile, this.algorithm), this.algorithm, this.windows);
      known.delete(file);
      found.push({ pack, mtime: statSync(file).mtimeMs });
    }
    for (const gone of known.values()) gone.close();
    found.sort((a, b) => b.mtime - a.mtime);
    this.packs = found.map((f) => f.pack);
    return true;
  }

  /** Closes every pack. */
  close(): void {
    for (const pack of this.packs) pack.close();
    this.packs = [];
  }
}
