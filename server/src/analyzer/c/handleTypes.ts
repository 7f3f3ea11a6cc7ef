// Handles that are no descriptors, though named as one: zlib's `gzFile fd` passed to `gzwrite(fd, buf,
// n)` reads, from its name and its argument's, as a helper writing to a descriptor (callSiteWriters.ts).
// A gzFile is a pointer to a buffered, compressed stream: two calls are two appends to its buffer, and
// no writev can replace them. A pointer declaration says so already (`struct conn *sock`); a typedef
// hides the star. Integer typedefs keep the conventions of the C library and of the platforms
// (`ssize_t`, `socket_t`, `SOCKET`): a declared type that follows neither and that the file does not
// define as an integer (`typedef int sockfd;`) is taken for a handle type.
/** The C integer types' keywords, alone or combined. */
const INTEGER_WORD = /^(?:int|long|short|unsigned|signed|char|bool|_Bool)$/;

/**
 * True when `name` (an argument) is declared in `text` (its function, up to the call) with a single
 * type name that is no integer type (see the file comment): `gzFile fd` as a parameter or a local.
 * `file`: the whole file, for its typedefs.
 */
export function declaredHandle(text: string, name: string, file: string): boolean {
  if (!/^[A-Za-z_]\w*$/.test(name)) return false;
  const declared = new RegExp(`(?:^|[(,;{])\\s*(?:const\\s+)?([A-Za-z_]\\w*)\\s+${name}\\s*[,;)=]`, 'm').exec(
    text,
  );
  const type = declared?.[1];
  if (!type || INTEGER_WORD.test(type) || /_t$/.test(type) || !/[a-z]/.test(type)) return false;
  if (/^(?:return|struct|union|enum|else|case|goto|static|extern|register|volatile)$/.test(type))
    return false;
  return !new RegExp(`\\btypedef\\s+[^;{}]*\\b(?:int|long|short|char)\\b[^;{}]*\\b${type}\\s*;`).test(file);
}
