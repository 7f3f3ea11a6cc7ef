// Which function names read as I/O when no body of the function is in the code read: a call of one
// stops a run of writes. Read word by word, so an I/O word glued into another word does not count.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ioName } from 'writev-lint/out/analyzer/catalogue';

describe('names that read as I/O', () => {
  it('reads the C library and common project spellings of output, logging and leaving as I/O', () => {
    for (const name of [
      'write',
      'fwrite',
      'gzwrite',
      'xwrite',
      'writen',
      'pwritev',
      'vfprintf',
      'vsnprintf',
      'syslog',
      'vsyslog',
      'fflush',
      'fdatasync',
      'lseek',
      'atexit',
      'err',
      'errx',
      'verr',
      'warnx',
      'print_header',
      'logLine',
      'rfbLog',
      'SSL_write',
      'sendto',
      'recvfrom',
      'condlog',
      'mustsend',
      'sockrecvfrom',
      'packet_hexdump',
      'tprintf',
      'sockerror',
      'dbglog',
      'skdebug',
      'DEBUG',
      'LOG_INFO',
      'elogf',
      'cprint1',
      'mvwprintw',
      'stdout_flush',
      'do_exit',
      'die',
    ]) {
      assert.equal(ioName(name), true, name);
    }
  });

  it('does not read a name as I/O because a word of it holds an I/O word inside another word', () => {
    for (const name of [
      'pthread_mutex_lock',
      'pthread_create',
      'uv_thread_join',
      'set_timeout',
      'g_timeout_add_seconds',
      'route_add',
      'WEXITSTATUS',
      'WIFEXITED',
      'isprint',
      'sshkey_fingerprint',
      'topology_init',
      'dialog_clear',
      'redisAsyncCommand',
      'is_ready',
      'logical_size',
      'layout',
      'complexity',
      'release',
      'listener_backlog',
      'strtoutf8',
      'IS_ERR',
      'PTR_ERR',
      'memcpy',
    ]) {
      assert.equal(ioName(name), false, name);
    }
  });
});
