/* timer_sleep: nanosleep and clock_nanosleep, finished and interrupted.
 *
 * A relative sleep interrupted by a handled signal returns EINTR and the
 * time left, even with SA_RESTART (Linux: ERESTART_RESTARTBLOCK); an
 * absolute clock_nanosleep returns EINTR with nothing left to report. A
 * sleep interrupted by a stop and SIGCONT (no handler runs) carries on to
 * its original deadline (restart_syscall). Both time layouts are used
 * through raw syscalls. Times are printed as facts, never raw.
 */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "timing.h"

#define MS 1000000L

struct ts32 {
	int32_t sec, nsec;
};
struct ts64 {
	int64_t sec;
	int32_t pad, nsec;
};

static volatile sig_atomic_t hits;

static void on_alrm(int sig)
{
	(void)sig;
	hits++;
}

/* SIGALRM in `ms` milliseconds. */
static void alarm_in(long ms)
{
	struct itimerval it = { { 0, 0 }, { 0, ms * 1000 } };
	setitimer(ITIMER_REAL, &it, NULL);
}

static void handler(int flags)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_alrm;
	sa.sa_flags = flags;
	sigaction(SIGALRM, &sa, NULL);
}

int main(void)
{
	struct timespec req, rem;
	long t0, dt, r;

	setvbuf(stdout, NULL, _IONBF, 0);
	handler(0);

	req = (struct timespec){ 0, 30 * MS };
	t0 = now_ms();
	r = nanosleep(&req, &rem);
	dt = now_ms() - t0;
	printf("nanosleep 30 ms: %ld, slept >= 30 ms %s\n", r, yes(dt >= 30));

	req = (struct timespec){ 0, 300 * MS };
	alarm_in(50);
	r = nanosleep(&req, &rem);
	printf("nanosleep 300 ms, SIGALRM at 50: %ld %s, handler %d, rem in [100, 280] ms %s\n", r, strerror(errno), hits,
	       yes(rem.tv_sec == 0 && rem.tv_nsec >= 100 * MS && rem.tv_nsec <= 280 * MS));

	handler(SA_RESTART);
	alarm_in(50);
	r = nanosleep(&req, &rem);
	printf("same with SA_RESTART: %ld %s, handler %d\n", r, strerror(errno), hits);

	alarm_in(50);
	r = clock_nanosleep(CLOCK_MONOTONIC, 0, &req, &rem);
	printf("clock_nanosleep relative, SA_RESTART: returns %s, rem in [100, 280] ms %s\n", strerror((int)r),
	       yes(rem.tv_sec == 0 && rem.tv_nsec >= 100 * MS && rem.tv_nsec <= 280 * MS));

	struct timespec abs;
	clock_gettime(CLOCK_MONOTONIC, &abs);
	abs.tv_nsec += 300 * MS;
	if (abs.tv_nsec >= 1000000000) {
		abs.tv_sec++;
		abs.tv_nsec -= 1000000000;
	}
	rem = (struct timespec){ 77, 77 };
	alarm_in(50);
	r = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &abs, &rem);
	printf("clock_nanosleep TIMER_ABSTIME, SA_RESTART: returns %s, rem untouched %s\n", strerror((int)r),
	       yes(rem.tv_sec == 77 && rem.tv_nsec == 77));
	t0 = now_ms();
	r = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &abs, NULL);
	dt = now_ms() - t0;
	printf("again to the same deadline: returns %ld, waited the rest (>= 150 ms) %s\n", r, yes(dt >= 150));
	r = clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME, &(struct timespec){ 0, 1 }, NULL);
	printf("TIMER_ABSTIME in the past: %ld\n", r);

	/* Raw, both layouts. */
	struct ts32 q32 = { 0, 300 * MS }, r32;
	struct ts64 q64 = { 0, 0, 300 * MS }, r64;
	alarm_in(50);
	r = syscall(SYS_clock_nanosleep, CLOCK_MONOTONIC, 0, &q32, &r32);
	printf("clock_nanosleep (32-bit): %ld %s, rem in [100, 280] ms %s\n", r, strerror(errno),
	       yes(r32.sec == 0 && r32.nsec >= 100 * MS && r32.nsec <= 280 * MS));
	alarm_in(50);
	r64.pad = 0x5555;
	r = syscall(SYS_clock_nanosleep_time64, CLOCK_REALTIME, 0, &q64, &r64);
	printf("clock_nanosleep_time64: %ld %s, rem in [100, 280] ms %s\n", r, strerror(errno),
	       yes(r64.sec == 0 && r64.nsec >= 100 * MS && r64.nsec <= 280 * MS));
	q32.nsec = 1000000000;
	r = syscall(SYS_nanosleep, &q32, NULL);
	printf("nanosleep, tv_nsec 1e9: %ld %s\n", r, strerror(errno));
	q64.sec = -1;
	r = syscall(SYS_clock_nanosleep_time64, CLOCK_MONOTONIC, 0, &q64, NULL);
	printf("clock_nanosleep_time64, tv_sec -1: %ld %s\n", r, strerror(errno));
	r = clock_nanosleep(99, 0, &req, NULL);
	printf("clock_nanosleep, clock 99: %s\n", strerror((int)r));

	/* Stopped and continued mid-sleep: no handler runs, the sleep goes on. */
	pid_t pid = fork();
	if (pid == 0) {
		req = (struct timespec){ 0, 300 * MS };
		t0 = now_ms();
		r = nanosleep(&req, &rem);
		dt = now_ms() - t0;
		printf("child: nanosleep 300 ms across SIGSTOP/SIGCONT: %ld, slept >= 300 ms %s\n", r, yes(dt >= 300));
		_exit(0);
	}
	req = (struct timespec){ 0, 50 * MS };
	nanosleep(&req, NULL);
	kill(pid, SIGSTOP);
	nanosleep(&req, NULL);
	kill(pid, SIGCONT);
	int st;
	waitpid(pid, &st, 0);
	printf("child exited %d\n", WEXITSTATUS(st));
	return 0;
}
