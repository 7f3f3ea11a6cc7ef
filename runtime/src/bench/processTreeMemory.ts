/**
 * The memory of a server and everything it starts, from /proc (Linux): the server's own peak
 * (`VmHWM`, exact, kept by the kernel) and the peak of the whole tree's resident memory, sampled.
 * A child that lives between two samples is missed, and pages shared between processes (Node's
 * code, git's) count once per process: the tree figure is an upper bound at the sampled moments.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** Resident and peak resident bytes of one process, or undefined when it is gone. */
function statusOf(pid: number): { rss: number; hwm: number } | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/status`, 'latin1');
  } catch {
    return undefined;
  }
  const kib = (field: string): number =>
    Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? 0);
  return { rss: kib('VmRSS') * 1024, hwm: kib('VmHWM') * 1024 };
}

/** The parent of every process now running, from /proc/<pid>/stat. */
function parents(): Map<number, number> {
  const map = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'latin1');
      // The command name in parentheses may hold spaces: the fields after its last ')' are fixed.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      map.set(Number(name), ppid);
    } catch {
      // gone while listed
    }
  }
  return map;
}

/** `root` and its descendants now running. */
export function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const [pid, ppid] of parents()) children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  const tree: number[] = [];
  for (let queue = [root]; queue.length > 0;) {
    const pid = queue.pop()!;
    tree.push(pid);
    queue = queue.concat(children.get(pid) ?? []);
  }
  return tree;
}

/** Samples a process tree's memory until stopped. */
export class TreeMemorySampler {
  private timer: NodeJS.Timeout;
  /** The largest sum of resident bytes over the tree seen in one sample. */
  peakTreeRss = 0;
  /** The most processes in the tree in one sample. */
  peakProcesses = 0;
  /** The root's own peak resident bytes (VmHWM), as last read. */
  rootPeakRss = 0;

  constructor(
    private readonly root: number,
    intervalMs = 50,
  ) {
    this.timer = setInterval(() => this.sample(), intervalMs);
    this.sample();
  }

  private sample(): void {
    const tree = processTree(this.root);
    let sum = 0;
    for (const pid of tree) sum += statusOf(pid)?.rss ?? 0;
    this.peakTreeRss = Math.max(this.peakTreeRss, sum);
    this.peakProcesses = Math.max(this.peakProcesses, tree.length);
    this.rootPeakRss = Math.max(this.rootPeakRss, statusOf(this.root)?.hwm ?? 0);
  }

  /** Takes a last sample and stops. */
  stop(): void {
    this.sample();
    clearInterval(this.timer);
  }
}
