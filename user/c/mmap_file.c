/* mmap_file: private file mappings, compared with qemu-ppc. A two-page
 * file in the working directory (the root on Sigil, a scratch directory
 * under qemu-ppc) is mapped whole and from its second page; writes to a
 * private mapping stay private; the mapping outlives close and unlink;
 * the program's own file (/proc/self/exe) maps as an ELF; a page wholly
 * past the end of the file is SIGBUS (BUS_ADRERR at the touched address)
 * for a read and a write, a page the file grows into after mmap reads
 * the file's new bytes, and one ftruncate cuts off is SIGBUS even after a
 * private store to it (Linux drops the copies too); a write() after mmap
 * shows through a page not touched yet and not through one stored to;
 * and the errors of Linux's order: EBADF, EACCES, ENODEV, EINVAL.
 */
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
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

static sigjmp_buf env;
static volatile int bus_code;
static void *volatile bus_addr;

static void on_bus(int sig, siginfo_t *si, void *uc)
{
	(void)sig, (void)uc;
	bus_code = si->si_code;
	bus_addr = si->si_addr;
	siglongjmp(env, 1);
}

/* With an argument, also whether si_addr is the touched address (Linux's
 * rule; qemu-ppc reports another address, so only Sigil's run asks). */
static int check_addr;

/* Touches `at` (a store if `store`), and says whether SIGBUS came, with
 * its si_code (and si_addr if asked). */
static void touch(const char *what, volatile char *at, int store)
{
	bus_code = 0;
	bus_addr = NULL;
	if (sigsetjmp(env, 1) == 0) {
		if (store)
			*at = 'x';
		else
			(void)*at;
		printf("%s: no signal\n", what);
		return;
	}
	printf("%s: SIGBUS, BUS_ADRERR %d\n", what, bus_code == BUS_ADRERR);
	if (check_addr)
		printf("si_addr the touched address: %d\n", bus_addr == (void *)at);
}

int main(int argc, char **argv)
{
	(void)argv;
	check_addr = argc > 1;
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

	struct sigaction sa = { .sa_sigaction = on_bus, .sa_flags = SA_SIGINFO };
	sigaction(SIGBUS, &sa, NULL);
	p = mmap(NULL, 3 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	show("mmap three pages of a two-page file", mapped(p));
	p[PAGE + 11] = 'y';
	printf("store in the last page's tail: %c, then %d\n", p[PAGE + 11], p[PAGE + 12]);
	touch("read of a page past the end", p + 2 * PAGE + 5, 0);
	touch("write of a page past the end", p + 2 * PAGE + 9, 1);
	pwrite(fd, "grown", 5, 2 * PAGE);
	printf("after the file grows: \"%.5s\"\n", p + 2 * PAGE);
	p[2 * PAGE] = 'G';
	ftruncate(fd, PAGE + 11);
	touch("a stored-to page the file is cut below", p + 2 * PAGE + 1, 0);
	show("munmap", munmap(p, 3 * PAGE));

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

	/* A write() to the file after mmap shows through a page the program
	 * has not touched, and not through one it has stored to (its copy
	 * since): Linux's page cache until the first write, then COW. */
	int w = open("mw", O_RDWR | O_CREAT | O_TRUNC, 0644);
	memset(page, 'm', PAGE);
	write(w, page, PAGE);
	write(w, page, PAGE);
	p = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE, w, 0);
	p[0] = 'S';
	pwrite(w, "late", 4, 1);
	pwrite(w, "LATE", 4, PAGE);
	printf("a write() after mmap: stored-to page \"%.5s\", untouched page \"%.4s\"\n", p,
	       p + PAGE);
	munmap(p, 2 * PAGE);
	close(w);
	unlink("mw");

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
