/* sig_suspend: waiting for signals.
 *
 * sigsuspend() sleeps with a temporary mask, returns EINTR after the handler
 * and puts the old mask back; a signal it keeps blocked stays pending.
 * sigwaitinfo()/sigtimedwait() take a blocked pending signal without running
 * a handler (queued RT values come out in order), time out with EAGAIN, and
 * sigwait() wakes when another process sends the signal.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t usr1_hits, usr2_hits;

static void on_usr1(int sig)
{
	(void)sig;
	usr1_hits++;
}

static void on_usr2(int sig)
{
	(void)sig;
	usr2_hits++;
}

static int pending(int sig)
{
	sigset_t p;
	sigpending(&p);
	return sigismember(&p, sig);
}

static pid_t send_later(int sig, int usec)
{
	pid_t parent = getpid();
	pid_t pid = fork();
	if (pid == 0) {
		usleep(usec);
		kill(parent, sig);
		_exit(0);
	}
	return pid;
}

int main(void)
{
	sigset_t block, wait_mask, now;
	siginfo_t si;
	union sigval v;

	setvbuf(stdout, NULL, _IONBF, 0);
	signal(SIGUSR1, on_usr1);
	signal(SIGUSR2, on_usr2);
	sigemptyset(&block);
	sigaddset(&block, SIGUSR1);
	sigaddset(&block, SIGUSR2);
	sigprocmask(SIG_BLOCK, &block, NULL);

	/* sigsuspend with everything unblocked, woken by a child's kill. */
	pid_t child = send_later(SIGUSR1, 50000);
	sigemptyset(&wait_mask);
	errno = 0;
	int r = sigsuspend(&wait_mask);
	printf("sigsuspend: %d, errno %s, handler ran %d\n", r, strerror(errno), (int)usr1_hits);
	sigprocmask(SIG_BLOCK, NULL, &now);
	printf("mask restored: SIGUSR1 blocked %s, SIGUSR2 blocked %s\n", sigismember(&now, SIGUSR1) ? "yes" : "no",
	       sigismember(&now, SIGUSR2) ? "yes" : "no");
	waitpid(child, NULL, 0);

	/* SIGUSR2 already pending and kept blocked by the sigsuspend mask; SIGUSR1 wakes it.
	 * (kill, not raise: qemu-ppc 7.2 reports a raise()d signal taken by sigwaitinfo with
	 * si_code 0 instead of SI_TKILL, so SI_USER is the code both systems agree on.) */
	kill(getpid(), SIGUSR2);
	child = send_later(SIGUSR1, 50000);
	sigemptyset(&wait_mask);
	sigaddset(&wait_mask, SIGUSR2);
	sigsuspend(&wait_mask);
	printf("sigsuspend keeping SIGUSR2 blocked: USR1 handler %d, USR2 handler %d, USR2 pending %s\n",
	       (int)usr1_hits, (int)usr2_hits, pending(SIGUSR2) ? "yes" : "no");
	waitpid(child, NULL, 0);

	/* sigwaitinfo takes the pending SIGUSR2 without running its handler. */
	sigemptyset(&wait_mask);
	sigaddset(&wait_mask, SIGUSR2);
	r = sigwaitinfo(&wait_mask, &si);
	printf("sigwaitinfo: returned %d, si_signo %d, si_code %d, handler ran %d, still pending %s\n", r, si.si_signo,
	       si.si_code, (int)usr2_hits, pending(SIGUSR2) ? "yes" : "no");

	/* sigtimedwait with nothing pending times out. */
	struct timespec timeout = { 0, 100 * 1000 * 1000 };
	errno = 0;
	r = sigtimedwait(&wait_mask, &si, &timeout);
	printf("sigtimedwait(100 ms), nothing pending: %d, errno %s\n", r, strerror(errno));

	/* Queued RT values come out of sigtimedwait in order; zero timeout = poll. */
	sigset_t rt;
	sigemptyset(&rt);
	sigaddset(&rt, SIGRTMIN + 4);
	sigprocmask(SIG_BLOCK, &rt, NULL);
	for (int i = 0; i < 3; i++) {
		v.sival_int = 500 + i;
		sigqueue(getpid(), SIGRTMIN + 4, v);
	}
	struct timespec zero = { 0, 0 };
	printf("sigtimedwait(0) on queued RT:");
	while ((r = sigtimedwait(&rt, &si, &zero)) > 0)
		printf(" RTMIN+%d code %d value %d;", r - SIGRTMIN, si.si_code, si.si_value.sival_int);
	printf(" then errno %s\n", strerror(errno));

	/* sigwait() blocks until another process sends the signal. */
	child = send_later(SIGUSR2, 50000);
	int sig = 0;
	r = sigwait(&wait_mask, &sig);
	printf("sigwait: %d, signal %d, handler ran %d\n", r, sig, (int)usr2_hits);
	waitpid(child, NULL, 0);

	/* sigpending sees several blocked signals at once. */
	raise(SIGUSR1);
	raise(SIGUSR2);
	printf("sigpending: SIGUSR1 %s, SIGUSR2 %s, SIGHUP %s\n", pending(SIGUSR1) ? "yes" : "no",
	       pending(SIGUSR2) ? "yes" : "no", pending(SIGHUP) ? "yes" : "no");
	sigprocmask(SIG_UNBLOCK, &block, NULL);
	printf("after unblocking: USR1 handler %d, USR2 handler %d, anything pending %s\n", (int)usr1_hits,
	       (int)usr2_hits, pending(SIGUSR1) || pending(SIGUSR2) ? "yes" : "no");
	return 0;
}
