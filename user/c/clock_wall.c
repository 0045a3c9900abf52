/* clock_wall: the wall clock (CLOCK_REALTIME) and who may set it.
 *
 * Prints the date the way `date -u` would. Booted with
 * `-rtc base=2024-01-02T03:04:05`, Sigil's clock starts there: the kernel
 * reads the board's real-time clock at boot. On Sigil only (root there, and
 * the host's clock must never be set by a test), it sets the clock with
 * clock_settime and settimeofday, and shows that a sleep until an absolute
 * CLOCK_REALTIME time follows the change while a relative sleep does not.
 * Then, dropped to uid 1000, setting the clock is EPERM, and a bad time is
 * EINVAL before the permission check, as on Linux.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "on_sigil.h"

static void show(const char *what)
{
	time_t t = time(NULL);
	char buf[64];

	strftime(buf, sizeof buf, "%a %b %e %H:%M:%S UTC %Y", gmtime(&t));
	printf("%s: %s\n", what, buf);
}

static double mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static const char *err(int r)
{
	return r == 0 ? "ok" : strerror(errno);
}

/* A child that sleeps with `flags` toward `ts`; the parent moves the clock
 * by `jump` seconds after 20 ms and reports how long the child slept. */
static void sleep_across_jump(const char *what, int flags, struct timespec ts, int jump)
{
	double start = mono();
	pid_t pid = fork();

	if (pid == 0) {
		int r = clock_nanosleep(CLOCK_REALTIME, flags, &ts, NULL);
		_exit(r);
	}
	usleep(20000);
	struct timespec now;
	clock_gettime(CLOCK_REALTIME, &now);
	now.tv_sec += jump;
	clock_settime(CLOCK_REALTIME, &now);
	int status;
	waitpid(pid, &status, 0);
	double slept = mono() - start;
	printf("%s: returned %d, slept %s\n", what, WEXITSTATUS(status),
	       slept < 0.5 ? "under 0.5 s" : slept < 5 ? "0.5 to 5 s" : "over 5 s");
}

int main(void)
{
	struct timespec ts, rt;
	struct timeval tv;

	setvbuf(stdout, NULL, _IONBF, 0);
	clock_gettime(CLOCK_REALTIME, &rt);
	gettimeofday(&tv, NULL);
	printf("gettimeofday agrees with clock_gettime: %s\n",
	       tv.tv_sec - rt.tv_sec <= 1 && tv.tv_sec >= rt.tv_sec ? "yes" : "no");
	printf("time() after 2020: %s\n", time(NULL) > 1577836800 ? "yes" : "no");

	if (on_sigil() && geteuid() == 0) {
		show("booted");
		ts = (struct timespec){ .tv_sec = 1907582400 }; /* 2030-06-13 12:00:00 */
		printf("clock_settime as root: %s\n", err(clock_settime(CLOCK_REALTIME, &ts)));
		show("now");
		tv = (struct timeval){ .tv_sec = 1000000000 };
		printf("settimeofday as root: %s\n", err(settimeofday(&tv, NULL)));
		show("now");
		errno = 0;
		printf("clock_settime(CLOCK_MONOTONIC): %s\n", err(clock_settime(CLOCK_MONOTONIC, &ts)));

		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_sec += 100;
		sleep_across_jump("absolute sleep 100 s ahead, clock set 200 s on", TIMER_ABSTIME, ts, 200);
		ts = (struct timespec){ .tv_sec = 1 };
		sleep_across_jump("relative sleep of 1 s, clock set 1 h on", 0, ts, 3600);
	}

	/* Everything below also runs under qemu-ppc, as an unprivileged user. */
	if (setuid(1000) != 0) {
		printf("setuid(1000): %s\n", strerror(errno));
		return 1;
	}
	ts = (struct timespec){ .tv_sec = 1907582400 };
	errno = 0;
	printf("clock_settime as uid 1000: %s\n", err(clock_settime(CLOCK_REALTIME, &ts)));
	errno = 0;
	printf("settimeofday as uid 1000: %s\n", err(settimeofday(&(struct timeval){ 0 }, NULL)));
	ts.tv_nsec = 1000000000;
	errno = 0;
	printf("clock_settime, bad nsec, as uid 1000: %s\n", err(clock_settime(CLOCK_REALTIME, &ts)));
	return 0;
}
