// Colours for the text format: on a terminal by default, never with NO_COLOR, always with FORCE_COLOR
// (the conventions of no-color.org and of Node's own tools).

/** Whether to colour output written to a stream with this `isTTY`, under `env`. */
export function useColor(isTTY: boolean | undefined, env: NodeJS.ProcessEnv): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  const force = env.FORCE_COLOR;
  if (force !== undefined) return !['0', 'false'].includes(force.toLowerCase());
  return isTTY === true && env.TERM !== 'dumb';
}

/** SGR styles, or identity functions when colour is off (plain functions: no `this`). */
export interface Paint {
  readonly bold: (s: string) => string;
  readonly dim: (s: string) => string;
  readonly red: (s: string) => string;
  readonly yellow: (s: string) => string;
  readonly cyan: (s: string) => string;
}

const sgr = (open: number, close: number) => (s: string) => `\x1b[${open}m${s}\x1b[${close}m`;
const plain = (s: string) => s;

/** The styles to use. */
export function paint(color: boolean): Paint {
  return color
    ? { bold: sgr(1, 22), dim: sgr(2, 22), red: sgr(31, 39), yellow: sgr(33, 39), cyan: sgr(36, 39) }
    : { bold: plain, dim: plain, red: plain, yellow: plain, cyan: plain };
}
