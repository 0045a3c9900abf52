/* timerfd: timerfd_create/settime/gettime and read, in both the 32-bit
 * and the time64 layouts; one-shot, periodic and absolute timers; the
 * expiration count; blocking, nonblocking and poll; a signal during a
 * blocking read with and without SA_RESTART; fork and exec inheritance; the
 * errors Linux gives for misuse. Timers are left armed at exit and closed
 * while armed, for the kernel's leak check.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/timerfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MS 1000000L

static const char *err(long r)
{
	return r >= 0 ? "ok" : strerror(errno);
}

/* One read: the count, or -1 with errno. */
static long rd(int fd)
{
	uint64_t v = 0;
	errno = 0;
	return read(fd, &v, 8) < 0 ? -1 : (long)v;
}

static int arm(int fd, int flags, long value_ns, long interval_ns)
{
	struct itimerspec s = {
		{ interval_ns / 1000000000L, interval_ns % 1000000000L },
		{ value_ns / 1000000000L, value_ns % 1000000000L },
	};
	return timerfd_settime(fd, flags, &s, NULL);
}

static void handler(int sig)
{
	(void)sig;
}

static void errors(void)
{
	errno = 0;
	printf("create(CLOCK_PROCESS_CPUTIME_ID): %s\n", err(timerfd_create(CLOCK_PROCESS_CPUTIME_ID, 0)));
	printf("create(bad flags): %s\n", err(timerfd_create(CLOCK_MONOTONIC, 1)));
	int fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK);
	char small[4];
	printf("read, none: %ld, %s\n", rd(fd), strerror(errno));
	printf("read of 4 bytes: %s\n", err(read(fd, small, 4)));
	printf("settime(flags 4): %s\n", err(arm(fd, 4, MS, 0)));
	printf("settime(CANCEL_ON_SET): %s\n", err(arm(fd, TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET, MS, 0)));
	struct itimerspec bad = { { 0, 0 }, { 0, 1000000000L } };
	printf("settime(tv_nsec 1e9): %s\n", err(timerfd_settime(fd, 0, &bad, NULL)));
	printf("settime(NULL): %s\n", err(syscall(SYS_timerfd_settime, fd, 0, NULL, NULL)));
	printf("settime(fd 99): %s\n", err(arm(99, 0, MS, 0)));
	printf("settime(stdout): %s\n", err(arm(1, 0, MS, 0)));
	struct itimerspec cur;
	printf("gettime(stdout): %s\n", err(timerfd_gettime(1, &cur)));
	printf("gettime(NULL): %s\n", err(syscall(SYS_timerfd_gettime, fd, NULL)));
	close(fd);
}

static void counting(void)
{
	int fd = timerfd_create(CLOCK_MONOTONIC, 0);
	int fl = fcntl(fd, F_GETFL), fdfl = fcntl(fd, F_GETFD);
	printf("flags: O_RDWR %d O_NONBLOCK %d FD_CLOEXEC %d\n", (fl & O_ACCMODE) == O_RDWR,
	       !!(fl & O_NONBLOCK), !!(fdfl & FD_CLOEXEC));
	char link[64] = "";
	char path[32];
	snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
	readlink(path, link, sizeof link - 1);
	printf("fd link: %s\n", link);

	arm(fd, 0, 20 * MS, 0);
	struct itimerspec cur;
	timerfd_gettime(fd, &cur);
	printf("one-shot 20 ms: gettime value > 0 %d, <= 20 ms %d, interval %ld\n",
	       cur.it_value.tv_nsec > 0, cur.it_value.tv_sec == 0 && cur.it_value.tv_nsec <= 20 * MS,
	       (long)cur.it_interval.tv_nsec);
	printf("blocking read: %ld\n", rd(fd));
	timerfd_gettime(fd, &cur);
	printf("after it fired: value %ld.%09ld\n", (long)cur.it_value.tv_sec, (long)cur.it_value.tv_nsec);

	/* Four periods behind: 1 s apart, the first 3.5 s ago (on the wall
	 * clock: Sigil's monotonic clock starts at boot, a moment ago). */
	close(fd);
	fd = timerfd_create(CLOCK_REALTIME, 0);
	struct timespec now;
	clock_gettime(CLOCK_REALTIME, &now);
	struct itimerspec abs = { { 1, 0 }, { now.tv_sec - 4, now.tv_nsec + 500 * MS } };
	if (abs.it_value.tv_nsec >= 1000000000L) {
		abs.it_value.tv_sec++;
		abs.it_value.tv_nsec -= 1000000000L;
	}
	struct itimerspec old;
	printf("absolute, periodic: %s\n", err(timerfd_settime(fd, TFD_TIMER_ABSTIME, &abs, &old)));
	printf("old setting: %ld.%09ld interval %ld\n", (long)old.it_value.tv_sec,
	       (long)old.it_value.tv_nsec, (long)old.it_interval.tv_sec);
	timerfd_gettime(fd, &cur);
	printf("gettime: next within 0.5 s %d, interval %ld s\n",
	       cur.it_value.tv_sec == 0 && cur.it_value.tv_nsec <= 500 * MS, (long)cur.it_interval.tv_sec);
	printf("expirations missed: %ld\n", rd(fd));

	/* Disarmed by a zero value: Linux keeps the interval. */
	arm(fd, 0, 0, 3 * MS);
	timerfd_gettime(fd, &cur);
	printf("disarmed: value %ld interval %ld ns\n", (long)cur.it_value.tv_nsec, (long)cur.it_interval.tv_nsec);
	close(fd);
}

/* The two layouts by number: timerfd_settime (311) takes 32-bit seconds,
 * timerfd_settime64 (411) 64-bit ones, whatever glibc prefers. */
