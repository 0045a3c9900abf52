/* timer_alarm: alarm() and setitimer(ITIMER_REAL) as SIGALRM sources.
 *
 * alarm returns the seconds the previous alarm had left, rounded as Linux
 * rounds them (to the nearest second, never 0 while one is pending);
 * SIGALRM arrives with si_code SI_KERNEL; a periodic ITIMER_REAL keeps
 * firing, one SIGALRM per period however late the receiver is; getitimer
 * shows the interval exactly and the value truncated to microseconds; a
 * forked child starts with no alarm while the parent's keeps running.
 * Times are printed as facts about them, never raw, so output is the same
 * on Sigil and under qemu-ppc.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "timing.h"

static volatile sig_atomic_t alarms, last_code;

static void on_alrm(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	alarms++;
	last_code = si->si_code;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

int main(void)
{
	struct sigaction sa;
	struct itimerval it, old;
	sigset_t alrm;

	setvbuf(stdout, NULL, _IONBF, 0);
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = on_alrm;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGALRM, &sa, NULL);

	printf("alarm(5) with none pending: %u\n", alarm(5));
	printf("alarm(3) right after alarm(5): %u\n", alarm(3));
	sleep_ms(700);
	printf("alarm(0) 0.7 s after alarm(3): %u\n", alarm(0));
	alarm(1);
	sleep_ms(600);
	printf("alarm(0) 0.6 s after alarm(1): %u\n", alarm(0));
	printf("alarm(0) with none pending: %u\n", alarm(0));

	/* One SIGALRM from alarm(1), caught while pause() waits. */
	long t0 = now_ms();
	alarm(1);
	int r = pause();
	int e = errno;
	long dt = now_ms() - t0;
	printf("pause until alarm(1): returned %d (%s), alarms %d, si_code %d (SI_KERNEL), after 1 s: %s\n",
	       r, strerror(e), alarms, last_code, yes(dt >= 1000));

	/* ITIMER_REAL: 100 ms, then every 50 ms. */
	memset(&it, 0, sizeof it);
	it.it_value.tv_usec = 100000;
	it.it_interval.tv_usec = 50000;
	setitimer(ITIMER_REAL, &it, &old);
	printf("old itimer: %ld.%06ld / %ld.%06ld\n", (long)old.it_value.tv_sec, (long)old.it_value.tv_usec,
	       (long)old.it_interval.tv_sec, (long)old.it_interval.tv_usec);
	getitimer(ITIMER_REAL, &old);
	printf("getitimer: interval %ld us, value in (50, 100] ms: %s\n", (long)old.it_interval.tv_usec,
	       yes(old.it_value.tv_sec == 0 && old.it_value.tv_usec > 50000 && old.it_value.tv_usec <= 100000));
	alarms = 0;
	t0 = now_ms();
	while (alarms < 4)
		pause();
	dt = now_ms() - t0;
	printf("4 periodic SIGALRMs in 250 ms or more: %s\n", yes(dt >= 240));

	/* Blocked for 300 ms (6 periods): one SIGALRM comes out, not six. */
	sigemptyset(&alrm);
	sigaddset(&alrm, SIGALRM);
	sigprocmask(SIG_BLOCK, &alrm, NULL);
	alarms = 0;
	sleep_ms(300);
	getitimer(ITIMER_REAL, &old);
	printf("while SIGALRM waits blocked, the timer is stopped: value %ld.%06ld\n", (long)old.it_value.tv_sec,
	       (long)old.it_value.tv_usec);
	sigprocmask(SIG_UNBLOCK, &alrm, NULL);
	printf("after 300 ms blocked: SIGALRMs delivered %d\n", alarms);
	getitimer(ITIMER_REAL, &old);
	printf("re-armed at delivery: value in (0, 50] ms: %s\n",
	       yes(old.it_value.tv_sec == 0 && old.it_value.tv_usec > 0 && old.it_value.tv_usec <= 50000));
	memset(&it, 0, sizeof it);
	setitimer(ITIMER_REAL, &it, &old);
	printf("disarmed; old interval %ld us\n", (long)old.it_interval.tv_usec);
	getitimer(ITIMER_REAL, &old);
	printf("getitimer after disarm: %ld.%06ld / %ld.%06ld\n", (long)old.it_value.tv_sec, (long)old.it_value.tv_usec,
	       (long)old.it_interval.tv_sec, (long)old.it_interval.tv_usec);

	/* fork: the child has no alarm; the parent's still fires. */
	alarms = 0;
	alarm(1);
	pid_t pid = fork();
	if (pid == 0) {
		getitimer(ITIMER_REAL, &old);
		printf("child: getitimer %ld.%06ld, alarm(0) %u\n", (long)old.it_value.tv_sec, (long)old.it_value.tv_usec,
		       alarm(0));
		_exit(0);
	}
	int status;
	waitpid(pid, &status, 0);
	while (alarms == 0)
		pause();
	printf("parent: its alarm still fired: %d\n", alarms);

	printf("setitimer(ITIMER_REAL, bad usec): %d\n", setitimer(ITIMER_REAL, &(struct itimerval){ { 0, 0 }, { 0, 1000000 } }, NULL) == 0 ? 0 : -errno);
	printf("getitimer(99): %s\n", getitimer(99, &old) == 0 ? "ok" : strerror(errno));
	return 0;
}
