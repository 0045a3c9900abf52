/* sig_trampoline: where a handler returns to. Linux ppc32 gives a handler
 * an LR in its vDSO (__kernel_sigtramp32), qemu-ppc in a page of its own,
 * Sigil in its signal page ([sigpage]): never a word of the frame, so the
 * stack holds no code. The two words there make the sigreturn call of the
 * frame's kind; the page cannot be written; unmapped, a handler's return
 * has nowhere to go and the process dies of SIGSEGV.
 */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile uintptr_t lr_seen;

static void on_usr1(int sig)
{
	(void)sig;
	lr_seen = (uintptr_t)__builtin_return_address(0);
}

static void on_info(int sig, siginfo_t *si, void *uc)
{
	(void)sig, (void)si, (void)uc;
	lr_seen = (uintptr_t)__builtin_return_address(0);
}

/* Raises SIGUSR1 with a handler of the kind asked for; the handler's LR. */
static uintptr_t lr_of(int siginfo)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	if (siginfo) {
		sa.sa_sigaction = on_info;
		sa.sa_flags = SA_SIGINFO;
	} else {
		sa.sa_handler = on_usr1;
	}
	sigaction(SIGUSR1, &sa, NULL);
	lr_seen = 0;
	raise(SIGUSR1);
	return lr_seen;
}

/* Does the code at `lr` make system call `nr` (`li r0,nr; sc`)? */
static int calls(uintptr_t lr, unsigned nr)
{
	const uint32_t *w = (const uint32_t *)lr;
	return w[0] == (0x38000000u | nr) && w[1] == 0x44000002u;
}

static void report(const char *what, int status)
{
	if (WIFSIGNALED(status))
		printf("%s: killed by %d (%s)\n", what, WTERMSIG(status), strsignal(WTERMSIG(status)));
	else
		printf("%s: exit %d\n", what, WEXITSTATUS(status));
}

int main(void)
{
	int local;
	uintptr_t sp = (uintptr_t)&local;
	uintptr_t classic = lr_of(0), rt = lr_of(1);
	printf("classic handler's LR makes sigreturn (li r0,%d; sc): %s\n", SYS_sigreturn,
	       calls(classic, SYS_sigreturn) ? "yes" : "no");
	printf("SA_SIGINFO handler's LR makes rt_sigreturn (li r0,%d; sc): %s\n", SYS_rt_sigreturn,
	       calls(rt, SYS_rt_sigreturn) ? "yes" : "no");
	printf("LR on the stack (within 1 MiB of main's frame): %s\n",
	       (classic > sp - (1 << 20) && classic < sp + (1 << 20)) ? "yes" : "no");
	printf("both in one page: %s\n", (classic ^ rt) < 4096 ? "yes" : "no");

	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		*(volatile uint32_t *)rt = 0; /* the trampoline is not writable */
		_exit(0);
	}
	int status;
	waitpid(pid, &status, 0);
	report("a store to the trampoline", status);

	pid = fork();
	if (pid == 0) {
		munmap((void *)(rt & ~(uintptr_t)4095), 4096);
		lr_of(1); /* the handler runs, then returns to nothing */
		_exit(0);
	}
	waitpid(pid, &status, 0);
	report("a handler's return with the page unmapped", status);

	printf("after fork, the child's handlers return too: ");
	fflush(stdout);
	pid = fork();
	if (pid == 0)
		_exit(lr_of(1) == rt && lr_of(0) == classic ? 7 : 1);
	waitpid(pid, &status, 0);
	report("child", status);
	return 0;
}
