/* sig_forged: a handler that forges its saved registers must not gain privilege.
 *
 * Each case runs in a child whose handler edits the frame it will sigreturn
 * through; the parent prints how the child ended. Linux (and qemu-ppc) take
 * only MSR[LE] from the frame, so clearing MSR[PR] or setting every other bit
 * changes nothing: the child stays in user mode, and its next privileged
 * instruction (mfmsr) raises SIGILL; FP still computes right. A NIP in the
 * kernel (0xc0000000) or at 0 faults in user mode: SIGSEGV. Calling
 * sigreturn/rt_sigreturn by hand with r1 at a kernel address or at 0: SIGSEGV.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define PT_NIP 32
#define PT_MSR 33
#define MSR_PR 0x4000ul
#define MSR_LE 0x1ul

enum forge { CLEAR_PR, ALL_BITS, NIP_KERNEL, NIP_ZERO };

static volatile enum forge how;

static void forge(unsigned long *gregs)
{
	switch (how) {
	case CLEAR_PR:
		gregs[PT_MSR] &= ~MSR_PR;
		break;
	case ALL_BITS:
		gregs[PT_MSR] = ~MSR_LE; /* LE is the one bit Linux honours: leave it clear */
		break;
	case NIP_KERNEL:
		gregs[PT_NIP] = 0xc0000000ul;
		break;
	case NIP_ZERO:
		gregs[PT_NIP] = 0;
		break;
	}
}

static void rt_handler(int sig, siginfo_t *si, void *ctx)
{
	ucontext_t *uc = ctx;
	(void)sig;
	(void)si;
	forge(uc->uc_mcontext.uc_regs->gregs);
}

/* Non-RT frames pass a struct sigcontext * as the second argument on PowerPC. */
static void old_handler(int sig, struct sigcontext *sc)
{
	(void)sig;
	forge((unsigned long *)sc->regs);
}

static unsigned long read_msr(void)
{
	unsigned long msr;
	__asm__ volatile("mfmsr %0" : "=r"(msr));
	return msr;
}

/* sigreturn-family syscall with r1 pointing at `sp`: never returns normally. */
static void __attribute__((noreturn)) sigreturn_with_sp(unsigned long nr, unsigned long sp)
{
	register unsigned long r0 __asm__("r0") = nr;
	register unsigned long r5 __asm__("r5") = sp;
	__asm__ volatile("mr 1,5\n sc\n 1: b 1b" : : "r"(r0), "r"(r5) : "memory");
	__builtin_unreachable();
}

static void child_body(int rt)
{
	volatile double x = 1.5;
	struct sigaction sa;

	alarm(10); /* a hung child is reported as killed by SIGALRM, not a hung test */
	memset(&sa, 0, sizeof sa);
	if (rt) {
		sa.sa_sigaction = rt_handler;
		sa.sa_flags = SA_SIGINFO;
	} else {
		sa.sa_handler = (void (*)(int))old_handler;
	}
	sigaction(SIGUSR1, &sa, NULL);
	raise(SIGUSR1);
	/* Back in the program after the forged sigreturn. */
	if (how == ALL_BITS)
		_exit(x * 2.0 == 3.0 ? 30 : 31); /* FP state still sane */
	read_msr(); /* privileged: SIGILL if we are still in user mode */
	_exit(0);
}

static void run(const char *what, enum forge f, int rt)
{
	int status;

	how = f;
	pid_t pid = fork();
	if (pid == 0)
		child_body(rt);
	waitpid(pid, &status, 0);
	if (WIFSIGNALED(status))
		printf("%s: killed by %d (%s)\n", what, WTERMSIG(status), strsignal(WTERMSIG(status)));
	else
		printf("%s: exited %d\n", what, WEXITSTATUS(status));
}

static void run_sigreturn(const char *what, unsigned long nr, unsigned long sp)
{
	int status;
	pid_t pid = fork();
	if (pid == 0) {
		alarm(10);
		sigreturn_with_sp(nr, sp);
	}
	waitpid(pid, &status, 0);
	if (WIFSIGNALED(status))
		printf("%s: killed by %d (%s)\n", what, WTERMSIG(status), strsignal(WTERMSIG(status)));
	else
		printf("%s: exited %d\n", what, WEXITSTATUS(status));
}

int main(void)
{
	struct rlimit nocore = { 0, 0 };

	setvbuf(stdout, NULL, _IONBF, 0);
	setrlimit(RLIMIT_CORE, &nocore);
	run("rt frame, MSR[PR] cleared, then mfmsr", CLEAR_PR, 1);
	run("old frame, MSR[PR] cleared, then mfmsr", CLEAR_PR, 0);
	run("rt frame, every MSR bit but LE set, then FP math (30 = ok)", ALL_BITS, 1);
	run("old frame, every MSR bit but LE set, then FP math (30 = ok)", ALL_BITS, 0);
	run("rt frame, NIP = 0xc0000000", NIP_KERNEL, 1);
	run("old frame, NIP = 0xc0000000", NIP_KERNEL, 0);
	run("rt frame, NIP = 0", NIP_ZERO, 1);
	run_sigreturn("rt_sigreturn with r1 = 0xc0000000", SYS_rt_sigreturn, 0xc0000000ul);
	run_sigreturn("sigreturn with r1 = 0xc0000000", SYS_sigreturn, 0xc0000000ul);
	run_sigreturn("rt_sigreturn with r1 = 0", SYS_rt_sigreturn, 0);
	printf("parent still fine\n");
	return 0;
}
