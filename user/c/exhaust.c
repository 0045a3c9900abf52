/* exhaust: run the kernel out of each resource a program can ask for; each
 * time the program must get an error (or, for memory it touches, be killed)
 * and the system must work normally afterwards.
 *
 * 1. Fork bomb: every process forks until fork fails; the failures must be
 *    EAGAIN. The first process then kills them all (kill(-1, SIGKILL)) and
 *    reaps them.
 * 2. Address space: mmap of 1 MiB, untouched, until it fails (ENOMEM);
 *    malloc(1 MiB) until NULL (brk, then mmap, give up: ENOMEM); 4 KiB
 *    mappings with alternating protections (they cannot merge) until the
 *    per-process area limit says ENOMEM; mprotect splitting one mapping page
 *    by page meets the same limit.
 * 3. Physical memory: a child touches page after page of a 1.5 GiB mapping;
 *    when no frame is left the kernel kills it with SIGKILL (Linux's OOM
 *    killer) instead of failing itself.
 * 4. RT signal queue: a blocked RT signal sent to self with sigqueue until
 *    EAGAIN stops at RLIMIT_SIGPENDING; kill() of a blocked RT signal never
 *    fails but queues no more than that limit either (the info is lost).
 * 5. Pipe buffers (kernel heap): 8 processes fill pipes until pipe() fails.
 * 6. Every limit at once (kernel heap): as many processes as fork allows each
 *    take POSIX timers, queued RT signals, open files, pipes and mappings
 *    until each call fails with its errno; the kernel's budgets must say no
 *    before its heap runs out.
 * 7. Two million distinct unknown system call numbers: each is ENOSYS, and
 *    remembering which were reported costs the kernel no memory.
 * After each: fork, exit status, a pipe and a 4 MiB touched mapping work.
 *
 * Runs only on Sigil: a fork bomb on a host is no test.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "on_sigil.h"

static const char *yes(int ok)
{
	return ok ? "yes" : "NO";
}

/* Is the system still usable? fork + exit status + a pipe + fresh memory. */
static int usable(void)
{
	int p[2], status;
	char c = 0;
	if (pipe(p) < 0)
		return 0;
	pid_t pid = fork();
	if (pid == 0) {
		char *m = mmap(NULL, 4 << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (m == MAP_FAILED)
			_exit(1);
		memset(m, 0x5a, 4 << 20);
		write(p[1], &m[12345], 1);
		_exit(42);
	}
	int ok = pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 42;
	ok = ok && read(p[0], &c, 1) == 1 && c == 0x5a;
	close(p[0]);
	close(p[1]);
	return ok;
}

/* A report pipe's buffer is kernel heap the kernel takes at the first
 * write: take it now, before the hogs fill the heap, so that their reports
 * still get through when a heap smaller than the budgets assume (the boot
 * option heap=) is full and new pipe buffers are ENOMEM. */
static void prime(int p[2], int bytes)
{
	char b[16] = { 0 };
	write(p[1], b, bytes);
	read(p[0], b, bytes);
}

static void fork_bomb(void)
{
	int p[2], status;
	char verdict = 0, c;
	pipe(p);
	pid_t bomb = fork();
	if (bomb == 0) {
		close(p[0]);
		for (;;) {
			pid_t pid = fork();
			if (pid > 0)
				continue;
			if (pid < 0) {
				/* One report per failing process, then wait to be killed. */
				c = errno == EAGAIN ? 'A' : 'E';
				write(p[1], &c, 1);
				for (;;)
					pause();
			}
		}
	}
	close(p[1]);
	/* The first failure means the table is full. */
	if (read(p[0], &verdict, 1) != 1)
		verdict = '?';
	kill(-1, SIGKILL);
	while (waitpid(-1, &status, 0) > 0)
		;
	int echild = errno == ECHILD;
	/* The bomb's descendants went to init, which reaps them: wait until
	 * nobody but init and us is left (kill(-1, 0) finds no one). */
	for (int i = 0; i < 1000 && kill(-1, 0) == 0; i++)
		usleep(10000);
	int alone = kill(-1, 0) < 0 && errno == ESRCH;
	int all_eagain = verdict == 'A';
	while (read(p[0], &c, 1) == 1)
		all_eagain &= c == 'A';
	close(p[0]);
	printf("fork bomb: fork failed with EAGAIN: %s; %s processes killed and reaped\n", yes(all_eagain),
	       alone ? "all" : "not all");
	printf("fork bomb: system usable afterwards: %s\n", yes(echild && usable()));
}

#define MAXMAPS 8192
static void *maps[MAXMAPS];

static void address_space(void)
{
	int n = 0, err;
	while (n < MAXMAPS && (maps[n] = mmap(NULL, 1 << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)) != MAP_FAILED)
		n++;
	err = errno;
	printf("mmap 1 MiB until failure: ENOMEM: %s (after %s MiB)\n", yes(n < MAXMAPS && err == ENOMEM), n > 1000 ? "over 1000" : "too few");
	for (int i = 0; i < n; i++)
		munmap(maps[i], 1 << 20);

	n = 0;
	while (n < MAXMAPS && (maps[n] = malloc(1 << 20)) != NULL)
		n++;
	err = errno;
	printf("malloc 1 MiB until NULL: ENOMEM: %s\n", yes(n < MAXMAPS && err == ENOMEM));
	for (int i = 0; i < n; i++)
		free(maps[i]);

	n = 0;
	while (n < MAXMAPS && (maps[n] = mmap(NULL, 4096, n % 2 ? PROT_READ : PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)) != MAP_FAILED)
		n++;
	err = errno;
	printf("unmergeable 4 KiB mappings until failure: ENOMEM: %s\n", yes(n < MAXMAPS && err == ENOMEM));
	for (int i = 0; i < n; i++)
		munmap(maps[i], 4096);

	size_t len = 16 << 20;
	char *big = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int r = 0;
	for (size_t off = 0; big != MAP_FAILED && off < len && r == 0; off += 8192)
		r = mprotect(big + off, 4096, PROT_READ);
	err = errno;
	printf("mprotect splitting one mapping page by page: ENOMEM: %s\n", yes(r < 0 && err == ENOMEM));
	munmap(big, len);
	printf("address space: system usable afterwards: %s\n", yes(usable()));
}

static void physical_memory(void)
{
	int status;
	pid_t pid = fork();
	if (pid == 0) {
		size_t len = 1536u << 20;
		char *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (m == MAP_FAILED)
			_exit(1);
		for (size_t off = 0; off < len; off += 4096)
			m[off] = 1;
		_exit(2);
	}
	waitpid(pid, &status, 0);
	printf("touching 1.5 GiB: killed by SIGKILL: %s\n", yes(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL));
	printf("physical memory: system usable afterwards: %s\n", yes(usable()));
}

static volatile int rt_delivered;

static void count_rt(int sig)
{
	(void)sig;
	rt_delivered++;
}

static void rt_queue(void)
{
	struct rlimit lim;
	sigset_t set;
	int queued = 0, err = 0;
	getrlimit(RLIMIT_SIGPENDING, &lim);
	signal(SIGRTMIN + 3, count_rt);
	sigemptyset(&set);
	sigaddset(&set, SIGRTMIN + 3);
	sigprocmask(SIG_BLOCK, &set, NULL);
	while (queued < 1 << 20) {
		if (sigqueue(getpid(), SIGRTMIN + 3, (union sigval){ .sival_int = queued }) < 0) {
			err = errno;
			break;
		}
		queued++;
	}
	printf("sigqueue until failure: EAGAIN: %s, at RLIMIT_SIGPENDING: %s\n", yes(err == EAGAIN),
	       yes((rlim_t)queued == lim.rlim_cur));
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	printf("all %s delivered on unblocking: %s\n", "queued", yes(rt_delivered == queued));

	rt_delivered = 0;
	sigprocmask(SIG_BLOCK, &set, NULL);
	int failed = 0;
	for (rlim_t i = 0; i < 2 * lim.rlim_cur; i++)
		failed |= kill(getpid(), SIGRTMIN + 3) < 0;
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	printf("kill of a blocked RT signal 2 x RLIMIT_SIGPENDING times: never fails: %s, delivered at most the limit: %s\n",
	       yes(!failed), yes(rt_delivered > 0 && (rlim_t)rt_delivered <= lim.rlim_cur));
	printf("rt queue: system usable afterwards: %s\n", yes(usable()));
}

#define PIPE_HOGS 8

/* Pipe buffers live in the kernel heap: 8 processes each open pipes until
 * the fd limit or the kernel says no, filling every one, and hold them all
 * at once. pipe() may fail (EMFILE, ENFILE) and writes may stop (EAGAIN);
 * the kernel must not run out of heap. */
static void pipe_buffers(void)
{
	int report[2], status, ok = 0, made;
	static char block[65536];
	pid_t kids[PIPE_HOGS];
	pipe(report);
	prime(report, PIPE_HOGS);
	/* A fork may fail too when the heap is small: count only the hogs made. */
	for (made = 0; made < PIPE_HOGS; made++) {
		int k = made;
		kids[k] = fork();
		if (kids[k] < 0)
			break;
		if (kids[k] == 0) {
			int p[2];
			char verdict = 'E';
			close(report[0]);
			for (;;) {
				if (pipe2(p, O_NONBLOCK) < 0) {
					verdict = errno == EMFILE || errno == ENFILE ? 'A' : 'E';
					break;
				}
				while (write(p[1], block, sizeof block) > 0)
					;
				if (errno != EAGAIN)
					break;
			}
			write(report[1], &verdict, 1);
			for (;;)
				pause();
		}
	}
	close(report[1]);
	for (int k = 0; k < made; k++) {
		char c;
		ok += read(report[0], &c, 1) == 1 && c == 'A';
	}
	close(report[0]);
	for (int k = 0; k < made; k++) {
		kill(kids[k], SIGKILL);
		waitpid(kids[k], &status, 0);
	}
	printf("pipe buffers: %d processes filled pipes until pipe() failed (EMFILE or ENFILE): %s\n", PIPE_HOGS, yes(ok == PIPE_HOGS));
	printf("pipe buffers: system usable afterwards: %s\n", yes(usable()));
}

#define MAXKIDS 64

/* One process at every limit: returns a letter per resource that stopped
 * with an errno ('.' for "ok"), then waits to be killed. */
static void __attribute__((noreturn)) hog(int out)
{
	char r[6] = "?????\n";
	int n = 0, err;
	timer_t t;
	struct sigevent sev = { .sigev_notify = SIGEV_SIGNAL, .sigev_signo = SIGRTMIN + 4 };
	struct itimerspec its = { .it_value = { 1000, 0 }, .it_interval = { 1000, 0 } };
	while (n < 100000 && timer_create(CLOCK_MONOTONIC, &sev, &t) == 0 && timer_settime(t, 0, &its, NULL) == 0)
		n++;
	err = errno;
	r[0] = err == EAGAIN ? '.' : 'T';

	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGRTMIN + 5);
	sigprocmask(SIG_BLOCK, &set, NULL);
	for (n = 0; n < 100000 && sigqueue(getpid(), SIGRTMIN + 5, (union sigval){ .sival_int = n }) == 0; n++)
		;
	r[1] = errno == EAGAIN ? '.' : 'S';

	for (n = 0; n < 100000 && open("/dev/null", O_RDONLY) >= 0; n++)
		;
	err = errno;
	r[2] = err == EMFILE || err == ENFILE ? '.' : 'F';
	/* Make room for pipes: a quarter of the files go. */
	for (int fd = 3 + n - n / 4; fd < 3 + n; fd++)
		close(fd);
	int p[2];
	for (n = 0; n < 100000 && pipe(p) == 0; n++)
		write(p[1], "x", 1);
	err = errno;
	r[3] = err == EMFILE || err == ENFILE ? '.' : 'P';

	/* Consecutive hints: a search for a free range each time would make
	 * this quadratic in the number of areas. */
	for (n = 0; n < 100000; n++) {
		int prot = n % 2 ? PROT_READ : PROT_READ | PROT_WRITE;
		char *hint = (char *)0x20000000 + 4096 * n;
		if (mmap(hint, 4096, prot, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0) == MAP_FAILED)
			break;
	}
	r[4] = errno == ENOMEM ? '.' : 'M';
	write(out, r, sizeof r);
	for (;;)
		pause();
}

