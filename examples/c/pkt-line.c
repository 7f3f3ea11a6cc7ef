/*
 * pkt-line framing, as Git's transport speaks it: a four-digit hex length, then the payload.
 * Every packet costs two write() syscalls here; writev_in_full() would send each with one.
 */
#include "git-compat.h"

static const char hex[] = "0123456789abcdef";

static void set_packet_header(char *buf, size_t size)
{
	buf[0] = hex[(size >> 12) & 15];
	buf[1] = hex[(size >> 8) & 15];
	buf[2] = hex[(size >> 4) & 15];
	buf[3] = hex[size & 15];
}

int packet_write_gently(int fd_out, const char *buf, size_t size)
{
	char header[4];

	if (size > LARGE_PACKET_MAX - 4)
		return error_errno("packet write failed - data exceeds max packet size");
	set_packet_header(header, size + 4);
	if (write_in_full(fd_out, header, 4) < 0)
		return error_errno("packet write failed - header");
	if (write_in_full(fd_out, buf, size) < 0)
		return error_errno("packet write failed - header");
	return 0;
}

void packet_flush(int fd)
{
	write_or_die(fd, "0000", 4);
}

/* Sideband: band byte in the header, then the data; the band decides the header's length. */
void send_sideband(int fd, int band, const char *data, size_t sz)
{
	char hdr[5];

	if (band) {
		set_packet_header(hdr, sz + 5);
		hdr[4] = band;
		write_or_die(fd, hdr, 5);
	} else {
		set_packet_header(hdr, sz + 4);
		write_or_die(fd, hdr, 4);
	}
	write_or_die(fd, data, sz);
}

struct ref {
	const char *line;
	size_t len;
	struct ref *next;
};

/* Advertising refs: one syscall per ref. */
void write_ref_lines(int fd, const struct ref *refs)
{
	const struct ref *r;

	for (r = refs; r; r = r->next)
		write_or_die(fd, r->line, r->len);
}
