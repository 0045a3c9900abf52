/* show.h: how the file and event test programs print a call's result, so
 * that Sigil's output and qemu-ppc's compare line by line: "what: N", or
 * "what: -1, <strerror(errno)>" for a failure.
 */
#ifndef SHOW_H
#define SHOW_H

#include <errno.h>
#include <stdio.h>
#include <string.h>

static inline void show(const char *what, long r)
{
	if (r < 0)
		printf("%s: -1, %s\n", what, strerror(errno));
	else
		printf("%s: %ld\n", what, r);
}

#endif
