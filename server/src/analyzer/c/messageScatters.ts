// A write whose buffers are a message header's scatter list (`writev(fd, m[i].msg_hdr.msg_iov,
// m[i].msg_hdr.msg_iovlen)`) sends what the code built as one message for sendmsg() or sendmmsg(): it
// stands in for them where they are missing (a platform without sendmmsg(), a shim of it). Those calls
// are what datagram sockets are written with, and each keeps its message whole: on a descriptor of
// unknown kind, the write is one message, as a send on a datagram socket is. A descriptor the code
// shows to be a byte stream is read as one all the same.
import type { Node } from 'web-tree-sitter';
import { unwrap } from './syntax';

/**
 * True when `buf`, a write's buffer argument, is the scatter list of a `struct msghdr` (its `msg_iov`
 * member, reached by `.` or `->`, casts and parentheses aside).
 */
export function messageScatter(buf: Node): boolean {
  const bare = unwrap(buf);
  return bare.type === 'field_expression' && bare.childForFieldName('field')?.text === 'msg_iov';
}
