/* mmap_file: private file mappings, compared with qemu-ppc. A two-page
 * file in the working directory (the root on Sigil, a scratch directory
 * under qemu-ppc) is mapped whole and from its second page; writes to a
 * private mapping stay private; the mapping outlives close and unlink;
 * the program's own file (/proc/self/exe) maps as an ELF; and the errors
 * of Linux's order: EBADF, EACCES, ENODEV, EINVAL.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "show.h"

#define PAGE 4096

/* mmap's result as show() prints it: 0 for a mapping, -1 and errno else. */
static long mapped(void *p)
{
	return p == MAP_FAILED ? -1 : 0;
}

int main(void)
{
	static char page[PAGE];
	char buf[8] = { 0 };

	unlink("mf");
	int fd = open("mf", O_RDWR | O_CREAT | O_TRUNC, 0644);
	memset(page, 'a', PAGE);
	write(fd, page, PAGE);
	write(fd, "second page", 11); /* the file is 4107 bytes */

	char *p = mmap(NULL, 2 * PAGE, PROT_READ, MAP_PRIVATE, fd, 0);
	show("mmap whole file", mapped(p));
	printf("first byte %c, last of page 0 %c, page 1 \"%.11s\"\n", p[0], p[PAGE - 1], p + PAGE);
	printf("past the end of the file: %d\n", p[PAGE + 11] | p[2 * PAGE - 1]);
	show("munmap", munmap(p, 2 * PAGE));

	p = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, PAGE);
	show("mmap from page 1", mapped(p));
	printf("at offset 4096: \"%.6s\"\n", p);
	memcpy(p, "SECOND", 6);
	pread(fd, buf, 6, PAGE);
	printf("after a private store, mapping \"%.6s\", file \"%.6s\"\n", p, buf);

	/* The mapping holds the file's bytes, not the descriptor. */
	close(fd);
	show("unlink mf", unlink("mf"));
	printf("after close and unlink: \"%.6s\"\n", p);
	show("mprotect read-only", mprotect(p, PAGE, PROT_READ));
	printf("still \"%.6s\"\n", p);
	munmap(p, PAGE);

	int self = open("/proc/self/exe", O_RDONLY);
	unsigned char *e = mmap(NULL, PAGE, PROT_READ, MAP_PRIVATE, self, 0);
	show("mmap /proc/self/exe", mapped(e));
	printf("ELF magic: %d, class 32-bit: %d, big-endian: %d\n",
	       e != MAP_FAILED && memcmp(e, "\177ELF", 4) == 0, e != MAP_FAILED && e[4] == 1,
	       e != MAP_FAILED && e[5] == 2);
	close(self);

	fd = open("mf", O_WRONLY | O_CREAT, 0644);
	show("mmap of a write-only descriptor", mapped(mmap(NULL, PAGE, PROT_READ, MAP_PRIVATE, fd, 0)));
	close(fd);
	unlink("mf");
	show("mmap of a closed descriptor", mapped(mmap(NULL, PAGE, PROT_READ, MAP_PRIVATE, fd, 0)));
	int pfd[2];
	pipe(pfd);
	show("mmap of a pipe", mapped(mmap(NULL, PAGE, PROT_READ, MAP_PRIVATE, pfd[0], 0)));
	int dir = open(".", O_RDONLY | O_DIRECTORY);
	show("mmap of a directory", mapped(mmap(NULL, PAGE, PROT_READ, MAP_PRIVATE, dir, 0)));
	self = open("/proc/self/exe", O_RDONLY);
	show("mmap of length 0", mapped(mmap(NULL, 0, PROT_READ, MAP_PRIVATE, self, 0)));
	show("mmap without PRIVATE or SHARED", mapped(mmap(NULL, PAGE, PROT_READ, 0, self, 0)));
	return 0;
}
