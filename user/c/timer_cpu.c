/* timer_cpu: CPU-time accounting and the timers that run on it.
 *
 * ITIMER_VIRTUAL counts down user time and sends SIGVTALRM, ITIMER_PROF
 * user + system time and sends SIGPROF (si_code SI_KERNEL both); periodic
 * ones keep firing while the process computes, and a sleeping process gets
 * none; getitimer shows the countdown move with busy work. times() and
 * getrusage() show user time growing with busy work and not with sleep, a
 * fork child starting from zero with no CPU timers, and a reaped child's
 * time in the parent's children totals (and in wait4's rusage).
 * CLOCK_PROCESS_CPUTIME_ID moves with busy work, not with sleep.
 * CPU time is only sampled (at most one sampling interval late), so the
 * program prints facts about times with generous bounds, never raw times:
 * the output is the same on Sigil and under qemu-ppc.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/times.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "timing.h"

static volatile sig_atomic_t vtalrms, profs, last_code;
static volatile unsigned long sink;

static void on_sig(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	if (sig == SIGVTALRM)
		vtalrms++;
	else
		profs++;
	last_code = si->si_code;
}

static long tv_ms(struct timeval tv)
{
	return tv.tv_sec * 1000L + tv.tv_usec / 1000L;
}

/* User (or user + system) CPU time of `who`, in ms. */
static long cpu_ms(int who, int with_sys)
{
	struct rusage ru;
	if (getrusage(who, &ru) != 0) {
		perror("getrusage");
		exit(1);
	}
	return tv_ms(ru.ru_utime) + (with_sys ? tv_ms(ru.ru_stime) : 0);
}

/* Pure computation, a few ms worth: user time only. */
static void spin(void)
{
	for (unsigned long i = 0; i < 200000; i++)
		sink = sink * 31 + i;
}

/* Computes until `ms` of user time more than now are used. */
static void busy_ms(long ms)
{
	long start = cpu_ms(RUSAGE_SELF, 0), t0 = now_ms();
	while (cpu_ms(RUSAGE_SELF, 0) - start < ms && now_ms() - t0 < 30000)
		spin();
}

/* Computes (with some system calls when `sys`) until `*count` reaches
 * `n`, or 30 s pass. */
static void busy_until(volatile sig_atomic_t *count, int n, int sys)
{
	long t0 = now_ms();
	while (*count < n && now_ms() - t0 < 30000) {
		spin();
		if (sys)
			for (int i = 0; i < 50; i++)
				getppid();
	}
}

static long cpu_clock_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

static void set(int which, long interval_ms, long value_ms, struct itimerval *old)
{
	struct itimerval it = {
		{ interval_ms / 1000, interval_ms % 1000 * 1000 },
		{ value_ms / 1000, value_ms % 1000 * 1000 },
	};
	if (setitimer(which, &it, old) != 0) {
		perror("setitimer");
		exit(1);
	}
}

static void periodic(int which, const char *name, volatile sig_atomic_t *count, const char *sig)
{
	long cpu0 = cpu_ms(RUSAGE_SELF, which == ITIMER_PROF);
	struct itimerval old;
	last_code = 0;
	set(which, 50, 50, NULL);
	busy_until(count, 4, which == ITIMER_PROF);
	set(which, 0, 0, &old);
	long used = cpu_ms(RUSAGE_SELF, which == ITIMER_PROF) - cpu0;
	printf("%s 50 ms periodic: %d %s, si_code %d%s, CPU time used >= 150 ms %s\n", name, (int)*count, sig,
	       (int)last_code, last_code == SI_KERNEL ? " (SI_KERNEL)" : "", yes(used >= 150));
	long left = old.it_value.tv_sec * 1000000L + old.it_value.tv_usec; /* us */
	printf("%s disarmed: old interval %ld.%06ld, value in (0, 60] ms %s\n", name, (long)old.it_interval.tv_sec,
	       (long)old.it_interval.tv_usec, yes(left > 0 && left <= 60000));
}

