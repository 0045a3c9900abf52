/* sig_mask: blocking, pending and the coalescing of standard signals.
 *
 * Three raises of a blocked SIGUSR1 leave one pending signal and give one
 * delivery when unblocked. Checks old-mask reporting, SIG_SETMASK/UNBLOCK,
 * that SIGKILL/SIGSTOP cannot be blocked, the sigsetsize check of the raw
 * syscall, mask inheritance and pending non-inheritance across fork, and the
 * order in which several pending signals run once unblocked together.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile sig_atomic_t count;
static volatile char order[16];
static volatile sig_atomic_t norder;

static void counter(int sig)
{
	(void)sig;
	count++;
}

static void recorder(int sig)
{
	if (norder < (sig_atomic_t)sizeof order)
		order[norder++] = sig == SIGUSR1 ? '1' : sig == SIGUSR2 ? '2' : sig == SIGALRM ? 'A' : '?';
}

static int is_blocked(int sig)
{
	sigset_t now;
	sigprocmask(SIG_BLOCK, NULL, &now);
	return sigismember(&now, sig);
}

static int is_pending(int sig)
{
	sigset_t p;
	sigpending(&p);
	return sigismember(&p, sig);
}

int main(void)
{
	sigset_t set, old;

	setvbuf(stdout, NULL, _IONBF, 0);
	signal(SIGUSR1, counter);

	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, &old);
	printf("old mask had SIGUSR1: %s\n", sigismember(&old, SIGUSR1) ? "yes" : "no");
	printf("SIGUSR1 blocked: %s\n", is_blocked(SIGUSR1) ? "yes" : "no");
	raise(SIGUSR1);
	raise(SIGUSR1);
	raise(SIGUSR1);
	printf("after 3 raises while blocked: count %d, pending %s\n", (int)count, is_pending(SIGUSR1) ? "yes" : "no");
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	printf("after unblock: count %d, pending %s\n", (int)count, is_pending(SIGUSR1) ? "yes" : "no");

	/* SIG_SETMASK replaces the mask and reports the old one. */
	sigemptyset(&set);
	sigaddset(&set, SIGUSR2);
	sigprocmask(SIG_SETMASK, &set, NULL);
	sigemptyset(&set);
	sigaddset(&set, SIGHUP);
	sigprocmask(SIG_SETMASK, &set, &old);
	printf("SETMASK old had SIGUSR2: %s, now SIGUSR2 %s SIGHUP %s\n", sigismember(&old, SIGUSR2) ? "yes" : "no",
	       is_blocked(SIGUSR2) ? "blocked" : "unblocked", is_blocked(SIGHUP) ? "blocked" : "unblocked");

	/* SIGKILL and SIGSTOP are silently left out of any mask. */
	sigfillset(&set);
	sigprocmask(SIG_SETMASK, &set, NULL);
	printf("fill mask: SIGKILL blocked %s, SIGSTOP blocked %s, SIGTERM blocked %s\n",
	       is_blocked(SIGKILL) ? "yes" : "no", is_blocked(SIGSTOP) ? "yes" : "no", is_blocked(SIGTERM) ? "yes" : "no");
	sigemptyset(&set);
	sigprocmask(SIG_SETMASK, &set, NULL);

	/* Bad arguments to the raw syscall. */
	errno = 0;
	long r = syscall(SYS_rt_sigprocmask, 99, &set, NULL, 8);
	printf("bad how: %ld, errno %s\n", r, strerror(errno));
	errno = 0;
	r = syscall(SYS_rt_sigprocmask, SIG_BLOCK, &set, NULL, 4);
	printf("sigsetsize 4: %ld, errno %s\n", r, strerror(errno));

	/* Across fork: the mask is inherited, pending signals are not. */
	sigemptyset(&set);
	sigaddset(&set, SIGUSR2);
	sigprocmask(SIG_BLOCK, &set, NULL);
	raise(SIGUSR2);
	pid_t pid = fork();
	if (pid == 0)
		_exit((is_blocked(SIGUSR2) ? 1 : 0) | (is_pending(SIGUSR2) ? 2 : 0));
	int status;
	waitpid(pid, &status, 0);
	printf("child: mask inherited %s, pending inherited %s\n", WEXITSTATUS(status) & 1 ? "yes" : "no",
	       WEXITSTATUS(status) & 2 ? "yes" : "no");
	printf("parent still has SIGUSR2 pending: %s\n", is_pending(SIGUSR2) ? "yes" : "no");
	signal(SIGUSR2, SIG_IGN); /* ignoring a pending signal discards it */
	printf("after SIG_IGN, SIGUSR2 pending: %s\n", is_pending(SIGUSR2) ? "yes" : "no");

	/* Several pending signals unblocked at once: record the order handlers run. */
	signal(SIGUSR1, recorder);
	signal(SIGUSR2, recorder);
	signal(SIGALRM, recorder);
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigaddset(&set, SIGUSR2);
	sigaddset(&set, SIGALRM);
	sigprocmask(SIG_BLOCK, &set, NULL);
	raise(SIGALRM);
	raise(SIGUSR2);
	raise(SIGUSR1);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	printf("three pending, unblocked together, handlers ran: %.*s\n", (int)norder, (const char *)order);

	/* Same, but each handler blocks the others (sa_mask): lowest number first. */
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = recorder;
	sa.sa_mask = set;
	sigaction(SIGUSR1, &sa, NULL);
	sigaction(SIGUSR2, &sa, NULL);
	sigaction(SIGALRM, &sa, NULL);
	norder = 0;
	sigprocmask(SIG_BLOCK, &set, NULL);
	raise(SIGALRM);
	raise(SIGUSR2);
	raise(SIGUSR1);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	printf("with sa_mask blocking the others: %.*s\n", (int)norder, (const char *)order);
	return 0;
}
