/* timer_posix: POSIX timers (timer_create & co) as signal sources.
 *
 * Expiry queues the chosen signal with si_code SI_TIMER, the timer id and
 * its sigval; a NULL sigevent means SIGALRM carrying the id. A periodic
 * timer whose signal waits blocked is not queued again: the missed periods
 * come out as si_overrun (and timer_getoverrun) when it is delivered.
 * SIGEV_NONE timers only keep time. timer_settime/gettime work in both the
 * 32-bit and the time64 layouts (raw syscalls), relative and TIMER_ABSTIME,
 * on CLOCK_REALTIME and CLOCK_MONOTONIC. A forked child has no timers.
 * Times are printed as facts about them, never raw.
 */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MS 1000000L

struct ts32 {
	int32_t sec, nsec;
};
struct its32 {
	struct ts32 interval, value;
};
struct ts64 {
	int64_t sec;
	int32_t pad, nsec;
};
struct its64 {
	struct ts64 interval, value;
};

static const char *yes(int c)
{
	return c ? "yes" : "no";
}

static long now_ms(clockid_t c)
{
	struct timespec ts;
	clock_gettime(c, &ts);
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * MS };
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

static timer_t make(int notify, int signo, int value)
{
	struct sigevent ev;
	timer_t t;
	memset(&ev, 0, sizeof ev);
	ev.sigev_notify = notify;
	ev.sigev_signo = signo;
	ev.sigev_value.sival_int = value;
	if (timer_create(CLOCK_MONOTONIC, &ev, &t) != 0)
		printf("timer_create: %s\n", strerror(errno));
	return t;
}

static void arm(timer_t t, long value_ns, long interval_ns)
{
	struct itimerspec its = { { interval_ns / 1000000000, interval_ns % 1000000000 },
				  { value_ns / 1000000000, value_ns % 1000000000 } };
	if (timer_settime(t, 0, &its, NULL) != 0)
		printf("timer_settime: %s\n", strerror(errno));
}