int main(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = on_sig;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigaction(SIGVTALRM, &sa, NULL);
	sigaction(SIGPROF, &sa, NULL);

	periodic(ITIMER_VIRTUAL, "ITIMER_VIRTUAL", &vtalrms, "SIGVTALRM");
	periodic(ITIMER_PROF, "ITIMER_PROF", &profs, "SIGPROF");

	/* The countdown: armed for 10 s, it moves with user time only. */
	struct itimerval a, b;
	set(ITIMER_VIRTUAL, 0, 10000, NULL);
	getitimer(ITIMER_VIRTUAL, &a);
	long a_ms = tv_ms(a.it_value);
	printf("getitimer right after arming 10 s: in (9.9, 10.06] s %s\n", yes(a_ms > 9900 && a_ms <= 10060));
	busy_ms(300);
	getitimer(ITIMER_VIRTUAL, &b);
	long moved = a_ms - tv_ms(b.it_value);
	/* A loose lower bound: the reference, qemu-ppc, maps the timer onto the
	 * host's, whose accounting on a loaded host lags getrusage's. */
	printf("after 300 ms of busy work: moved by [100, 1000] ms %s\n", yes(moved >= 100 && moved <= 1000));
	sleep_ms(300);
	getitimer(ITIMER_VIRTUAL, &a);
	moved = tv_ms(b.it_value) - tv_ms(a.it_value);
	printf("after 300 ms of sleep: moved by < 50 ms %s\n", yes(moved < 50));
	set(ITIMER_VIRTUAL, 0, 0, NULL);

	/* A sleeper gets no SIGVTALRM, and its user time does not grow. */
	vtalrms = 0;
	struct tms t0, t1, t2;
	times(&t0);
	long u0 = cpu_ms(RUSAGE_SELF, 0);
	set(ITIMER_VIRTUAL, 50, 50, NULL);
	sleep_ms(300);
	set(ITIMER_VIRTUAL, 0, 0, NULL);
	long u1 = cpu_ms(RUSAGE_SELF, 0);
	times(&t1);
	printf("sleeping 300 ms with ITIMER_VIRTUAL 50 ms: SIGVTALRM %d, user time grew < 50 ms %s\n", (int)vtalrms,
	       yes(u1 - u0 < 50));
	/* 250 ms of user time for a ">= 200 ms" check: on Sigil user time is
	 * sampled every 10 ms slice, while the CPU clock also counts the time
	 * since the last sample, so the two can disagree by up to a slice. */
	long k0 = cpu_clock_ms();
	busy_ms(250);
	times(&t2);
	long k1 = cpu_clock_ms();
	sleep_ms(200);
	long k2 = cpu_clock_ms();
	printf("CLOCK_PROCESS_CPUTIME_ID: grew by >= 200 ms with busy work %s, < 50 ms with sleep %s\n",
	       yes(k1 - k0 >= 200), yes(k2 - k1 < 50));
	long hz = sysconf(_SC_CLK_TCK);
	printf("times: clock ticks %ld/s, utime grew by >= 15 ticks with 250 ms busy %s, < 5 with sleep %s\n", hz,
	       yes(t2.tms_utime - t1.tms_utime >= 15), yes(t1.tms_utime - t0.tms_utime < 5));

	/* Children: a fork child starts from zero without CPU timers; once
	 * reaped, its time counts in the parent's children totals. */
	set(ITIMER_PROF, 0, 10000, NULL);
	long c0 = cpu_ms(RUSAGE_CHILDREN, 0);
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		struct itimerval c;
		getitimer(ITIMER_PROF, &c);
		printf("child: utime at start < 10 ms %s, ITIMER_PROF inherited %s\n", yes(cpu_ms(RUSAGE_SELF, 0) < 10),
		       yes(c.it_value.tv_sec || c.it_value.tv_usec));
		busy_ms(250);
		fflush(stdout);
		_exit(0);
	}
	/* Not yet reaped: nothing in the children totals. */
	int st;
	struct rusage ru;
	sleep_ms(50);
	long c1 = cpu_ms(RUSAGE_CHILDREN, 0);
	if (wait4(pid, &st, 0, &ru) != pid) {
		perror("wait4");
		return 1;
	}
	set(ITIMER_PROF, 0, 0, NULL);
	long c2 = cpu_ms(RUSAGE_CHILDREN, 0);
	struct tms t3;
	times(&t3);
	printf("children totals: 0 before the child is reaped %s, >= 250 ms after %s\n", yes(c1 == c0 && c0 == 0),
	       yes(c2 - c1 >= 250));
	printf("wait4 rusage: ru_utime >= 250 ms %s; times: cutime >= 25 ticks %s\n", yes(tv_ms(ru.ru_utime) >= 250),
	       yes(t3.tms_cutime >= 25));
	printf("getrusage(42): %s\n", getrusage(42, &ru) == 0 ? "ok" : strerror(errno));
	return 0;
}
