// Device paths named by object-like macros: `#define PANEL_DEV "/dev/hidraw0"`, then
// `open(PANEL_DEV, O_RDWR)`. The path is as literal as `open("/dev/hidraw0", O_RDWR)`, which the readers
// of descriptors take for a device (one write, one report or command: see origins.ts and
// messageDescriptors.ts); spelled through the macro it was read as a plain file, a byte stream with a
// safe fix. The definition may be in the file or in a header it includes (the index carries a header's
// such names, see WrapperIndex.cIncludedDevices). Read from the definitions' text: a macro whose every
// definition in reach is a device's literal path.

/** `#define NAME "..."` at the start of a line, the value a string literal and nothing after it. */
const STRING_DEFINE =
  /^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)[ \t]+("(?:\\.|[^"\\\n])*")[ \t]*(?:\/[*/].*)?$/gm;

/** Any object-like `#define NAME` (a definition of the name that may be something else). */
const ANY_DEFINE = /^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)(?![\w(])/gm;

/**
 * Literal paths of devices and kernel files (see origins.ts, which reads literals with the same
 * pattern): a terminal and the byte sinks are byte streams all the same.
 */
export const DEVICE_PATH = /^"\/(dev\/(?!(tty|console|null"|stdout"|stderr"|pts\/))|proc\/|sys\/)/;

/**
 * The object-like macros `text` defines as a device's literal path (see {@link DEVICE_PATH}), each
 * of whose definitions in `text` is one (a name defined as a device under one `#if` arm and as a
 * file under another is left out).
 */
export function deviceMacros(text: string): string[] {
  // A device's literal starts so (see DEVICE_PATH): most files hold none, and the definitions need
  // no search then.
  if (!text.includes('"/dev/') && !text.includes('"/proc/') && !text.includes('"/sys/')) return [];
  const devices = new Set<string>();
  for (const m of text.matchAll(STRING_DEFINE)) if (DEVICE_PATH.test(m[2]!)) devices.add(m[1]!);
  if (devices.size === 0) return [];
  const spoilt = new Set<string>();
  for (const m of text.matchAll(STRING_DEFINE)) if (!DEVICE_PATH.test(m[2]!)) spoilt.add(m[1]!);
  for (const m of text.matchAll(ANY_DEFINE))
    if (devices.has(m[1]!) && !isStringDefine(text, m.index)) spoilt.add(m[1]!);
  return [...devices].filter((d) => !spoilt.has(d)).sort();
}

/** {@link STRING_DEFINE} for one line. */
const STRING_DEFINE_LINE = new RegExp(STRING_DEFINE.source);

/** Whether the object-like definition at `at` gives a string literal as its whole value. */
function isStringDefine(text: string, at: number): boolean {
  const end = text.indexOf('\n', at);
  return STRING_DEFINE_LINE.test(text.slice(at, end === -1 ? undefined : end));
}

/** Patterns of {@link namesDevice}, by the macros' names. */
const patterns = new Map<string, RegExp>();

/**
 * True when `text` (a call's argument, or its arguments' text) names a device: a literal device path
 * anywhere in it, or one of `devices` (the macros of {@link deviceMacros} in reach) as a whole word.
 * `whole`: the text is one argument, which must be the literal or the name itself.
 */
export function namesDevice(text: string, devices: ReadonlySet<string>, whole = false): boolean {
  if (whole ? DEVICE_PATH.test(text) : DEVICE_ANYWHERE.test(text)) return true;
  if (devices.size === 0) return false;
  if (whole) return devices.has(text.replace(/[()\s]/g, ''));
  const key = [...devices].join('|');
  let pattern = patterns.get(key);
  if (!pattern) {
    if (patterns.size >= 64) patterns.clear();
    patterns.set(key, (pattern = new RegExp(`\\b(?:${key})\\b`)));
  }
  return pattern.test(text);
}

/** {@link DEVICE_PATH} anywhere in a text (any argument of a call read from the text alone). */
export const DEVICE_ANYWHERE = new RegExp(DEVICE_PATH.source.slice(1));

/** No device macros. */
export const NO_DEVICES: ReadonlySet<string> = new Set();
