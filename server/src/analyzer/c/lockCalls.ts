// A write helper shared by threads takes a lock around its write (`pthread_mutex_lock(&c->lock); ...
// write(c->fd, buf, len) ...; pthread_mutex_unlock(&c->lock);`) so that one call's bytes are not
// interleaved with another thread's. Taking and releasing a POSIX lock does no I/O: the helper still
// writes its buffer once, and the lock calls are no other I/O on the descriptor, even when the lock is
// a member of the object that holds it. (Their names read as I/O to the name catalogue: `pthread` holds
// "read".) Only inside a helper's body: between two writes at a call site, a lock boundary says which
// writes may be moved past it, so there they stay calls like any other.
/** POSIX mutex, read-write and spin lock acquire and release functions. */
const LOCK_CALL =
  /^pthread_(mutex_(lock|trylock|timedlock|unlock)|rwlock_(rdlock|wrlock|tryrdlock|trywrlock|timedrdlock|timedwrlock|unlock)|spin_(lock|trylock|unlock))$/;

/** True when a function of this name only takes or releases a POSIX lock: it does no I/O. */
export function locksOnly(name: string): boolean {
  return LOCK_CALL.test(name);
}
