/** The four kinds of Git object. */
export type ObjectType = 'commit' | 'tree' | 'blob' | 'tag';

/** An object read from the database: its type, its size in bytes and its payload. */
export interface GitObject {
  /** The object's type. */
  readonly type: ObjectType;
  /** The payload length in bytes (equal to `data.length`). */
  readonly size: number;
  /** The payload, without Git's `<type> <size>\0` header. The caller owns it. */
  readonly data: Buffer;
}

/** What {@link GitObject} says without the payload. */
export interface ObjectHeader {
  /** The object's type. */
  readonly type: ObjectType;
  /** The payload length in bytes. */
  readonly size: number;
}

/** The object type of a type name in a loose object header, or undefined for an unknown name. */
export function objectTypeFromName(name: string): ObjectType | undefined {
  switch (name) {
    case 'commit':
    case 'tree':
    case 'blob':
    case 'tag':
      return name;
    default:
      return undefined;
  }
}

/**
 * The object type of a pack entry's type number (1 to 4, as gitformat-pack lists them), or
 * undefined for the delta types (6, 7) and the invalid ones (0, 5).
 */
export function objectTypeFromPackNumber(n: number): ObjectType | undefined {
  switch (n) {
    case 1:
      return 'commit';
    case 2:
      return 'tree';
    case 3:
      return 'blob';
    case 4:
      return 'tag';
    default:
      return undefined;
  }
}