static void layouts(void)
{
	int fd = timerfd_create(CLOCK_BOOTTIME, TFD_NONBLOCK);
	int32_t s32[4] = { 0, 7 * MS, 5, 0 }, g32[4];
	long r = syscall(SYS_timerfd_settime, fd, 0, s32, NULL);
	long g = syscall(SYS_timerfd_gettime, fd, g32);
	printf("time32: set %s, get %s: interval %d ns, value within 5 s %d\n", err(r), err(g), g32[1],
	       g32[2] == 4 || (g32[2] == 5 && g32[3] == 0));
	/* Each half is { int64 tv_sec; int64 tv_nsec } (the kernel's
	 * __kernel_timespec). */
	int64_t s64[4] = { 2, 0, 9, 0 }, g64[4];
	r = syscall(411, fd, 0, s64, NULL);
	g = syscall(410, fd, g64);
	printf("time64: set %s, get %s: interval %lld s, value within 9 s %d\n", err(r), err(g),
	       (long long)g64[0], g64[2] == 8 || g64[2] == 9);
	close(fd); /* closed while armed */
}

static void polls_and_signals(void)
{
	int fd = timerfd_create(CLOCK_MONOTONIC, 0);
	struct pollfd p = { fd, POLLIN, 0 };
	printf("poll, disarmed, 0 ms: %d\n", poll(&p, 1, 0));
	arm(fd, 0, 30 * MS, 0);
	int n = poll(&p, 1, -1);
	printf("poll until it fires: %d, revents 0x%x, read %ld\n", n, p.revents, rd(fd));

	struct sigaction sa = { 0 };
	sa.sa_handler = handler;
	sigaction(SIGALRM, &sa, NULL);
	struct itimerval it = { { 0, 0 }, { 0, 20000 } };
	arm(fd, 0, 80 * MS, 0);
	setitimer(ITIMER_REAL, &it, NULL);
	printf("read interrupted, no SA_RESTART: %ld, %s\n", rd(fd), strerror(errno));
	sa.sa_flags = SA_RESTART;
	sigaction(SIGALRM, &sa, NULL);
	setitimer(ITIMER_REAL, &it, NULL);
	printf("read interrupted, SA_RESTART: %ld\n", rd(fd));
	close(fd);
}

/* Fork shares the open timerfd; execve keeps it unless TFD_CLOEXEC (with
 * `exec`: qemu-ppc cannot execve a ppc32 program, so that half runs on
 * Sigil only). */
static void inherit(const char *self, int do_exec)
{
	int fd = timerfd_create(CLOCK_MONOTONIC, 0);
	int fdx = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC);
	arm(fd, 0, 10 * MS, 0);
	pid_t c = fork();
	if (c == 0) {
		printf("child reads the shared timerfd: %ld\n", rd(fd));
		_exit(0);
	}
	waitpid(c, NULL, 0);
	fcntl(fd, F_SETFL, O_NONBLOCK);
	printf("parent after the child's read: %ld, %s\n", rd(fd), strerror(errno));
	if (!do_exec)
		return;
	arm(fd, 0, 0, 0);
	struct itimerspec s = { { 4, 0 }, { 60, 0 } };
	timerfd_settime(fd, 0, &s, NULL);
	fflush(stdout);
	char a[16], b[16];
	snprintf(a, sizeof a, "%d", fd);
	snprintf(b, sizeof b, "%d", fdx);
	char *argv[] = { (char *)self, "exec", a, b, NULL };
	execv(self, argv);
	perror("execv");
}

static void after_exec(int fd, int fdx)
{
	struct itimerspec cur;
	printf("after exec: timerfd kept %s, interval %ld s\n", err(timerfd_gettime(fd, &cur)),
	       (long)cur.it_interval.tv_sec);
	printf("after exec: TFD_CLOEXEC one: %s\n", err(timerfd_gettime(fdx, &cur)));
	/* TFD_TIMER_CANCEL_ON_SET: setting the wall clock cancels an
	 * absolute CLOCK_REALTIME timer (this half sets the clock: Sigil only). */
	int c = timerfd_create(CLOCK_REALTIME, TFD_NONBLOCK);
	int k = timerfd_create(CLOCK_REALTIME, TFD_NONBLOCK);
	struct timespec now;
	clock_gettime(CLOCK_REALTIME, &now);
	struct itimerspec in60 = { { 0, 0 }, { now.tv_sec + 60, 0 } };
	timerfd_settime(c, TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET, &in60, NULL);
	timerfd_settime(k, TFD_TIMER_ABSTIME, &in60, NULL);
	struct pollfd p = { c, POLLIN, 0 };
	printf("cancel on set: poll before %d\n", poll(&p, 1, 0));
	now.tv_sec += 10;
	clock_settime(CLOCK_REALTIME, &now);
	printf("cancel on set: poll after the clock change %d\n", poll(&p, 1, 0));
	printf("cancel on set: read %ld, %s\n", rd(c), strerror(errno));
	printf("cancel on set: read again %ld, %s\n", rd(c), strerror(errno));
	printf("without the flag: read %ld, %s\n", rd(k), strerror(errno));
	close(c), close(k);
	/* Left armed at exit: its timer must go with the file. */
	arm(timerfd_create(CLOCK_REALTIME, 0), 0, 0, 50 * MS);
	arm(timerfd_create(CLOCK_REALTIME, 0), 0, 50 * MS, 50 * MS);
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	if (argc == 4 && strcmp(argv[1], "exec") == 0) {
		after_exec(atoi(argv[2]), atoi(argv[3]));
		return 0;
	}
	if (argc == 2 && strcmp(argv[1], "exec") == 0) {
		inherit(argv[0], 1);
		return 1;
	}
	errors();
	counting();
	layouts();
	polls_and_signals();
	inherit(argv[0], 0);
	return 0;
}
