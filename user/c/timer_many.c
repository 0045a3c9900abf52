/* timer_many N: N POSIX timers in flight at once, every expiry accounted.
 *
 * A child blocks SIGRTMIN and arms N one-shot timers (value i) to expire
 * together at an absolute deadline; it then takes N signals with
 * sigwaitinfo and checks each timer's value came exactly once, as
 * SI_TIMER with no overrun. Next, all N become periodic (10 ms) and the
 * child waits 100 ms with the signal blocked: again exactly N signals come,
 * one per timer, each counting the periods it missed in si_overrun. Half
 * the timers are deleted, and the child exits with the other half still
 * armed: the kernel must free them (Sigil's shutdown line reports live
 * timers and queued deadlines). qemu-ppc keeps at most 32 timers, so the
 * comparison runs with N <= 30 and Sigil alone runs N = 1000.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MS 1000000L

static timer_t *timers;
static int *seen;

static struct timespec after(long ns)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	t.tv_nsec += ns;
	t.tv_sec += t.tv_nsec / 1000000000;
	t.tv_nsec %= 1000000000;
	return t;
}

/* Takes n signals; returns how many values were seen exactly once and the
 * smallest overrun and number of bad si_codes through the pointers. */
static int collect(int n, sigset_t *set, int *min_overrun, int *bad)
{
	siginfo_t si;
	int once = 0;
	memset(seen, 0, n * sizeof *seen);
	*min_overrun = 1 << 30;
	*bad = 0;
	for (int k = 0; k < n; k++) {
		if (sigwaitinfo(set, &si) != SIGRTMIN || si.si_code != SI_TIMER || si.si_value.sival_int < 0 ||
		    si.si_value.sival_int >= n) {
			(*bad)++;
			continue;
		}
		seen[si.si_value.sival_int]++;
		if (si.si_overrun < *min_overrun)
			*min_overrun = si.si_overrun;
	}
	for (int i = 0; i < n; i++)
		once += seen[i] == 1;
	return once;
}

static int child(int n)
{
	sigset_t set;
	struct sigevent ev;
	int min_ov, bad, once;
	struct timespec zero = { 0, 0 };
	siginfo_t si;

	sigemptyset(&set);
	sigaddset(&set, SIGRTMIN);
	sigprocmask(SIG_BLOCK, &set, NULL);
	timers = calloc(n, sizeof *timers);
	seen = calloc(n, sizeof *seen);
	memset(&ev, 0, sizeof ev);
	ev.sigev_notify = SIGEV_SIGNAL;
	ev.sigev_signo = SIGRTMIN;
	for (int i = 0; i < n; i++) {
		ev.sigev_value.sival_int = i;
		if (timer_create(CLOCK_MONOTONIC, &ev, &timers[i]) != 0) {
			printf("timer_create %d: %s\n", i, strerror(errno));
			return 1;
		}
	}
	printf("%d timers created\n", n);

	struct itimerspec its = { { 0, 0 }, after(50 * MS) };
	for (int i = 0; i < n; i++)
		timer_settime(timers[i], TIMER_ABSTIME, &its, NULL);
	once = collect(n, &set, &min_ov, &bad);
	printf("one-shot: %d of %d timers delivered exactly once, bad %d, min overrun %d\n", once, n, bad, min_ov);
	printf("nothing more: %s\n", sigtimedwait(&set, &si, &zero) < 0 && errno == EAGAIN ? "yes" : "no");

	its.it_interval.tv_nsec = 10 * MS;
	its.it_value = after(20 * MS);
	for (int i = 0; i < n; i++)
		timer_settime(timers[i], TIMER_ABSTIME, &its, NULL);
	struct timespec wait = after(120 * MS);
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &wait, NULL) == EINTR)
		;
	once = collect(n, &set, &min_ov, &bad);
	printf("periodic, blocked 100 ms: %d of %d timers delivered exactly once, bad %d, overruns >= 5 %s\n", once, n,
	       bad, min_ov >= 5 ? "yes" : "no");

	for (int i = 0; i < n; i += 2)
		timer_delete(timers[i]);
	printf("deleted %d, exiting with %d armed\n", (n + 1) / 2, n / 2);
	return 0;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 30;
	setvbuf(stdout, NULL, _IONBF, 0);
	pid_t pid = fork();
	if (pid == 0)
		_exit(child(n));
	int st;
	waitpid(pid, &st, 0);
	printf("child exited %d\n", WEXITSTATUS(st));
	return 0;
}
