/*
 * A cat-blob style answer: "<oid> <type> <size>\n", the contents, then "\n", three writes per object.
 * The header is built in a strbuf that is released between the writes: gathering must keep it alive.
 */
#include "git-compat.h"

static int out_fd = 1;

static void emit(const char *buf, size_t len)
{
	if (write_in_full(out_fd, buf, len) < 0)
		die_errno("unable to write to cat-blob stream");
}

void cat_blob_answer(const char *oid, const char *type, const char *contents, size_t size)
{
	struct strbuf line = { 0 };

	strbuf_addf(&line, "%s %s %lu\n", oid, type, (unsigned long)size);
	emit(line.buf, line.len);
	strbuf_release(&line);
	emit(contents, size);
	emit("\n", 1);
}

void cat_blob_missing(const char *oid)
{
	write_str_in_full(out_fd, oid);
	write_str_in_full(out_fd, " missing\n");
}

/* Nothing to gather here: stdout and stderr are different descriptors. */
void report(const char *msg)
{
	write_str_in_full(1, msg);
	write_str_in_full(2, "warning: see above\n");
}
