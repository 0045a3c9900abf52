/* badptr: system calls handed bad user pointers fail with EFAULT, not a crash.
 *
 * NULL, a kernel address (0xc0000000) and a range that wraps past the top of
 * the address space (0xfffffff0 + 32 bytes), for a syscall that reads user
 * memory (write) and ones that write it (read, pipe). The process survives
 * every one and exits 0. Pointers go through a volatile variable so the
 * compiler neither warns about them nor folds them away.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

struct bad {
	const char *name;
	uintptr_t addr;
	size_t len;
};

static const struct bad cases[] = {
	{ "NULL", 0, 16 },
	{ "kernel address 0xc0000000", 0xc0000000u, 16 },
	{ "wrapping range 0xfffffff0+32", 0xfffffff0u, 32 },
};

static void report(const char *call, const char *name, long r)
{
	printf("%s(%s): %ld, errno %d (%s)\n", call, name, r, r < 0 ? errno : 0, r < 0 ? strerror(errno) : "-");
}

int main(void)
{
	int p[2];
	char buf[8];

	setvbuf(stdout, NULL, _IONBF, 0);
	if (pipe(p) != 0)
		return 1;

	for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		void *volatile ptr = (void *)cases[i].addr;
		errno = 0;
		report("write", cases[i].name, write(p[1], ptr, cases[i].len));
	}
	/* The pipe is still empty: the failed writes put nothing in it. */
	write(p[1], "abc", 3);
	for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		void *volatile ptr = (void *)cases[i].addr;
		errno = 0;
		report("read", cases[i].name, read(p[0], ptr, 3));
	}
	/* The failed reads consumed nothing either. */
	ssize_t n = read(p[0], buf, sizeof buf);
	printf("pipe still holds: %.*s\n", (int)(n > 0 ? n : 0), buf);

	for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		void *volatile ptr = (void *)cases[i].addr;
		errno = 0;
		report("pipe", cases[i].name, syscall(SYS_pipe, ptr));
	}
	errno = 0;
	void *volatile kptr = (void *)0xc0000000u;
	report("uname", "kernel address 0xc0000000", syscall(SYS_uname, kptr));

	printf("still alive\n");
	return 0;
}
