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
 * Threads get their own forms: clone with a soup of CLONE_* flags (the
 * child, on a stack of its own, exits at once in assembly, touching no
 * memory), futex with random operations on bad, misaligned and real words
 * and absurd timeouts, and some children start two threads that fuzz
 * alongside the main thread, which then exits alone (the leader's exit
 * while the others run).
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
#include <pthread.h>
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
	248, 250, 272, 280, 281, 286, 291, 296, 298, 299, 300, 316, 317, 322, 325, 359, 383, 403,
	407, 421, 422, 435, 439,
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

/* Every random word the fuzzer stores may end up executed (a forged NIP,
 * a scribbled trampoline; book3s/32 has no no-execute pages). QEMU 7.2
 * aborts the whole machine ("Raised an exception without defined vector
 * 73") when a CPU without AltiVec, such as the 750 or the e300, executes a
 * primary-opcode-4 word, instead of raising the program exception the
 * hardware raises. So such words become opcode 5, also illegal. */
static uint32_t not_vmx(uint32_t v)
{
	return (v >> 26) == 4 ? v ^ (1u << 26) : v;
}

/* Puts random bytes and a few real C strings into the shared buffer. */
static void refill(void)
{
	for (size_t i = 0; i < sizeof buf / 4; i++)
		((uint32_t *)buf)[i] = not_vmx(rnd() % 3 ? rnd() : arg());
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
		w[rnd() % (sizeof(ucontext_t) / 4)] =
			not_vmx(rnd() % 2 ? arg() : w[rnd() % (sizeof(ucontext_t) / 4)] ^ rnd());
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
		f[i] = not_vmx(rnd() % 4 ? arg() : (uint32_t)f + (rnd() % 4096 & ~3u));
	register uint32_t r0 __asm__("r0") = rnd() % 2 ? SYS_sigreturn : SYS_rt_sigreturn;
	register uint32_t r3 __asm__("r3") = (uint32_t)f + (rnd() % 8) * 4;
	__asm__ volatile("mr 1,3\n\tsc\n\t.long 0" : : "r"(r0), "r"(r3) : "memory");
	__builtin_unreachable();
}

static const uint32_t clone_bits[] = {
	0x100, 0x200, 0x400, 0x800, 0x1000, 0x2000, 0x4000, 0x8000, 0x10000, 0x20000, 0x40000,
	0x80000, 0x100000, 0x200000, 0x400000, 0x800000, 0x1000000, 0x2000000, 0x40000000,
};
/* glibc's pthread_create flags, so that many soups are nearly valid. */
#define PTHREAD_FLAGS 0x3d0f00u

/* clone(flags, newsp, ptid, tls, ctid), the child exiting at once in
 * assembly: it must not touch the parent's stack frame it shares. */
static long raw_clone(uint32_t flags, uint32_t sp, uint32_t ptid, uint32_t tls, uint32_t ctid)
{
	register uint32_t r0 __asm__("r0") = SYS_clone;
	register uint32_t r3 __asm__("r3") = flags;
	register uint32_t r4 __asm__("r4") = sp;
	register uint32_t r5 __asm__("r5") = ptid;
	register uint32_t r6 __asm__("r6") = tls;
	register uint32_t r7 __asm__("r7") = ctid;
	__asm__ volatile("sc\n\t"
			 "bns+ 1f\n\t"
			 "neg 3,3\n"
			 "1:\tcmpwi 3,0\n\t"
			 "bne 2f\n\t"
			 "li 0,1\n\t"
			 "li 3,0\n\t"
			 "sc\n"
			 "2:"
			 : "+r"(r3), "+r"(r0), "+r"(r4), "+r"(r5), "+r"(r6), "+r"(r7)
			 :
			 : "r8", "r9", "r10", "r11", "r12", "cr0", "ctr", "memory");
	return (int32_t)r3;
}

static unsigned char thread_stacks[8][1024] __attribute__((aligned(16)));

