/* sig_rules: signal rules where Linux is precise and easy to get wrong.
 *
 * - The handler's mask after sigsuspend is built from the sigsuspend mask
 *   (the mask before the call only goes into the frame).
 * - A periodic POSIX timer whose signal is ignored (SIG_DFL SIGCONT counts as
 *   ignored) keeps running: once a handler is installed its signal arrives,
 *   with the missed periods as the overrun.
 * - tgkill with tgid 0 is EINVAL; rt_sigpending accepts a size up to 8;
 *   timer_create(SIGEV_THREAD) through the raw syscall signals the process
 *   as SIGEV_SIGNAL; the old sigaction/sigprocmask/sigpending calls work.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static volatile int usr2_nested, in_usr1, usr2_runs, cont_runs, cont_overrun;

static void on_usr1(int sig)
{
	in_usr1 = 1;
	raise(SIGUSR2);
	in_usr1 = 0;
}

static void on_usr2(int sig)
{
	usr2_runs++;
	usr2_nested |= in_usr1;
}

static void on_cont(int sig, siginfo_t *si, void *uc)
{
	if (cont_runs++ == 0)
		cont_overrun = si->si_overrun;
}

static void sigsuspend_mask(void)
{
	sigset_t set, old, tmp;
	signal(SIGUSR1, on_usr1);
	signal(SIGUSR2, on_usr2);
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, &old);
	raise(SIGUSR1);
	sigemptyset(&tmp);
	sigaddset(&tmp, SIGUSR2);
	sigsuspend(&tmp);
	printf("sigsuspend(mask {USR2}): SIGUSR2 raised in the SIGUSR1 handler ran nested: %s, ran after: %s\n",
	       usr2_nested ? "yes" : "no", usr2_runs == 1 && !usr2_nested ? "yes" : "no");
	sigprocmask(SIG_SETMASK, &old, NULL);
}

/* A 1 ms periodic timer signalling `sig`, left ignored (by `how`) for 50 ms,
 * then given a handler: how many signals came in 20 ms and the first overrun. */
static void ignored_timer(int sig, const char *how)
{
	timer_t t;
	struct sigevent sev = { .sigev_notify = SIGEV_SIGNAL, .sigev_signo = sig };
	struct itimerspec its = { .it_value = { 0, 1000000 }, .it_interval = { 0, 1000000 } };
	struct timespec ms50 = { 0, 50000000 }, ms20 = { 0, 20000000 };
	cont_runs = 0;
	cont_overrun = -1;
	timer_create(CLOCK_MONOTONIC, &sev, &t);
	timer_settime(t, 0, &its, NULL);
	nanosleep(&ms50, NULL);
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = on_cont;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigaction(sig, &sa, NULL);
	while (nanosleep(&ms20, &ms20) < 0 && errno == EINTR)
		;
	timer_delete(t);
	signal(sig, SIG_DFL);
	printf("periodic timer, signal %s for 50 ms, then a handler: signals arrive: %s, the first overrun counts the ignored periods (>= 40): %s\n",
	       how, cont_runs >= 2 ? "yes" : "no", cont_overrun >= 40 ? "yes" : "no");
}

static void small_calls(void)
{
	errno = 0;
	long r = syscall(SYS_tgkill, 0, getpid(), 0);
	printf("tgkill(0, pid, 0): %ld, %s\n", r, strerror(errno));

	sigset_t set, old;
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, &old);
	signal(SIGUSR1, SIG_DFL);
	raise(SIGUSR1);
	unsigned words[2] = { 0xffffffff, 0xffffffff };
	r = syscall(SYS_rt_sigpending, words, 4);
	printf("rt_sigpending(set, 4): %ld, word 0 has SIGUSR1: %s, word 1 untouched: %s\n", r,
	       words[0] == 1u << (SIGUSR1 - 1) ? "yes" : "no", words[1] == 0xffffffff ? "yes" : "no");
	r = syscall(SYS_rt_sigpending, words, 9);
	printf("rt_sigpending(set, 9): %ld, %s\n", r, strerror(errno));
	unsigned old_pending = 0;
	r = syscall(SYS_sigpending, &old_pending);
	printf("sigpending (old call): %ld, has SIGUSR1: %s\n", r, old_pending == 1u << (SIGUSR1 - 1) ? "yes" : "no");
	signal(SIGUSR1, SIG_IGN);
	sigprocmask(SIG_SETMASK, &old, NULL);

	unsigned mask = 1u << (SIGUSR2 - 1), oldmask = 0xdead;
	r = syscall(SYS_sigprocmask, SIG_BLOCK, &mask, &oldmask);
	sigset_t now;
	sigprocmask(SIG_SETMASK, NULL, &now);
	printf("sigprocmask (old call) SIG_BLOCK USR2: %ld, old mask 0: %s, USR2 now blocked: %s\n", r,
	       oldmask == 0 ? "yes" : "no", sigismember(&now, SIGUSR2) ? "yes" : "no");
	sigprocmask(SIG_SETMASK, &old, NULL);

	struct { unsigned handler, mask, flags, restorer; } oact = { 1, 1, 1, 1 }, act = { 0 };
	act.handler = (unsigned)(unsigned long)on_usr2;
	r = syscall(SYS_sigaction, SIGUSR2, &act, NULL);
	syscall(SYS_sigaction, SIGUSR2, NULL, &oact);
	usr2_runs = 0;
	raise(SIGUSR2);
	printf("sigaction (old call): %ld, handler read back: %s, it runs: %s\n", r,
	       oact.handler == act.handler ? "yes" : "no", usr2_runs == 1 ? "yes" : "no");

	struct { int value, signo, notify, pad[13]; } ev = { 5, SIGUSR2, SIGEV_THREAD };
	int id = -1;
	r = syscall(SYS_timer_create, CLOCK_MONOTONIC, &ev, &id);
	printf("timer_create(SIGEV_THREAD) raw: %ld\n", r);
	if (r == 0) {
		struct itimerspec its = { .it_value = { 0, 1000000 } };
		struct timespec ms5 = { 0, 5000000 };
		usr2_runs = 0;
		syscall(SYS_timer_settime, id, 0, &its, NULL);
		while (nanosleep(&ms5, &ms5) < 0)
			;
		printf("its expiry signals the process: %s\n", usr2_runs == 1 ? "yes" : "no");
		syscall(SYS_timer_delete, id);
	}
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	sigsuspend_mask();
	ignored_timer(SIGCONT, "SIGCONT at SIG_DFL");
	signal(SIGUSR1, SIG_IGN);
	ignored_timer(SIGUSR1, "SIGUSR1 at SIG_IGN");
	small_calls();
	return 0;
}
