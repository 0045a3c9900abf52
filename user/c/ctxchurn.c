/* ctxchurn: MMU context recycling. Every address space has a context number
 * that selects its hardware translations; numbers come from a free set of
 * 1024 and are reused after an address space dies. This program creates and
 * destroys more address spaces than there are numbers (fork + exit), while
 * one long-lived child holds a page at a fixed address. Each short-lived
 * child maps a fresh page at that same address: it must read zeroes (not a
 * dead child's data nor the long-lived child's), and the long-lived child
 * must still read its own data at the end.
 *
 *   ctxchurn [N]   N short-lived children (default 2500)
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#define PAGE 4096
#define FIXED ((void *)0x40000000)

static volatile unsigned *map_fixed(void)
{
	void *p = mmap(FIXED, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	return p == MAP_FAILED ? NULL : p;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 2500;
	int go[2], done[2];
	pipe(go);
	pipe(done);
	pid_t keeper = fork();
	if (keeper == 0) {
		volatile unsigned *p = map_fixed();
		for (int i = 0; i < PAGE / 4; i++)
			p[i] = 0x5157a000 + i;
		char c;
		read(go[0], &c, 1);
		int bad = 0;
		for (int i = 0; i < PAGE / 4; i++)
			bad += p[i] != 0x5157a000 + (unsigned)i;
		write(done[1], &bad, sizeof bad);
		_exit(0);
	}
	int stale = 0, failed = 0;
	for (int i = 0; i < n; i++) {
		pid_t pid = fork();
		if (pid == 0) {
			volatile unsigned *p = map_fixed();
			int dirty = 0;
			for (int j = 0; j < PAGE / 4; j += 64)
				dirty += p[j] != 0;
			for (int j = 0; j < PAGE / 4; j += 64)
				p[j] = 0xdead0000 + j;
			_exit(dirty ? 1 : 0);
		}
		int st;
		if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
			failed++;
		else if (WEXITSTATUS(st))
			stale++;
	}
	write(go[1], "x", 1);
	int bad = -1;
	read(done[0], &bad, sizeof bad);
	waitpid(keeper, NULL, 0);
	printf("ctxchurn: %d address spaces created and destroyed: failed %d, saw stale data %d\n", n, failed, stale);
	printf("ctxchurn: long-lived child's page: %s\n", bad == 0 ? "intact" : "CHANGED");
	return stale || failed || bad;
}
