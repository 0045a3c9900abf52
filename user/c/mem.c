/* mem: the address-space syscalls glibc relies on.
 *
 * brk grows and shrinks (through sbrk), malloc of big blocks takes the mmap
 * path, anonymous private mappings read and write, munmap removes a mapping
 * and mprotect makes one read-only. Accesses that must fault run in a child;
 * the parent prints how the child ended. Nothing prints an address.
 */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define PAGE 4096

static unsigned long checksum(const unsigned char *p, size_t len)
{
	unsigned long s = 0;
	for (size_t i = 0; i < len; i++)
		s = s * 33 + p[i];
	return s;
}

/* Runs touch(addr) in a child: prints "ok" or the signal that killed it. */
static void probe(const char *what, volatile unsigned char *addr, int write)
{
	int status;
	pid_t pid = fork();
	if (pid == 0) {
		if (write)
			*addr = 1;
		else
			(void)*addr;
		_exit(0);
	}
	waitpid(pid, &status, 0);
	if (WIFSIGNALED(status))
		printf("%s: killed by signal %d (%s)\n", what, WTERMSIG(status), strsignal(WTERMSIG(status)));
	else
		printf("%s: ok\n", what);
}

int main(void)
{
	struct rlimit nocore = { 0, 0 };

	setvbuf(stdout, NULL, _IONBF, 0);
	setrlimit(RLIMIT_CORE, &nocore);

	/* brk: grow by 64 KiB, fill, shrink by 32 KiB, grow again: new memory is zero. */
	char *base = sbrk(0);
	char *old = sbrk(64 * 1024);
	printf("sbrk(+64K) returned the old break: %s\n", old == base ? "yes" : "no");
	printf("break moved by 64K: %s\n", (char *)sbrk(0) == base + 64 * 1024 ? "yes" : "no");
	memset(base, 0x5a, 64 * 1024);
	printf("heap pattern: %s\n", base[0] == 0x5a && base[64 * 1024 - 1] == 0x5a ? "ok" : "BAD");
	sbrk(-32 * 1024);
	printf("break after shrink is +32K: %s\n", (char *)sbrk(0) == base + 32 * 1024 ? "yes" : "no");
	printf("kept half intact: %s\n", base[32 * 1024 - 1] == 0x5a ? "yes" : "no");
	sbrk(32 * 1024);
	int zero = 1;
	for (int i = 32 * 1024; i < 64 * 1024; i++)
		zero &= base[i] == 0;
	printf("regrown pages read as zero: %s\n", zero ? "yes" : "no");
	sbrk(-64 * 1024);
	char *big = sbrk(1024 * 1024);
	memset(big, 1, 1024 * 1024);
	printf("sbrk(+1M) usable: %s\n", big != (char *)-1 && big[1024 * 1024 - 1] == 1 ? "yes" : "no");
	sbrk(-1024 * 1024);
	long now = syscall(SYS_brk, 0);
	printf("brk(0xfffff001) returns the break: %s\n", syscall(SYS_brk, 0xfffff001UL) == now ? "yes" : "no");

	/* malloc: small blocks from the heap, big ones (>= 128 KiB) from mmap. */
	void *small[100];
	for (int i = 0; i < 100; i++) {
		small[i] = malloc(100 + i);
		memset(small[i], i, 100 + i);
	}
	int fine = 1;
	for (int i = 0; i < 100; i++)
		fine &= ((unsigned char *)small[i])[99 + i] == i;
	for (int i = 0; i < 100; i++)
		free(small[i]);
	printf("100 small mallocs: %s\n", fine ? "ok" : "BAD");
	for (int round = 0; round < 3; round++) {
		size_t len = (size_t)(4 + round * 4) * 1024 * 1024;
		unsigned char *m = malloc(len);
		if (m == NULL) {
			printf("malloc(%zu MiB) failed\n", len >> 20);
			continue;
		}
		for (size_t i = 0; i < len; i += PAGE)
			m[i] = (unsigned char)(i >> 12);
		unsigned long s = 0;
		for (size_t i = 0; i < len; i += PAGE)
			s += m[i];
		printf("malloc(%zu MiB): page sum %lu\n", len >> 20, s);
		free(m);
	}
	void *c = calloc(1, 256 * 1024);
	printf("calloc(256K) is zero: %s\n", c && checksum(c, 256 * 1024) == 0 ? "yes" : "no");
	free(c);

	/* mmap anonymous private read/write. */
	unsigned char *m = mmap(NULL, 3 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	printf("mmap 3 pages: %s\n", m == MAP_FAILED ? "failed" : "ok");
	printf("fresh mapping is zero: %s\n", checksum(m, 3 * PAGE) == 0 ? "yes" : "no");
	printf("page aligned: %s\n", ((uintptr_t)m & (PAGE - 1)) == 0 ? "yes" : "no");
	for (int i = 0; i < 3 * PAGE; i++)
		m[i] = (unsigned char)(i % 251);
	printf("pattern checksum %lu\n", checksum(m, 3 * PAGE));

	/* A private mapping is copied on fork: the child's writes stay in the child. */
	int status;
	pid_t pid = fork();
	if (pid == 0) {
		memset(m, 0xff, 3 * PAGE);
		_exit(m[5] == 0xff ? 0 : 1);
	}
	waitpid(pid, &status, 0);
	printf("child wrote its copy: %s, parent copy unchanged: %s\n",
	       WEXITSTATUS(status) == 0 ? "yes" : "no", m[5] == 5 ? "yes" : "no");

	/* munmap the middle page: the others stay, the middle one faults. */
	printf("munmap middle page: %d\n", munmap(m + PAGE, PAGE));
	probe("read of the page before", m, 0);
	probe("read of the unmapped page", m + PAGE, 0);
	probe("read of the page after", m + 2 * PAGE, 0);
	printf("outer pages intact: %s\n", m[0] == 0 && m[2 * PAGE + 1] == (2 * PAGE + 1) % 251 ? "yes" : "no");

	/* mprotect the first page read-only: reads work, writes fault. */
	printf("mprotect read-only: %d\n", mprotect(m, PAGE, PROT_READ));
	probe("read of the read-only page", m, 0);
	probe("write to the read-only page", m, 1);
	printf("mprotect read-write again: %d\n", mprotect(m, PAGE, PROT_READ | PROT_WRITE));
	probe("write after restoring write access", m, 1);
	m[0] = 9;
	printf("parent write after restore: %s\n", m[0] == 9 ? "ok" : "BAD");
	munmap(m, PAGE);
	munmap(m + 2 * PAGE, PAGE);

	/* Bad arguments. */
	errno = 0;
	void *bad = mmap(NULL, 0, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	printf("mmap of length 0: %s, errno %s\n", bad == MAP_FAILED ? "failed" : "ok", strerror(errno));
	errno = 0;
	int r = munmap((void *)(uintptr_t)(PAGE + 1), PAGE);
	printf("munmap of an unaligned address: %d, errno %s\n", r, strerror(errno));
	return 0;
}