int main(void)
{
	sigset_t rt, alrm;
	siginfo_t si;
	struct itimerspec cur;
	int s;

	setvbuf(stdout, NULL, _IONBF, 0);
	sigemptyset(&rt);
	sigaddset(&rt, SIGRTMIN);
	sigemptyset(&alrm);
	sigaddset(&alrm, SIGALRM);
	sigprocmask(SIG_BLOCK, &rt, NULL);
	sigprocmask(SIG_BLOCK, &alrm, NULL);

	/* One shot, SIGRTMIN with a value. */
	timer_t a = make(SIGEV_SIGNAL, SIGRTMIN, 4242);
	arm(a, 20 * MS, 0);
	timer_gettime(a, &cur);
	printf("one-shot armed: value in (0, 20] ms %s, interval %ld\n",
	       yes(cur.it_value.tv_sec == 0 && cur.it_value.tv_nsec > 0 && cur.it_value.tv_nsec <= 20 * MS),
	       (long)cur.it_interval.tv_nsec);
	s = sigwaitinfo(&rt, &si);
	printf("expiry: signal RTMIN+%d, si_code %d (SI_TIMER), si_timerid %d, si_overrun %d, value %d\n", s - SIGRTMIN,
	       si.si_code, si.si_timerid, si.si_overrun, si.si_value.sival_int);
	timer_gettime(a, &cur);
	printf("after expiry: value %ld.%09ld\n", (long)cur.it_value.tv_sec, cur.it_value.tv_nsec);

	/* NULL sigevent: SIGALRM whose value is the timer id. */
	timer_t b;
	timer_create(CLOCK_REALTIME, NULL, &b);
	arm(b, 5 * MS, 0);
	s = sigwaitinfo(&alrm, &si);
	/* (Linux also puts the id in si_value; qemu-ppc puts its own handle
	 * there, so that is checked by sigil-core's host tests instead.) */
	printf("default sigevent: signal %d, si_code %d, timerid differs from the first %s\n", s, si.si_code,
	       yes(si.si_timerid != 0));
	timer_delete(b);

	/* Periodic, blocked for ~6 periods: one signal, overruns counted. The
	 * period is long (100 ms) so that the checks right after the signal is
	 * taken run well inside the next period even on a loaded host. */
	arm(a, 100 * MS, 100 * MS);
	sleep_ms(650);
	sigset_t p;
	sigpending(&p);
	printf("periodic, blocked 650 ms: pending %s\n", yes(sigismember(&p, SIGRTMIN)));
	timer_gettime(a, &cur);
	printf("gettime while its signal waits: next expiry within a period %s\n",
	       yes(cur.it_value.tv_sec == 0 && cur.it_value.tv_nsec > 0 && cur.it_value.tv_nsec <= 100 * MS));
	s = sigwaitinfo(&rt, &si);
	int ov = si.si_overrun;
	printf("one signal: si_overrun >= 4 %s, timer_getoverrun matches %s\n", yes(ov >= 4),
	       yes(timer_getoverrun(a) == ov));
	struct timespec zero = { 0, 0 };
	printf("no second signal queued: %s\n", yes(sigtimedwait(&rt, &si, &zero) < 0 && errno == EAGAIN));
	s = sigwaitinfo(&rt, &si);
	printf("next period: getoverrun matches %s, counting afresh (< 4) %s\n", yes(timer_getoverrun(a) == si.si_overrun),
	       yes(si.si_overrun < 4));
	arm(a, 0, 10 * MS);
	timer_gettime(a, &cur);
	printf("disarmed: value %ld, interval %ld\n", cur.it_value.tv_nsec, cur.it_interval.tv_nsec);

	/* Re-armed while its signal waits: the old signal is stale. */
	arm(a, 1 * MS, 0);
	sleep_ms(10);
	arm(a, 30 * MS, 0);
	long t0 = now_ms(CLOCK_MONOTONIC);
	s = sigwaitinfo(&rt, &si);
	long dt = now_ms(CLOCK_MONOTONIC) - t0;
	printf("set again while pending: one signal after the new expiry (>= 25 ms) %s\n", yes(dt >= 25));
	printf("no other: %s\n", yes(sigtimedwait(&rt, &si, &zero) < 0 && errno == EAGAIN));

	/* SIGEV_NONE: keeps time, sends nothing. */
	timer_t n = make(SIGEV_NONE, 0, 0);
	arm(n, 60 * MS, 0);
	sleep_ms(10);
	timer_gettime(n, &cur);
	printf("SIGEV_NONE after 10 of 60 ms: value in (0, 50] ms %s\n",
	       yes(cur.it_value.tv_sec == 0 && cur.it_value.tv_nsec > 0 && cur.it_value.tv_nsec <= 50 * MS));
	sleep_ms(60);
	timer_gettime(n, &cur);
	sigpending(&p);
	printf("SIGEV_NONE expired: value %ld.%09ld, nothing pending %s\n", (long)cur.it_value.tv_sec,
	       cur.it_value.tv_nsec, yes(!sigismember(&p, SIGRTMIN) && !sigismember(&p, SIGALRM)));
	timer_delete(n);

	/* Both layouts, raw. */
	int id = (int)(intptr_t)a;
	struct its32 n32 = { { 0, 0 }, { 0, 40 * MS } }, o32;
	struct its64 n64 = { { 0, 0, 0 }, { 1, 0, 0 } }, o64;
	long r = syscall(SYS_timer_settime, id, 0, &n32, NULL);
	r |= syscall(SYS_timer_settime64, id, 0, &n64, &o64);
	printf("timer_settime64 old value (32-bit set, 40 ms): in (0, 40] ms %s (r %ld)\n",
	       yes(o64.value.sec == 0 && o64.value.nsec > 0 && o64.value.nsec <= 40 * MS), r);
	r = syscall(SYS_timer_gettime, id, &o32);
	printf("timer_gettime (32-bit) after 1 s set: in (0.5, 1] s %s (r %ld)\n",
	       yes((o32.value.sec == 0 && o32.value.nsec > 500 * MS) || (o32.value.sec == 1 && o32.value.nsec == 0)), r);
	r = syscall(SYS_timer_gettime64, id, &o64);
	printf("timer_gettime64: in (0.5, 1] s %s (r %ld)\n",
	       yes((o64.value.sec == 0 && o64.value.nsec > 500 * MS) || (o64.value.sec == 1 && o64.value.nsec == 0)), r);
	n32.value.nsec = 1000000000;
	r = syscall(SYS_timer_settime, id, 0, &n32, NULL);
	printf("timer_settime, tv_nsec 1e9: %ld %s\n", r, strerror(errno));
	n64.value.sec = -1;
	r = syscall(SYS_timer_settime64, id, 0, &n64, NULL);
	printf("timer_settime64, tv_sec -1: %ld %s\n", r, strerror(errno));

	/* TIMER_ABSTIME on CLOCK_REALTIME: 30 ms from now. */
	timer_t c;
	struct sigevent ev;
	memset(&ev, 0, sizeof ev);
	ev.sigev_notify = SIGEV_SIGNAL;
	ev.sigev_signo = SIGRTMIN;
	ev.sigev_value.sival_int = 7;
	timer_create(CLOCK_REALTIME, &ev, &c);
	struct timespec now;
	clock_gettime(CLOCK_REALTIME, &now);
	struct itimerspec abs = { { 0, 0 }, { now.tv_sec, now.tv_nsec + 30 * MS } };
	if (abs.it_value.tv_nsec >= 1000000000) {
		abs.it_value.tv_sec++;
		abs.it_value.tv_nsec -= 1000000000;
	}
	timer_delete(a);
	t0 = now_ms(CLOCK_MONOTONIC);
	timer_settime(c, TIMER_ABSTIME, &abs, NULL);
	s = sigwaitinfo(&rt, &si);
	dt = now_ms(CLOCK_MONOTONIC) - t0;
	printf("TIMER_ABSTIME, REALTIME: value %d after >= 25 ms %s\n", si.si_value.sival_int, yes(dt >= 25));
	abs.it_value.tv_sec = 0;
	abs.it_value.tv_nsec = 1;
	timer_settime(c, TIMER_ABSTIME, &abs, NULL);
	s = sigwaitinfo(&rt, &si);
	printf("TIMER_ABSTIME in the past: fires at once, value %d\n", si.si_value.sival_int);

	/* fork: the child has none of the parent's timers. */
	arm(c, 50 * MS, 0);
	pid_t pid = fork();
	if (pid == 0) {
		printf("child: timer_gettime(parent's timer): %s\n",
		       timer_gettime(c, &cur) == 0 ? "ok" : strerror(errno));
		sleep_ms(80);
		sigpending(&p);
		printf("child: no timer signal after the parent's expiry: %s\n", yes(!sigismember(&p, SIGRTMIN)));
		_exit(0);
	}
	waitpid(pid, &s, 0);
	s = sigwaitinfo(&rt, &si);
	printf("parent: its timer still fired, value %d\n", si.si_value.sival_int);

	/* Errors. */
	ev.sigev_signo = 0;
	printf("timer_create, signal 0: %s\n", timer_create(CLOCK_MONOTONIC, &ev, &b) == 0 ? "ok" : strerror(errno));
	ev.sigev_signo = SIGRTMIN;
	printf("timer_create, clock 99: %s\n", timer_create(99, &ev, &b) == 0 ? "ok" : strerror(errno));
	printf("timer_delete: %d\n", timer_delete(c));
	printf("timer_gettime(bad id): %s\n", syscall(SYS_timer_gettime, 12345, &o32) == 0 ? "ok" : strerror(errno));
	printf("timer_getoverrun(bad id): %s\n", syscall(SYS_timer_getoverrun, 12345) == 0 ? "ok" : strerror(errno));
	printf("timer_delete(bad id): %s\n", syscall(SYS_timer_delete, 12345) == 0 ? "ok" : strerror(errno));

	struct ts32 res32;
	struct ts64 res64;
	r = syscall(SYS_clock_getres, CLOCK_MONOTONIC, &res32);
	printf("clock_getres(MONOTONIC): r %ld, in (0, 1 us] %s\n", r, yes(res32.sec == 0 && res32.nsec > 0 && res32.nsec <= 1000));
	r = syscall(SYS_clock_getres_time64, CLOCK_REALTIME, &res64);
	printf("clock_getres_time64(REALTIME): r %ld, in (0, 1 us] %s\n", r, yes(res64.sec == 0 && res64.nsec > 0 && res64.nsec <= 1000));
	printf("clock_getres(99): %s\n", syscall(SYS_clock_getres, 99, &res32) == 0 ? "ok" : strerror(errno));
	return 0;
}
