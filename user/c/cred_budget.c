/* cred_budget: queued signals and POSIX timers are counted per user.
 *
 * A child dropped to uid 1000 fills its user's RLIMIT_SIGPENDING with RT
 * signals queued to itself (blocked), and its timer budget with
 * timer_create, until both are EAGAIN. Its parent, still root, can then
 * queue a signal and make a timer: one user's flood does not take
 * another's room, and a signal forged to look like a timer's (which the
 * kernel never refuses) counts like any other. The limits are the machine's (the host's differ), so the
 * test checks them on Sigil only.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int fill_signals(void)
{
	int n = 0;
	while (sigqueue(getpid(), SIGRTMIN, (union sigval){ .sival_int = n }) == 0)
		n++;
	printf("uid %d: %d RT signals queued, then %s\n", getuid(), n, strerror(errno));
	return n;
}

static int fill_timers(void)
{
	struct sigevent sev = { .sigev_notify = SIGEV_NONE };
	timer_t t;
	int n = 0;
	while (timer_create(CLOCK_MONOTONIC, &sev, &t) == 0)
		n++;
	printf("uid %d: %d timers, then %s\n", getuid(), n, strerror(errno));
	return n;
}

int main(void)
{
	sigset_t rt;
	int p[2];
	char c;

	setvbuf(stdout, NULL, _IONBF, 0);
	sigemptyset(&rt);
	sigaddset(&rt, SIGRTMIN);
	sigprocmask(SIG_BLOCK, &rt, NULL);
	pipe(p);
	pid_t pid = fork();
	if (pid == 0) {
		setuid(1000);
		fill_signals();
		/* A signal that claims to be a timer's is counted all the same. */
		siginfo_t si = { .si_signo = SIGRTMIN, .si_code = SI_TIMER };
		errno = 0;
		int r = syscall(SYS_rt_sigqueueinfo, getpid(), SIGRTMIN, &si);
		printf("uid 1000: one more with si_code SI_TIMER: %s\n", r == 0 ? "ok" : strerror(errno));
		fill_timers();
		write(p[1], "x", 1);
		for (;;)
			pause();
	}
	read(p[0], &c, 1);
	errno = 0;
	int r = sigqueue(getpid(), SIGRTMIN, (union sigval){ .sival_int = 1 });
	printf("root queues a signal: %s\n", r == 0 ? "ok" : strerror(errno));
	struct sigevent sev = { .sigev_notify = SIGEV_NONE };
	timer_t t;
	errno = 0;
	r = timer_create(CLOCK_MONOTONIC, &sev, &t);
	printf("root makes a timer: %s\n", r == 0 ? "ok" : strerror(errno));
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	printf("after the child: root fills %d more\n", fill_signals());
	return 0;
}
