/* sig_midcopy: a register set whose copy faults halfway through.
 *
 * The kernel copies the registers (mc_gregs) between its trap frame and a
 * user mcontext with lmw/stmw (Sigil's copy_words44 and copy_words39). Here
 * the user side of that copy starts in a writable page and runs into a
 * PROT_NONE one, so the fault comes in the middle of one multiple-word
 * access:
 * - swapcontext saving into a ucontext whose mc_gregs straddle the boundary
 *   (the kernel's stores fault): the call fails with EFAULT;
 * - sigreturn from a classic frame whose sigcontext.regs points at an
 *   mcontext straddling the boundary (the kernel's loads fault), word-aligned
 *   and not (the unaligned one takes the word-by-word path): SIGSEGV.
 * Nothing else may happen: no oops, no kernel value in a register.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <ucontext.h>
#include <unistd.h>

#define PAGE 4096ul

/* sigreturn with r1 = sp; spins if the kernel ever comes back. */
static void __attribute__((noreturn)) sigreturn_with_sp(unsigned long sp)
{
	register long r0 __asm__("r0") = SYS_sigreturn;
	register unsigned long r5 __asm__("r5") = sp;
	__asm__ volatile("mr 1,5\n sc\n 1: b 1b" : : "r"(r0), "r"(r5) : "memory");
	__builtin_unreachable();
}

/* Two pages, the second made inaccessible: returns the boundary. */
static unsigned long boundary(void)
{
	char *p = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED || mprotect(p + PAGE, PAGE, PROT_NONE) != 0)
		_exit(40);
	return (unsigned long)p + PAGE;
}

static void sigreturn_child(long mc_before_boundary)
{
	unsigned long b = boundary();
	/* The frame (r1 + 64: the sigcontext, regs at +28) well below. */
	unsigned long sp = b - 2048;
	memset((void *)sp, 0, 1024);
	*(unsigned long *)(sp + 64 + 28) = b - mc_before_boundary;
	alarm(10);
	sigreturn_with_sp(sp);
}

int main(void)
{
	struct rlimit nocore = { 0, 0 };
	static const long mc_offsets[] = { 40, 42 };

	setvbuf(stdout, NULL, _IONBF, 0);
	setrlimit(RLIMIT_CORE, &nocore);

	/* The ucontext's uc_mcontext (offset 192, rounded down to 16 by the
	 * kernel) starts 48 bytes before the boundary: mc_gregs' 12th word is
	 * the first that faults. */
	unsigned long b = boundary();
	long r = syscall(SYS_swapcontext, (void *)(b - 232), NULL, sizeof(ucontext_t));
	printf("swapcontext into a straddling ucontext: %ld (%s)\n", r, r ? strerror(errno) : "ok");

	for (unsigned i = 0; i < sizeof mc_offsets / sizeof mc_offsets[0]; i++) {
		int status;
		pid_t pid = fork();
		if (pid == 0)
			sigreturn_child(mc_offsets[i]);
		waitpid(pid, &status, 0);
		if (WIFSIGNALED(status))
			printf("sigreturn, mcontext %ld bytes before the boundary: killed by %d (%s)\n",
			       mc_offsets[i], WTERMSIG(status), strsignal(WTERMSIG(status)));
		else
			printf("sigreturn, mcontext %ld bytes before the boundary: exited %d\n",
			       mc_offsets[i], WEXITSTATUS(status));
	}
	return 0;
}
