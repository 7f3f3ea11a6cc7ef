// The headers a C system provides under a bare name (`<stdio.h>`, `<unistd.h>`): the C standard's,
// POSIX's and the common extensions of the C libraries and kernels C programs are built on. A bare
// angle-bracket include of any other name is a project's own header found through the build's include
// path (`-Isrc/util`, then `#include <log.h>`), and the fact base reads it as such when the tree has it.
// A tree's copy of one of these names (a compat `err.h`, a project's own `time.h`) stays the system's:
// which one the build picks depends on flags the analyzer does not see.

/** Bare header names of the C standard, POSIX and the common C libraries (glibc, musl, the BSDs). */
const SYSTEM_HEADERS: ReadonlySet<string> = new Set(
  [
    // C standard
    'assert complex ctype errno fenv float inttypes iso646 limits locale math setjmp signal stdalign',
    'stdarg stdatomic stdbit stdbool stdckdint stddef stdint stdio stdlib stdnoreturn string tgmath',
    'threads time uchar wchar wctype',
    // POSIX
    'aio arpa cpio dirent dlfcn fcntl fmtmsg fnmatch ftw glob grp iconv langinfo libgen monetary mqueue',
    'ndbm netdb nl_types poll pthread pwd regex sched search semaphore spawn strings stropts syslog tar',
    'termios trace ulimit unistd utime utmpx wordexp',
    // common C library and kernel extensions
    'alloca argp argz byteswap crypt ctime endian envz err error execinfo features fstab fts getopt',
    'gnu-versions ifaddrs lastlog libintl link malloc mcheck memory mntent netinet obstack paths printf',
    'pty resolv sgtty shadow stab sysexits termio ttyent ucontext ustat util libutil utmp values wait',
    'xlocale bsd_auth login_cap readpassphrase sha1 sha2 md5 vis tzfile db ndir curses ncurses term',
    'ttydefaults mach elf gelf libelf link_elf a.out nlist kvm',
  ]
    .join(' ')
    .split(' ')
    .map((name) => `${name}.h`),
);

/** Whether `<name>` (no folder) names a header of the system rather than of the project. */
export function isSystemHeader(name: string): boolean {
  return SYSTEM_HEADERS.has(name);
}
