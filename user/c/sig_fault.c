/* sig_fault: signals raised by the CPU, caught and survived.
 *
 * A SA_SIGINFO handler records si_signo/si_code/si_addr and siglongjmp()s back:
 * SIGSEGV from a NULL write (SEGV_MAPERR, si_addr 0), from an unmapped page
 * (SEGV_MAPERR) and from a read-only page (exact address);
 * SIGILL from an illegal instruction (ILL_ILLOPC) and a privileged one
 * (ILL_PRVOPC), si_addr = that instruction; SIGTRAP from `trap`. (PowerPC
 * integer division never traps, so there is no SIGFPE case.) A handler that
 * edits the saved registers instead (skip the instruction: NIP += 4, and
 * r3 += 100) shows sigreturn restores them. Finally a fault with SIGSEGV
 * blocked kills the process (in a child).
 */
#define _GNU_SOURCE /* TRAP_BRKPT */
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#define PT_R3 3
#define PT_NIP 32

/* Tiny assembly routines whose instruction addresses the checks compare. */
int illegal_insn(void);
int privileged_insn(void);
int trap_insn(void);
int skip_me(void);
__asm__(".text\n"
	".globl illegal_insn\n illegal_insn: .long 0\n blr\n"
	".globl privileged_insn\n privileged_insn: mfmsr 3\n blr\n"
	".globl trap_insn\n trap_insn: trap\n blr\n"
	/* r3 = 1, fault, r3 += 41: returns 42, or 142 if the handler added 100 to the saved r3. */
	".globl skip_me\n skip_me: li 3,1\n .long 0\n addi 3,3,41\n blr\n");

static sigjmp_buf env;
static volatile int got_signo, got_code;
static volatile uintptr_t got_addr;

static void jump_back(int sig, siginfo_t *si, void *ctx)
{
	(void)ctx;
	got_signo = sig;
	got_code = si->si_code;
	got_addr = (uintptr_t)si->si_addr;
	siglongjmp(env, 1);
}

static void skip_insn(int sig, siginfo_t *si, void *ctx)
{
	ucontext_t *uc = ctx;

	got_signo = sig;
	got_addr = (uintptr_t)si->si_addr;
	uc->uc_mcontext.uc_regs->gregs[PT_NIP] += 4;
	uc->uc_mcontext.uc_regs->gregs[PT_R3] += 100;
}

static void install(int sig, void (*h)(int, siginfo_t *, void *))
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = h;
	sa.sa_flags = SA_SIGINFO;
	sigaction(sig, &sa, NULL);
}

static void report(const char *what, uintptr_t want_addr)
{
	printf("%s: signal %d (%s), code %d, si_addr %s\n", what, got_signo, strsignal(got_signo), got_code,
	       got_addr == want_addr ? "as expected" : "WRONG");
	got_signo = got_code = 0;
	got_addr = 1;
}

/* For a write to a read-only page Linux says SEGV_ACCERR but qemu-ppc 7.2 says
 * SEGV_MAPERR, so the code is only checked to be one of the two. */
static void report_protection(const char *what, uintptr_t want_addr)
{
	printf("%s: signal %d (%s), code %s, si_addr %s\n", what, got_signo, strsignal(got_signo),
	       got_code == SEGV_ACCERR || got_code == SEGV_MAPERR ? "a SEGV code" : "WRONG",
	       got_addr == want_addr ? "as expected" : "WRONG");
	got_signo = got_code = 0;
	got_addr = 1;
}

int main(void)
{
	struct rlimit nocore = { 0, 0 };
	volatile int *volatile target;

	setvbuf(stdout, NULL, _IONBF, 0);
	setrlimit(RLIMIT_CORE, &nocore);
	install(SIGSEGV, jump_back);
	install(SIGILL, jump_back);
	install(SIGTRAP, jump_back);
	printf("SEGV_MAPERR=%d SEGV_ACCERR=%d ILL_ILLOPC=%d ILL_PRVOPC=%d TRAP_BRKPT=%d\n", SEGV_MAPERR, SEGV_ACCERR,
	       ILL_ILLOPC, ILL_PRVOPC, TRAP_BRKPT);

	target = NULL;
	if (sigsetjmp(env, 1) == 0)
		*target = 1;
	report("NULL write", 0);

	char *m = mmap(NULL, 2 * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	munmap(m + 4096, 4096);
	target = (volatile int *)(m + 4096 + 16);
	if (sigsetjmp(env, 1) == 0)
		(void)*target;
	report("read of an unmapped page", (uintptr_t)(m + 4096 + 16));

	mprotect(m, 4096, PROT_READ);
	target = (volatile int *)(m + 8);
	if (sigsetjmp(env, 1) == 0)
		*target = 1;
	report_protection("write to a read-only page", (uintptr_t)(m + 8));

	if (sigsetjmp(env, 1) == 0)
		illegal_insn();
	report("illegal instruction", (uintptr_t)illegal_insn);

	if (sigsetjmp(env, 1) == 0)
		privileged_insn();
	report("mfmsr in user mode", (uintptr_t)privileged_insn);

	if (sigsetjmp(env, 1) == 0)
		trap_insn();
	report("trap instruction", (uintptr_t)trap_insn);

	/* siglongjmp restored the mask saved by sigsetjmp: nothing is blocked. */
	sigset_t now;
	sigprocmask(SIG_BLOCK, NULL, &now);
	printf("after siglongjmp: SIGSEGV blocked %s, SIGILL blocked %s\n", sigismember(&now, SIGSEGV) ? "yes" : "no",
	       sigismember(&now, SIGILL) ? "yes" : "no");

	install(SIGILL, skip_insn);
	int r = skip_me();
	printf("handler skipped the instruction: returned %d (42 + 100 from the edited r3), si_addr %s\n", r,
	       got_addr == (uintptr_t)skip_me + 4 ? "as expected" : "WRONG");
	r = skip_me();
	printf("and again: returned %d\n", r);

	/* A fault while SIGSEGV is blocked cannot be handled: the process dies. */
	pid_t pid = fork();
	if (pid == 0) {
		sigset_t segv;
		sigemptyset(&segv);
		sigaddset(&segv, SIGSEGV);
		sigprocmask(SIG_BLOCK, &segv, NULL);
		target = NULL;
		*target = 1;
		_exit(0);
	}
	int status;
	waitpid(pid, &status, 0);
	printf("NULL write with SIGSEGV blocked: %s %d\n", WIFSIGNALED(status) ? "killed by" : "exited",
	       WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
	return 0;
}
