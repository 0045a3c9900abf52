/* fuzz: a seeded system-call fuzzer. Whatever a user program passes, the
 * kernel must answer with an errno or a signal to that program, never an
 * oops, a hang or a leak.
 *
 * Usage: fuzz [seed] [calls] [batch]   (defaults 1, 100000, 1000)
 *
 * The parent forks one child per batch. The child points fds 0-2 at
 * /dev/null and makes `batch` calls: a random number in 0..449 (half the time
 * one of the numbers Sigil implements), each argument drawn from a set meant
 * to hurt: 0, -1, small integers, kernel addresses, unaligned and wrapping
 * pointers, huge lengths, bad fds and signal numbers, and valid user buffers
 * full of random bytes and a few real paths. Now and then it raises a signal
 * whose handler scribbles over its own signal frame before returning (a
 * forged frame for rt_sigreturn), and some batches end in sigreturn or
 * rt_sigreturn called by hand with the stack pointer at a forged frame.
 *
 * A child may kill itself (munmap its stack, SIGSEGV handler at 0...): the
 * parent counts how each child ended and goes on. Progress comes back through
 * a pipe, one byte per 32 calls, so calls by a child that dies are counted
 * only up to its last report (the count never overstates). A child silent for
 * for 0.3 s (blocked on a pipe it made, stopped by SIGSTOP) is killed by the
 * parent's watchdog.
 *
 * Calls that would end the run legitimately are tamed: exit/exit_group and
 * reboot are skipped, a process made by fork/vfork/clone exits at once,
 * execve gets only bad pointers, and the kill family never aims at PID 1 or
 * the parent: pid 1, the parent's pid, 0 (the child may have joined the
 * parent's group), -1 and the parent's group become the child itself.
 * Runs only on Sigil: on a host, kill(-1, ...) would hit the user's own
 * processes.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <ucontext.h>
#include <unistd.h>

#include "on_sigil.h"

#define NSYS 450
#define PROGRESS_FD 100
#define PROGRESS_EVERY 32
#define WATCHDOG_MS 300

static uint32_t rng;

/* xorshift32: small, fast and the same on every machine for one seed. */
static uint32_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 17;
	rng ^= rng << 5;
	return rng;
}

static unsigned char buf[65536] __attribute__((aligned(4096)));

/* System calls Sigil implements (or parses) today: fuzzing them more often
 * reaches past the "unknown number" path. */
static const unsigned short known[] = {
	3, 4, 5, 6, 7, 12, 13, 19, 20, 24, 27, 33, 37, 41, 42, 43, 45, 54, 55, 57, 60, 63, 64, 65,
	66, 67, 73, 75, 76, 77, 78, 85, 90, 91, 104, 105, 114, 116, 120, 122, 125, 126, 140, 141,
	142, 145, 146, 158, 162, 163, 167, 173, 174, 175, 176, 177, 179, 180, 182, 185, 189, 190,
	192, 195, 196, 197, 202, 204, 205, 207, 208, 221, 232, 240, 241, 242, 243, 244, 246, 247,
	248, 250, 272, 280, 281, 286, 291, 296, 298, 316, 317, 322, 325, 359, 383, 403, 407, 421,
	422, 439,
};

/* Calls that can sleep until a signal or a timeout: every argument becomes
 * a non-zero bad pointer (no valid timespec of 68 years, no NULL "wait
 * forever"), and poll gets a timeout of at most 2 ms. pause and sigsuspend
 * would only wait for the watchdog: they are skipped. */
static int may_block(unsigned nr)
{
	switch (nr) {
	case 27: case 82: case 104: case 142: case 162: case 167: case 176: case 178: case 248:
	case 280: case 281: case 407: case 413: case 414: case 421:
		return 1;
	}
	return 0;
}

static const char *const paths[] = {
	"/dev/null", "/dev/console", "/dev/snd/pcmC0D0p", "/", "/init", "/dev", "/nonexistent", "",
	"/dev/null/x", "../../..", "/proc/self/exe",
};

/* A pointer nobody should be able to use. */
static uint32_t bad_pointer(void)
{
	static const uint32_t v[] = {
		0, 1, 0xfff, 0xc0000000, 0xc0001000, 0xcffffffc, 0xaffffffe, 0xb0000000, 0xfffffff0,
		0xffffffff, 0x7ffffffc, 0x10000000 - 3, 0xe0000000,
	};
	uint32_t r = rnd();
	if (r % 4 == 0)
		return 0xc0000000 + (rnd() & 0x0fffffff);
	return v[r / 4 % (sizeof v / sizeof v[0])];
}

