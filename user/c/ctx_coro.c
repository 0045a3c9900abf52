/* ctx_coro: glibc's ucontext calls, which on ppc32 are the swapcontext
 * system call (249): getcontext is swapcontext(uc, NULL), setcontext is
 * swapcontext(NULL, uc).
 *
 * getcontext resumed by setcontext, two makecontext coroutines taking
 * turns with swapcontext (arguments, their own stacks, uc_link back to
 * main), FP registers and the signal mask carried by a context, a signal
 * handled on a coroutine's stack, and the raw call's errors: a short size
 * is EINVAL, bad pointers EFAULT, a uc_regs that leads nowhere kills with
 * SIGSEGV even when it is handled.
 */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <ucontext.h>
#include <unistd.h>

static ucontext_t main_uc, co_uc[2];
static char stacks[2][16384] __attribute__((aligned(16)));
static int trace[32], ntrace;

/* Coroutine `id` yields `n` values to the other, then returns (uc_link). */
static void coroutine(int id, int n, int step)
{
	for (int i = 0; i < n; i++) {
		trace[ntrace++] = id * 100 + i * step;
		swapcontext(&co_uc[id], &co_uc[1 - id]);
	}
}

static volatile double fp_seen;
static void fp_coroutine(void)
{
	volatile double x = 0.25;
	for (int i = 0; i < 10; i++)
		x = x * 3.0 + 1.0;
	fp_seen = x;
	swapcontext(&co_uc[0], &main_uc);
}

static volatile sig_atomic_t handled;
static volatile uintptr_t handler_sp;
static void on_usr1(int sig)
{
	(void)sig;
	handled++;
	handler_sp = (uintptr_t)__builtin_frame_address(0);
}

static void signal_coroutine(void)
{
	raise(SIGUSR1);
	swapcontext(&co_uc[0], &main_uc);
}

static void make(ucontext_t *uc, int which, ucontext_t *link)
{
	getcontext(uc);
	uc->uc_stack.ss_sp = stacks[which];
	uc->uc_stack.ss_size = sizeof stacks[which];
	uc->uc_link = link;
}

static long raw(void *old, void *new, long size)
{
	return syscall(SYS_swapcontext, old, new, size);
}

static const char *err(long r)
{
	return r == 0 ? "0" : strerror(errno);
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);

	/* getcontext, then setcontext back to it three times. */
	volatile int resumed = 0;
	ucontext_t here;
	int r = getcontext(&here);
	if (resumed < 3) {
		resumed++;
		setcontext(&here);
	}
	printf("getcontext: %d, resumed by setcontext %d times\n", r, resumed);

	/* Two coroutines taking turns; the second to finish returns to main. */
	make(&co_uc[0], 0, &main_uc);
	make(&co_uc[1], 1, &main_uc);
	makecontext(&co_uc[0], (void (*)(void))coroutine, 3, 0, 4, 1);
	makecontext(&co_uc[1], (void (*)(void))coroutine, 3, 1, 4, 10);
	swapcontext(&main_uc, &co_uc[0]);
	printf("coroutines took turns:");
	for (int i = 0; i < ntrace; i++)
		printf(" %d", trace[i]);
	printf("\n");

	/* FP: the coroutine computes, main's FP values survive the switches. */
	volatile double mine = 1.0 / 3.0;
	make(&co_uc[0], 0, &main_uc);
	makecontext(&co_uc[0], fp_coroutine, 0);
	swapcontext(&main_uc, &co_uc[0]);
	printf("fp in the coroutine: %.1f, main's 1/3 kept: %s\n", fp_seen, mine * 3.0 == 1.0 ? "yes" : "no");

	/* The mask is part of the context. */
	sigset_t set, now;
	sigemptyset(&set);
	sigaddset(&set, SIGUSR2);
	sigprocmask(SIG_BLOCK, &set, NULL);
	volatile int back = 0;
	getcontext(&here);
	if (!back) {
		back = 1;
		sigprocmask(SIG_UNBLOCK, &set, NULL);
		setcontext(&here);
	}
	sigprocmask(SIG_BLOCK, NULL, &now);
	printf("SIGUSR2 blocked again by setcontext: %s\n", sigismember(&now, SIGUSR2) ? "yes" : "no");
	sigprocmask(SIG_UNBLOCK, &set, NULL);

	/* A handler runs on the coroutine's stack, and the coroutine goes on. */
	signal(SIGUSR1, on_usr1);
	make(&co_uc[0], 1, &main_uc);
	makecontext(&co_uc[0], signal_coroutine, 0);
	swapcontext(&main_uc, &co_uc[0]);
	uintptr_t lo = (uintptr_t)stacks[1], hi = lo + sizeof stacks[1];
	printf("handler ran %d time(s), on the coroutine's stack: %s\n", handled,
	       handler_sp >= lo && handler_sp < hi ? "yes" : "no");

	/* The raw call's errors. */
	static ucontext_t uc;
	errno = 0;
	printf("size 1183: %s\n", err(raw(NULL, NULL, 1183)));
	printf("size 1184, both NULL: %s\n", err(raw(NULL, NULL, 1184)));
	printf("old at address 16: %s\n", err(raw((void *)16, NULL, sizeof uc)));
	printf("old in the kernel (0xc0000000): %s\n", err(raw((void *)0xc0000000, NULL, sizeof uc)));
	printf("size -1 (unsigned, a window past user space): %s\n", err(raw(&uc, NULL, -1)));
	void *gone = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	munmap(gone, 8192);
	printf("new unmapped: %s\n", err(raw(NULL, gone, sizeof uc)));
	void *ro = mmap(NULL, 8192, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	printf("old read-only: %s\n", err(raw(ro, NULL, sizeof uc)));

	/* uc_regs pointing nowhere: SIGSEGV, even with a handler installed. */
	pid_t pid = fork();
	if (pid == 0) {
		signal(SIGSEGV, on_usr1);
		getcontext(&uc);
		uc.uc_mcontext.uc_regs = (void *)16;
		raw(NULL, &uc, sizeof uc);
		printf("child: setcontext with a bad uc_regs returned\n");
		_exit(1);
	}
	int st;
	waitpid(pid, &st, 0);
	if (WIFSIGNALED(st))
		printf("bad uc_regs: killed by signal %d\n", WTERMSIG(st));
	else
		printf("bad uc_regs: exited %d\n", WEXITSTATUS(st));
	return 0;
}
