/* sig_badstack: a signal frame that cannot be written kills with SIGSEGV.
 *
 * Each child installs a handler, points r1 somewhere no frame can go and
 * sends itself SIGUSR1 with a raw tkill (no C code may run with that r1):
 * NULL, 0x10 (the frame would wrap below 0), a kernel address, the very top
 * of the address space; and a normal r1 with an alternate stack placed at a
 * kernel address. The kernel must not write the frame anywhere: the child
 * dies of SIGSEGV, also when it has a SIGSEGV handler (that frame fails too).
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static void handler(int sig)
{
	(void)sig;
	_exit(50); /* reaching a handler at all would be a bug */
}

/* tkill(tid, SIGUSR1) with r1 = sp; spins if the kernel ever comes back. */
static void __attribute__((noreturn)) tkill_with_sp(unsigned long sp, long tid)
{
	register long r0 __asm__("r0") = SYS_tkill;
	register long r3 __asm__("r3") = tid;
	register long r4 __asm__("r4") = SIGUSR1;
	register unsigned long r5 __asm__("r5") = sp;
	__asm__ volatile("mr 1,5\n sc\n 1: b 1b" : : "r"(r0), "r"(r3), "r"(r4), "r"(r5) : "memory");
	__builtin_unreachable();
}

struct variant {
	const char *what;
	unsigned long sp;
	int siginfo;     /* SA_SIGINFO (rt frame) or not */
	int segv_handler; /* also handle SIGSEGV */
	int altstack;    /* SA_ONSTACK with ss_sp at a kernel address */
};

static const struct variant variants[] = {
	{ "r1 = 0, rt frame", 0, 1, 0, 0 },
	{ "r1 = 0, old frame", 0, 0, 0, 0 },
	{ "r1 = 0x10, rt frame", 0x10, 1, 0, 0 },
	{ "r1 = 0xc0001000, rt frame", 0xc0001000ul, 1, 0, 0 },
	{ "r1 = 0xc0001000, old frame", 0xc0001000ul, 0, 0, 0 },
	{ "r1 = 0xfffffff0, rt frame", 0xfffffff0ul, 1, 0, 0 },
	{ "r1 = 0xc0001000, with a SIGSEGV handler", 0xc0001000ul, 1, 1, 0 },
	{ "alternate stack at 0xc0000000", 0, 1, 0, 1 },
};

static void child(const struct variant *v)
{
	struct sigaction sa;
	long tid = syscall(SYS_gettid);

	alarm(10); /* a hung child shows up as SIGALRM, not a hung test */
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = handler;
	sa.sa_flags = (v->siginfo ? SA_SIGINFO : 0) | (v->altstack ? SA_ONSTACK : 0);
	sigaction(SIGUSR1, &sa, NULL);
	if (v->segv_handler)
		sigaction(SIGSEGV, &sa, NULL);
	if (v->altstack) {
		stack_t ss;
		memset(&ss, 0, sizeof ss);
		ss.ss_sp = (void *)0xc0000000ul;
		ss.ss_size = 64 * 1024;
		if (sigaltstack(&ss, NULL) != 0)
			_exit(40);
		raise(SIGUSR1);
		_exit(41);
	}
	tkill_with_sp(v->sp, tid);
}

int main(void)
{
	struct rlimit nocore = { 0, 0 };

	setvbuf(stdout, NULL, _IONBF, 0);
	setrlimit(RLIMIT_CORE, &nocore);
	for (unsigned i = 0; i < sizeof variants / sizeof variants[0]; i++) {
		int status;
		pid_t pid = fork();
		if (pid == 0)
			child(&variants[i]);
		waitpid(pid, &status, 0);
		if (WIFSIGNALED(status))
			printf("%s: killed by %d (%s)\n", variants[i].what, WTERMSIG(status), strsignal(WTERMSIG(status)));
		else
			printf("%s: exited %d\n", variants[i].what, WEXITSTATUS(status));
	}
	return 0;
}