static uint32_t arg(void)
{
	uint32_t r = rnd();
	switch (r % 16) {
	case 0: return 0;
	case 1: return 0xffffffff;
	case 2: return rnd() % 64;
	case 3: return bad_pointer();
	case 4: return 0xfffffff0 + rnd() % 16;
	case 5: { static const uint32_t h[] = { 0x7fffffff, 0x80000000, 0xfffff000, 0x10000000, 65536, 4097 };
		return h[rnd() % 6]; }
	case 6: case 7: case 8: return (uint32_t)buf + rnd() % sizeof buf;
	case 9: return (uint32_t)buf + sizeof buf - rnd() % 64;
	case 10: { static const uint32_t s[] = { 0, 31, 32, 33, 34, 64, 65, 128, 0xffffffff, 9, 19, 17 };
		return s[rnd() % 12]; }
	case 11: { static const uint32_t f[] = { 0, 1, 2, 3, 4, 5, 6, 1023, 1024, 0xffffff9c, 0x7fffffff };
		return f[rnd() % 11]; }
	case 12: return (uint32_t)paths[rnd() % (sizeof paths / sizeof paths[0])];
	case 13: return 0x40000000 + (rnd() & 0x0ffff000);
	case 14: return (2u << 30) | ((rnd() % 512) << 16) | (0x41 << 8) | (rnd() % 0x60);
	default: return rnd();
	}
}

/* Puts random bytes and a few real C strings into the shared buffer. */
static void refill(void)
{
	for (size_t i = 0; i < sizeof buf / 4; i++)
		((uint32_t *)buf)[i] = rnd() % 3 ? rnd() : arg();
	for (int i = 0; i < 16; i++) {
		const char *p = paths[rnd() % (sizeof paths / sizeof paths[0])];
		size_t at = rnd() % (sizeof buf - 32);
		memcpy(buf + at, p, strlen(p) + 1);
	}
}

/* A handler that forges its own frame: a few words of the ucontext (saved
 * registers, NIP, MSR, the uc_regs pointer, the mask) get hostile values
 * before rt_sigreturn reads them back. */
static void scribble(int sig, siginfo_t *si, void *ctx)
{
	(void)sig;
	(void)si;
	uint32_t *w = ctx;
	int n = 1 + rnd() % 3;
	for (int i = 0; i < n; i++)
		w[rnd() % (sizeof(ucontext_t) / 4)] = rnd() % 2 ? arg() : w[rnd() % (sizeof(ucontext_t) / 4)] ^ rnd();
}

static void forged_frame(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = scribble;
	sa.sa_flags = SA_SIGINFO | (rnd() % 2 ? SA_ONSTACK : 0);
	sigaction(SIGUSR2, &sa, NULL);
	raise(SIGUSR2);
}

/* The end of a batch, sometimes: sigreturn or rt_sigreturn with r1 at a page
 * of hostile words (some pointing back into the page, so the kernel follows
 * a forged uc_regs). If the kernel returns, the illegal word kills us. */
static void __attribute__((noreturn)) forged_sigreturn(void)
{
	uint32_t *f = (uint32_t *)(buf + 4096);
	for (int i = 0; i < 1024; i++)
		f[i] = rnd() % 4 ? arg() : (uint32_t)f + (rnd() % 4096 & ~3u);
	register uint32_t r0 __asm__("r0") = rnd() % 2 ? SYS_sigreturn : SYS_rt_sigreturn;
	register uint32_t r3 __asm__("r3") = (uint32_t)f + (rnd() % 8) * 4;
	__asm__ volatile("mr 1,3\n\tsc\n\t.long 0" : : "r"(r0), "r"(r3) : "memory");
	__builtin_unreachable();
}

/* One call. Returns 0 when the number was skipped. */
/* Would a kill-family call aimed at `target` reach PID 1 or the fuzzing
 * parent (a group leader: init made it one)? The parent's pid is asked for
 * each time, not kept in memory the fuzzed calls may overwrite. */
static int spared(uint32_t arg)
{
	int32_t target = (int32_t)arg, parent = getppid();
	return target == 1 || target == parent || target == 0 || target == -1 || target == -parent;
}