static void clone_soup(void)
{
	uint32_t flags = rnd() % 4 ? PTHREAD_FLAGS : 0;
	for (int i = rnd() % 4; i > 0; i--)
		flags ^= clone_bits[rnd() % (sizeof clone_bits / sizeof clone_bits[0])];
	flags |= rnd() % 3 ? 17 : rnd() % 256; /* the exit signal */
	uint32_t sp = (uint32_t)thread_stacks[rnd() % 8] + 1024 - 64;
	uint32_t p = rnd() % 2 ? (uint32_t)buf + (rnd() % 1024) * 4 : bad_pointer();
	uint32_t c = rnd() % 2 ? (uint32_t)buf + (rnd() % 1024) * 4 : bad_pointer();
	raw_clone(flags, rnd() % 8 ? sp : arg(), p, arg(), c);
}

/* futex with a random operation and flags on a real, bad or misaligned
 * word; a wait that could sleep gets at most 2 ms, or a timeout so large or
 * malformed that the call must fail at once. */
static void futex_soup(void)
{
	static const uint32_t ops[] = { 0, 1, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 2, 99 };
	uint32_t op = ops[rnd() % (sizeof ops / sizeof ops[0])] | (rnd() % 2 ? 128 : 0) |
		      (rnd() % 4 ? 0 : 256);
	uint32_t *word = (uint32_t *)(buf + (rnd() % 1024) * 4);
	uint32_t uaddr = rnd() % 3 ? (uint32_t)word : rnd() % 2 ? bad_pointer() : (uint32_t)word + 1;
	/* The timespec: 32-bit {sec, nsec} for futex, 64-bit {sec_hi, sec_lo,
	 * pad, nsec} for futex_time64. */
	int time64 = rnd() % 2;
	uint32_t *ts = (uint32_t *)(buf + 8192 + (rnd() % 64) * 16);
	static const uint32_t secs[] = { 0, 0x7fffffff, 0xffffffff, 0x80000000, 1u << 30 };
	uint32_t *sec = &ts[time64], *nsec = &ts[time64 ? 3 : 1];
	ts[0] = ts[2] = 0;
	*sec = secs[rnd() % 5];
	*nsec = rnd() % 3 ? rnd() % 2000000 : rnd();
	if (time64 && rnd() % 4 == 0)
		ts[0] = rnd(); /* seconds beyond 2038, or negative */
	int sleeps = (op & 127) == 0 || (op & 127) == 9;
	uint32_t val = rnd() % 2 && uaddr == (uint32_t)word ? *word : rnd();
	if (sleeps && val == *word) {
		/* A matching wait: short, or an absolute time long past. */
		ts[0] = *sec = 0;
		*nsec %= 2000000;
	}
	/* A "bad" pointer may still be readable (text): a sleeping wait always
	 * gets the tamed timespec. */
	uint32_t timeout = rnd() % 8 == 0 && !(sleeps && val == *word) ? bad_pointer() : (uint32_t)ts;
	if (sleeps && timeout == 0)
		timeout = (uint32_t)ts;
	syscall(time64 ? 422 : SYS_futex, uaddr, op, val, timeout, rnd() % 2 ? uaddr + 4 : arg(), arg());
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
	switch (rnd() % 32) {
	case 0: clone_soup(); return 1;
	case 1: case 2: futex_soup(); return 1;
	}
	unsigned nr = rnd() % 2 ? known[rnd() % (sizeof known / sizeof known[0])] : rnd() % NSYS;
	uint32_t a[6];
	for (int i = 0; i < 6; i++)
		a[i] = arg();
	switch (nr) {
	case SYS_exit: case SYS_exit_group: case SYS_reboot: case SYS_sigreturn: case SYS_rt_sigreturn:
	case SYS_pause: case SYS_sigsuspend:
		return 0;
	case SYS_clone: case SYS_futex: case 422:
		return 0; /* only in their own forms (clone_soup, futex_soup) */
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

static int thread_batch;
static void *fuzz_thread(void *arg)
{
	(void)arg;
	for (int made = 0; made < thread_batch;)
		if (one_call(getpid()) && ++made % PROGRESS_EVERY == 0)
			write(PROGRESS_FD, "", 1);
	_exit(0); /* exit_group: the last word on the process */
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
	if (rnd() % 8 == 0) {
		/* Two threads fuzz on while the leader exits alone (SYS_exit). */
		pthread_t t;
		thread_batch = batch / 2;
		pthread_create(&t, NULL, fuzz_thread, NULL);
		pthread_create(&t, NULL, fuzz_thread, NULL);
		syscall(SYS_exit, 0);
	}
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
