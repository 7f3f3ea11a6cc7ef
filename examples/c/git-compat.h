/* The parts of Git's write stack these examples use. */
#ifndef GIT_COMPAT_H
#define GIT_COMPAT_H

#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

#define LARGE_PACKET_MAX 65520

void die(const char *fmt, ...) __attribute__((__noreturn__));
void die_errno(const char *fmt, ...) __attribute__((__noreturn__));
int error_errno(const char *fmt, ...);
ssize_t write_in_full(int fd, const void *buf, size_t count);
void write_or_die(int fd, const void *buf, size_t count);
ssize_t write_str_in_full(int fd, const char *str);
ssize_t writev_in_full(int fd, const struct iovec *iov, int iovcnt);
void writev_or_die(int fd, const struct iovec *iov, int iovcnt);

struct strbuf {
	size_t alloc;
	size_t len;
	char *buf;
};
void strbuf_addf(struct strbuf *sb, const char *fmt, ...);
void strbuf_release(struct strbuf *sb);

#endif