static int one_call(pid_t me)
{
	unsigned nr = rnd() % 2 ? known[rnd() % (sizeof known / sizeof known[0])] : rnd() % NSYS;
	uint32_t a[6];
	for (int i = 0; i < 6; i++)
		a[i] = arg();
	switch (nr) {
	case SYS_exit: case SYS_exit_group: case SYS_reboot: case SYS_sigreturn: case SYS_rt_sigreturn:
	case SYS_pause: case SYS_sigsuspend:
		return 0;
	case SYS_execve: case 362:
		a[0] = bad_pointer();
		a[1] = bad_pointer();
		break;
	case SYS_kill: case SYS_tkill: case SYS_rt_sigqueueinfo:
		if (spared(a[0]))
			a[0] = me;
		break;
	case SYS_tgkill: case SYS_rt_tgsigqueueinfo:
		if (spared(a[0]) || spared(a[1]))
			a[0] = a[1] = me;
		break;
	}
	if (may_block(nr)) {
		for (int i = 0; i < 6; i++)
			while ((a[i] = bad_pointer()) == 0)
				;
		if (nr == SYS_poll)
			a[2] = rnd() % 3;
	}
	long r = syscall(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
	if ((nr == SYS_fork || nr == SYS_vfork || nr == SYS_clone || nr == 435) && r == 0)
		syscall(SYS_exit, 0);
	return 1;
}

static void __attribute__((noreturn)) child(int batch)
{
	int null = open("/dev/null", O_RDWR);
	for (int fd = 0; fd < 3; fd++)
		dup2(null, fd);
	if (null > 2)
		close(null);
	pid_t me = getpid();
	refill();
	int made = 0;
	while (made < batch) {
		if (rnd() % 256 == 0)
			refill();
		if (rnd() % 64 == 0)
			forged_frame();
		if (one_call(me) && ++made % PROGRESS_EVERY == 0)
			write(PROGRESS_FD, "", 1);
	}
	if (rnd() % 4 == 0)
		forged_sigreturn();
	_exit(0);
}

int main(int argc, char **argv)
{
	uint32_t seed = argc > 1 ? strtoul(argv[1], NULL, 0) : 1;
	long calls = argc > 2 ? strtol(argv[2], NULL, 0) : 100000;
	int batch = argc > 3 ? atoi(argv[3]) : 1000;
	long done = 0;
	int children = 0, normal = 0, watchdog = 0, others = 0, by_signal[65] = { 0 };

	setvbuf(stdout, NULL, _IONBF, 0);
	if (!on_sigil()) {
		fprintf(stderr, "fuzz: run me on Sigil only (kill(-1) would hit your processes)\n");
		return 2;
	}
	if (batch < PROGRESS_EVERY)
		batch = PROGRESS_EVERY;
	printf("fuzz: seed %u, %ld calls, %d per child\n", seed, calls, batch);
	while (done < calls) {
		int p[2], status;
		if (pipe(p) < 0) {
			perror("fuzz: pipe");
			return 1;
		}
		rng = seed * 2654435761u + (uint32_t)children * 40503u + 1;
		if (rng == 0)
			rng = 1;
		pid_t pid = fork();
		if (pid < 0) {
			perror("fuzz: fork");
			return 1;
		}
		if (pid == 0) {
			close(p[0]);
			dup2(p[1], PROGRESS_FD);
			close(p[1]);
			child(batch);
		}
		children++;
		close(p[1]);
		for (;;) {
			struct pollfd pfd = { p[0], POLLIN, 0 };
			char got[256];
			int n = poll(&pfd, 1, WATCHDOG_MS);
			if (n == 0) {
				kill(pid, SIGKILL);
				watchdog++;
				break;
			}
			if (n < 0 && errno == EINTR)
				continue;
			n = read(p[0], got, sizeof got);
			if (n <= 0)
				break;
			done += (long)n * PROGRESS_EVERY;
		}
		close(p[0]);
		if (waitpid(pid, &status, 0) != pid) {
			perror("fuzz: waitpid");
			return 1;
		}
		if (WIFSIGNALED(status))
			by_signal[WTERMSIG(status) & 63]++;
		else
			normal++;
		/* Grandchildren left behind go to init, which reaps them; any
		 * child of ours still unreaped is reaped here. */
		while (waitpid(-1, &status, WNOHANG) > 0)
			others++;
	}
	printf("fuzz: %ld calls in %d children: %d exited, %d stopped by the watchdog, %d reaped orphans; killed by signal:",
	       done, children, normal, watchdog, others);
	for (int s = 1; s < 65; s++)
		if (by_signal[s])
			printf(" %d(%s)x%d", s, s < 32 ? strsignal(s) : "RT", by_signal[s]);
	printf("\nfuzz: the kernel is still up\n");
	return 0;
}
