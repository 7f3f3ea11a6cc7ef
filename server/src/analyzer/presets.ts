// Opt-in knowledge of one project's own C helpers, for its users to name in `.writev-lint.json`
// (`"presets": ["openssh"]`). The analyzer's defaults know only C, POSIX, Linux and Git, the product's
// origin: a name one project made up is no evidence about code the analyzer has never seen, so it is
// never assumed, only given by a user who works on that project. What a preset says is what that
// project's own headers and sources say each helper does, so a user of the project who read them would
// have configured the same (most of it is also what `writeFunctions` could say; the rest, a helper that
// only reads or only fills a buffer, has no setting of its own).
import type { CWriteFunction } from './catalogue';
import type { WrapperSetting } from './settings';

/** The names of the presets, in the order the settings documentation lists them. */
export const PRESET_NAMES = ['busybox', 'lxc', 'openssh', 'redis', 'toybox', 'util-linux'] as const;

/** A preset's name, as `presets` in the settings lists it. */
export type PresetName = (typeof PRESET_NAMES)[number];

/** What one project's helpers are, as the analyzer's catalogue would put it. */
export interface Preset {
  /** One line for the settings documentation: whose helpers, and which. */
  readonly description: string;
  /** Its write functions (each as `C_WRITE_FUNCTIONS` describes one). */
  readonly writeFunctions?: readonly CWriteFunction[];
  /** Its functions that only read their arguments and change nothing (struct accessors, length getters). */
  readonly pure?: readonly string[];
  /** Its functions that do no output (fill a buffer, convert a number into one). */
  readonly quiet?: readonly string[];
  /** Its functions that write their buffer to a fixed descriptor (as `wrappers` in the settings). */
  readonly wrappers?: readonly WrapperSetting[];
  /** Arguments its gathered functions take before the descriptor, by function. */
  readonly gatheredLeadingArgs?: Readonly<Record<string, string>>;
}

/** A write function whose arguments start `(fd, buf, len`, with no gathered counterpart (no fix). */
function fdBufLen(name: string): CWriteFunction {
  return { name, fd: 0, buf: 1, len: 2 };
}

/** Each preset, by name. */
export const PRESETS: Readonly<Record<PresetName, Preset>> = {
  busybox: {
    description:
      'BusyBox: `full_write`, `safe_write` and `xwrite_str` write, `full_write1_str`/`full_write2_str` write to stdout/stderr, `bb_basename` only reads its argument.',
    writeFunctions: [fdBufLen('full_write'), fdBufLen('safe_write'), { name: 'xwrite_str', fd: 0, buf: 1 }],
    wrappers: [
      { name: 'full_write1_str', language: 'c', fd: '1', buf: 0 },
      { name: 'full_write2_str', language: 'c', fd: '2', buf: 0 },
    ],
    pure: ['bb_basename'],
  },
  lxc: {
    description: 'LXC: `lxc_write_nointr` and `lxc_send_nointr` write.',
    writeFunctions: [fdBufLen('lxc_write_nointr'), fdBufLen('lxc_send_nointr')],
  },
  openssh: {
    description:
      'OpenSSH: `atomicio(vwrite, fd, buf, n)` writes (gathered into `atomiciov(writev, ...)`); the `sshbuf` and packet accessors only read; `POKE_U*`/`put_u*` fill a buffer.',
    writeFunctions: [
      {
        // The loop-until-done helper: returns the bytes written (`atomicio(read, ...)` reads, hence
        // the fixed first argument).
        name: 'atomicio',
        fd: 1,
        buf: 2,
        len: 3,
        arity: 4,
        fixed: { index: 0, text: 'vwrite' },
        gatheredName: 'atomiciov',
      },
    ],
    gatheredLeadingArgs: { atomiciov: 'writev' },
    pure: ['sshbuf_ptr', 'sshbuf_mutable_ptr', 'sshbuf_len', 'ssh_packet_get_connection_out'],
    quiet: ['POKE_U16', 'POKE_U32', 'POKE_U64', 'put_u16', 'put_u32', 'put_u64'],
  },
  redis: {
    description: 'Redis: `sdslen` only reads its string, `ll2string` converts a number into a buffer.',
    pure: ['sdslen'],
    quiet: ['ll2string'],
  },
  toybox: {
    description: 'toybox: `writeall` writes.',
    writeFunctions: [fdBufLen('writeall')],
  },
  'util-linux': {
    description: 'util-linux: `ul_write_all` writes.',
    writeFunctions: [fdBufLen('ul_write_all')],
  },
};

/** The presets `names` selects, in the order given (unknown names were refused by the schema). */
export function presetsOf(names: readonly PresetName[]): Preset[] {
  return names.map((name) => PRESETS[name]);
}
