/*
 * Prints "key=value" lines, each with four small writes: the hot loop a trace finds.
 * Build and trace it:
 *   gcc -g -o pairs pairs.c && writev-trace --out pairs.trace.json -- ./pairs > /dev/null
 *   writev-lint --trace pairs.trace.json pairs.c
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static void print_pair(const char *key, int value)
{
	char num[16];
	int len = snprintf(num, sizeof(num), "%d", value);

	write(1, key, strlen(key));
	write(1, "=", 1);
	write(1, num, len);
	write(1, "\n", 1);
}

int main(void)
{
	for (int i = 0; i < 10000; i++)
		print_pair("key", i);
	return 0;
}
