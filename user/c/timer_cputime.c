/* timer_cputime: POSIX timers on the CPU-time clocks: timer_create with
 * CLOCK_PROCESS_CPUTIME_ID and CLOCK_THREAD_CPUTIME_ID. Their time passes
 * only while the process (or the thread) runs: a timer fires after the
 * program has spun for its time, never while it sleeps. Each line is a
 * fact that holds on Linux whatever the machine's speed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t fired, overruns;
static timer_t current;

static void handler(int sig, siginfo_t *si, void *uc)
{
	(void)sig, (void)uc;
	fired++;
	overruns += si->si_overrun;
	if (si->si_code != SI_TIMER)
		overruns = -1000;
}

static long long cpu_ns(clockid_t c)
{
	struct timespec ts;
	clock_gettime(c, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Spins until `clock` has advanced by `ns` or the timer has fired `want`
 * times; returns the CPU time spun. */
static long long spin(clockid_t clock, long long ns, int want)
{
	long long start = cpu_ns(clock);
	while (cpu_ns(clock) - start < ns && fired < want)
		;
	return cpu_ns(clock) - start;
}

static timer_t make(clockid_t clock)
{
	struct sigevent sev = { 0 };
	sev.sigev_notify = SIGEV_SIGNAL;
	sev.sigev_signo = SIGUSR1;
	timer_t t;
	errno = 0;
	int r = timer_create(clock, &sev, &t);
	printf("timer_create(%s): %s\n", clock == CLOCK_PROCESS_CPUTIME_ID ? "process" : "thread",
	       r == 0 ? "ok" : strerror(errno));
	return t;
}

static void arm(timer_t t, long long value, long long interval)
{
	struct itimerspec its = { { 0, interval }, { 0, value } };
	timer_settime(t, 0, &its, NULL);
}

/* A thread that spins on its own CPU time (its thread timer's clock). */
static void *spinner(void *arg)
{
	(void)arg;
	timer_t t = make(CLOCK_THREAD_CPUTIME_ID);
	fired = 0;
	arm(t, 30000000, 0);
	long long spun = spin(CLOCK_THREAD_CPUTIME_ID, 2000000000LL, 1);
	printf("thread timer, 30 ms: fired %d after >= 30 ms of the thread's time %d\n", fired,
	       spun >= 30000000);
	timer_delete(t);
	return NULL;
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	struct sigaction sa = { 0 };
	sa.sa_sigaction = handler;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigaction(SIGUSR1, &sa, NULL);

	timer_t t = current = make(CLOCK_PROCESS_CPUTIME_ID);
	arm(t, 50000000, 0);
	struct itimerspec cur;
	timer_gettime(t, &cur);
	printf("armed 50 ms: 0 < left <= 50 ms %d\n",
	       cur.it_value.tv_sec == 0 && cur.it_value.tv_nsec > 0 && cur.it_value.tv_nsec <= 50000000);
	/* Sleeping uses no CPU time: the timer does not fire. */
	struct timespec ts = { 0, 100000000 };
	nanosleep(&ts, NULL);
	printf("after 100 ms asleep: fired %d\n", fired);
	long long spun = spin(CLOCK_PROCESS_CPUTIME_ID, 2000000000LL, 1);
	printf("spun: fired %d after >= 40 ms of CPU time %d\n", fired, spun >= 40000000);
	timer_gettime(t, &cur);
	printf("one-shot, after: disarmed %d\n", cur.it_value.tv_sec == 0 && cur.it_value.tv_nsec == 0);

	/* Periodic, 20 ms: over 200 ms of CPU time, expirations (signals and
	 * overruns) add up to about ten. */
	fired = overruns = 0;
	arm(t, 20000000, 20000000);
	spin(CLOCK_PROCESS_CPUTIME_ID, 200000000LL, 1000);
	arm(t, 0, 0);
	int total = fired + overruns;
	printf("periodic 20 ms over 200 ms: signals > 1 %d, expirations in 8..11 %d\n", fired > 1,
	       total >= 8 && total <= 11);
	timer_delete(t);

	/* A thread's timer counts that thread's time alone. */
	t = make(CLOCK_THREAD_CPUTIME_ID);
	fired = 0;
	arm(t, 30000000, 0);
	pthread_t th;
	pthread_create(&th, NULL, spinner, NULL);
	pthread_join(th, NULL);
	timer_gettime(t, &cur);
	printf("main thread's timer while another spun: still armed %d\n",
	       cur.it_value.tv_sec != 0 || cur.it_value.tv_nsec != 0);
	fired = 0;
	spin(CLOCK_THREAD_CPUTIME_ID, 2000000000LL, 1);
	printf("main thread's timer once it spins: fired %d\n", fired);
	timer_delete(t);
	return 0;
}