static void every_limit(void)
{
	int report[2], status, kids = 0, ok = 0;
	pid_t pid[MAXKIDS];
	char first_bad[8] = "none";
	pipe(report);
	prime(report, 6);
	while (kids < MAXKIDS) {
		pid[kids] = fork();
		if (pid[kids] == 0) {
			close(report[0]);
			hog(report[1]);
		}
		if (pid[kids] < 0)
			break;
		/* One at a time: each child gets to its limits before the next starts. */
		char r[6];
		if (read(report[0], r, sizeof r) == sizeof r && memcmp(r, ".....", 5) == 0)
			ok++;
		else if (strcmp(first_bad, "none") == 0)
			memcpy(first_bad, r, 5), first_bad[5] = 0;
		kids++;
	}
	for (int k = 0; k < kids; k++) {
		kill(pid[k], SIGKILL);
		waitpid(pid[k], &status, 0);
	}
	printf("every limit: %s processes, each stopped by an errno at every limit: %s (first other: %s)\n",
	       kids >= 60 ? "60 or more" : "FEWER THAN 60", yes(ok == kids), first_bad);
	printf("every limit: system usable afterwards: %s\n", yes(usable()));
}

static void unknown_syscalls(void)
{
	int all = 1;
	for (long nr = 1000; nr < 2000000; nr++)
		all &= syscall(nr, 0, 0, 0) == -1 && errno == ENOSYS;
	printf("2 million distinct unknown syscall numbers: all ENOSYS: %s\n", yes(all));
	printf("unknown syscalls: system usable afterwards: %s\n", yes(usable()));
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	if (!on_sigil()) {
		fprintf(stderr, "exhaust: run me on Sigil only (a fork bomb on a host is no test)\n");
		return 2;
	}
	fork_bomb();
	address_space();
	physical_memory();
	rt_queue();
	pipe_buffers();
	every_limit();
	unknown_syscalls();
	return 0;
}
