/* sig_altstack: sigaltstack and SA_ONSTACK.
 *
 * A SA_ONSTACK handler runs on the alternate stack (the address of one of its
 * locals lies inside it) and sees SS_ONSTACK; a handler without SA_ONSTACK
 * stays on the normal stack. The ucontext's uc_stack describes the
 * alternate stack. Checks the errors: too small (ENOMEM), bad flags (EINVAL),
 * changing it while running on it (EPERM), and SS_DISABLE.
 */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define ALT_SIZE (64 * 1024)

static char alt[ALT_SIZE] __attribute__((aligned(16)));
static volatile sig_atomic_t on_alt, flags_inside, eperm_inside, uc_ok, ran;

static int inside_alt(const void *p)
{
	uintptr_t a = (uintptr_t)p;
	return a >= (uintptr_t)alt && a < (uintptr_t)alt + ALT_SIZE;
}

static void handler(int sig, siginfo_t *si, void *ctx)
{
	volatile int local = 0;
	stack_t cur, other;
	ucontext_t *uc = ctx;

	(void)sig;
	(void)si;
	on_alt = inside_alt((const void *)&local);
	sigaltstack(NULL, &cur);
	flags_inside = cur.ss_flags;
	memset(&other, 0, sizeof other);
	other.ss_sp = alt;
	other.ss_size = ALT_SIZE;
	eperm_inside = sigaltstack(&other, NULL) == -1 && errno == EPERM;
	uc_ok = uc->uc_stack.ss_sp == alt && uc->uc_stack.ss_size == ALT_SIZE;
	ran++;
}

static void install(int sig, int flags)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = handler;
	sa.sa_flags = SA_SIGINFO | flags;
	sigaction(sig, &sa, NULL);
}

int main(void)
{
	stack_t ss, old;

	setvbuf(stdout, NULL, _IONBF, 0);

	sigaltstack(NULL, &old);
	printf("initially: SS_DISABLE %s\n", old.ss_flags & SS_DISABLE ? "yes" : "no");

	memset(&ss, 0, sizeof ss);
	ss.ss_sp = alt;
	ss.ss_size = 512;
	errno = 0;
	printf("512-byte stack: %d, errno %s\n", sigaltstack(&ss, NULL), strerror(errno));
	ss.ss_size = ALT_SIZE;
	ss.ss_flags = 0x1234;
	errno = 0;
	printf("bad flags: %d, errno %s\n", sigaltstack(&ss, NULL), strerror(errno));
	ss.ss_flags = 0;
	printf("install 64K stack: %d\n", sigaltstack(&ss, NULL));
	sigaltstack(NULL, &old);
	printf("read back: same base %s, same size %s, flags %d\n", old.ss_sp == alt ? "yes" : "no",
	       old.ss_size == ALT_SIZE ? "yes" : "no", old.ss_flags);

	install(SIGUSR1, SA_ONSTACK);
	raise(SIGUSR1);
	printf("SA_ONSTACK: ran %d, local on alt stack %s, ss_flags inside %d (SS_ONSTACK=%d), EPERM inside %s, uc_stack %s\n",
	       (int)ran, on_alt ? "yes" : "no", (int)flags_inside, SS_ONSTACK, eperm_inside ? "yes" : "no",
	       uc_ok ? "ok" : "WRONG");
	sigaltstack(NULL, &old);
	printf("after the handler: flags %d\n", old.ss_flags);

	install(SIGUSR2, 0);
	raise(SIGUSR2);
	printf("no SA_ONSTACK: local on alt stack %s, ss_flags inside %d\n", on_alt ? "yes" : "no", (int)flags_inside);

	ss.ss_flags = SS_DISABLE;
	printf("disable: %d\n", sigaltstack(&ss, NULL));
	raise(SIGUSR1);
	printf("SA_ONSTACK with the stack disabled: local on alt stack %s, ss_flags inside %d\n", on_alt ? "yes" : "no",
	       (int)flags_inside);
	return 0;
}
