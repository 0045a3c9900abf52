/* epoll: epoll_create/epoll_create1, epoll_ctl's operations and errors,
 * epoll_wait and epoll_pwait over pipes, timerfds and signalfds: level-
 * and edge-triggered reports, EPOLLONESHOT, EPOLLOUT/EPOLLERR/EPOLLHUP,
 * timeouts, a descriptor closed while registered, a signal during the wait
 * and epoll_pwait's mask; an epoll inside epolls (its wake-ups, ELOOP for
 * a cycle and past EPOLL_MAX_NESTS) and poll() woken through an epoll.
 * A buffer that faults does not use up EPOLLET/EPOLLONESHOT reports.
 * Last, the event loop a daemon runs: one epoll_wait over a timer, a pipe
 * and a signal at once.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char *err(long r)
{
	return r >= 0 ? "ok" : strerror(errno);
}

static int add(int ep, int fd, uint32_t events, uint64_t data)
{
	struct epoll_event e = { .events = events, .data.u64 = data };
	errno = 0;
	return epoll_ctl(ep, EPOLL_CTL_ADD, fd, &e);
}

/* One epoll_wait: prints the count and each (events, data). */
static int show(const char *what, int ep, int timeout)
{
	struct epoll_event ev[8];
	errno = 0;
	int n = epoll_wait(ep, ev, 8, timeout);
	printf("%s: %d", what, n);
	if (n < 0)
		printf(" %s", strerror(errno));
	for (int i = 0; i < n; i++)
		printf(" [0x%x %llu]", ev[i].events, (unsigned long long)ev[i].data.u64);
	printf("\n");
	return n;
}

static void handler(int sig)
{
	(void)sig;
}

static void errors(const char *self)
{
	errno = 0;
	printf("epoll_create(0): %s\n", err(epoll_create(0)));
	printf("epoll_create1(1): %s\n", err(epoll_create1(1)));
	int ep = epoll_create1(EPOLL_CLOEXEC);
	printf("EPOLL_CLOEXEC: FD_CLOEXEC %d\n", fcntl(ep, F_GETFD) & FD_CLOEXEC);
	char link[64] = "", path[32];
	snprintf(path, sizeof path, "/proc/self/fd/%d", ep);
	readlink(path, link, sizeof link - 1);
	printf("fd link: %s\n", link);
	int p[2];
	pipe(p);
	printf("ADD pipe: %s\n", err(add(ep, p[0], EPOLLIN, 1)));
	printf("ADD again: %s\n", err(add(ep, p[0], EPOLLIN, 1)));
	struct epoll_event e = { EPOLLIN, { 0 } };
	printf("MOD not added: %s\n", err(epoll_ctl(ep, EPOLL_CTL_MOD, p[1], &e)));
	printf("DEL not added: %s\n", err(epoll_ctl(ep, EPOLL_CTL_DEL, p[1], NULL)));
	printf("bad op: %s\n", err(epoll_ctl(ep, 9, p[0], &e)));
	printf("ADD, NULL event: %s\n", err(epoll_ctl(ep, EPOLL_CTL_ADD, p[1], NULL)));
	printf("epfd 99: %s\n", err(add(99, p[0], EPOLLIN, 0)));
	printf("fd 99: %s\n", err(add(ep, 99, EPOLLIN, 0)));
	int reg = open(self, O_RDONLY);
	printf("regular file: %s\n", err(add(ep, reg, EPOLLIN, 0)));
	printf("epfd == fd: %s\n", err(add(ep, ep, EPOLLIN, 0)));
	printf("epfd not an epoll: %s\n", err(add(p[0], p[1], EPOLLIN, 0)));
	printf("EPOLLEXCLUSIVE | EPOLLONESHOT: %s\n", err(add(ep, p[1], EPOLLEXCLUSIVE | EPOLLONESHOT, 0)));
	int inner = epoll_create1(0);
	printf("epoll in an epoll: %s\n", err(add(ep, inner, EPOLLIN, 0)));
	struct epoll_event ev[1];
	printf("maxevents 0: %s\n", err(epoll_wait(ep, ev, 0, 0)));
	printf("maxevents -1: %s\n", err(syscall(SYS_epoll_wait, ep, ev, -1, 0)));
	printf("wait on a pipe: %s\n", err(epoll_wait(p[0], ev, 1, 0)));
	write(p[1], "x", 1);
	printf("events at 0x1000: %s\n", err(epoll_wait(ep, (void *)0x1000, 1, 0)));
	printf("epoll_pwait sigsetsize 4: %s\n", err(syscall(SYS_epoll_pwait, ep, ev, 1, 0, ev, 4)));
	close(reg), close(inner), close(p[0]), close(p[1]), close(ep);
}

static void triggers(void)
{
	int ep = epoll_create(1);
	int a[2], b[2], c[2];
	pipe(a), pipe(b), pipe(c);
	show("nothing ready, 0 ms", ep, 0);
	add(ep, a[0], EPOLLIN, 10);
	show("nothing ready, 30 ms", ep, 30);
	write(a[1], "x", 1);
	show("level: data", ep, 0);
	show("level: still", ep, 0);
	char buf[16];
	read(a[0], buf, sizeof buf);
	add(ep, b[0], EPOLLIN | EPOLLET, 20);
	write(b[1], "x", 1);
	show("edge: data", ep, 0);
	show("edge: no new data", ep, 0);
	write(b[1], "y", 1);
	show("edge: more data", ep, 0);
	read(b[0], buf, sizeof buf);
	struct epoll_event e = { EPOLLIN | EPOLLONESHOT, { .u64 = 30 } };
	epoll_ctl(ep, EPOLL_CTL_ADD, c[0], &e);
	write(c[1], "x", 1);
	show("oneshot", ep, 0);
	show("oneshot, spent", ep, 0);
	epoll_ctl(ep, EPOLL_CTL_MOD, c[0], &e);
	show("oneshot, after MOD", ep, 0);
	epoll_ctl(ep, EPOLL_CTL_DEL, c[0], NULL);
	show("after DEL", ep, 0);

	/* A write end: EPOLLOUT, then EPOLLERR once the reader is gone; a
	 * read end whose writer is gone: EPOLLHUP (with EPOLLIN: data left). */
	add(ep, a[1], EPOLLOUT, 11);
	show("write end", ep, 0);
	close(a[0]);
	show("write end, reader gone", ep, 0);
	epoll_ctl(ep, EPOLL_CTL_DEL, a[1], NULL);
	write(c[1], "z", 1);
	add(ep, c[0], EPOLLIN | EPOLLRDHUP, 31);
	close(c[1]);
	show("read end, writer gone", ep, 0);

	/* Closed while registered: gone with the open file; a dup keeps it. */
	close(c[0]);
	show("registered pipe closed", ep, 0);
	printf("DEL of the closed fd: %s\n", err(epoll_ctl(ep, EPOLL_CTL_DEL, c[0], NULL)));
	int d = dup(b[0]);
	write(b[1], "x", 1);
	close(b[0]);
	show("closed, but a dup is open", ep, 0);
	close(d), close(a[1]), close(b[1]);

	/* poll on the epoll fd itself: readable while it has something. */
	int t[2];
	pipe(t);
	add(ep, t[0], EPOLLIN, 40);
	write(t[1], "x", 1);
	struct pollfd pf = { ep, POLLIN, 0 };
	printf("poll(epoll fd): %d revents 0x%x\n", poll(&pf, 1, 0), pf.revents);
	close(t[0]), close(t[1]), close(ep);

	/* Three ready, one reported per call: each has its turn. */
	ep = epoll_create1(0);
	int r[3][2];
	for (int i = 0; i < 3; i++) {
		pipe(r[i]);
		write(r[i][1], "x", 1);
		add(ep, r[i][0], EPOLLIN, 50 + i);
	}
	printf("maxevents 1, four calls:");
	for (int i = 0; i < 4; i++) {
		struct epoll_event ev;
		epoll_wait(ep, &ev, 1, 0);
		printf(" %llu", (unsigned long long)ev.data.u64);
	}
	printf("\n");
	for (int i = 0; i < 3; i++)
		close(r[i][0]), close(r[i][1]);
	close(ep);
}

/* A child writes into pipe `p` after 20 ms. */
static pid_t write_later(int p[2])
{
	pid_t c = fork();
	if (c == 0) {
		struct timespec ts = { 0, 20000000 };
		nanosleep(&ts, NULL);
		write(p[1], "x", 1);
		_exit(0);
	}
	return c;
}

static void waits(void)
{
	int ep = epoll_create1(0);
	int p[2];
	pipe(p);
	add(ep, p[0], EPOLLIN, 5);
	pid_t c = write_later(p);
	show("blocking wait, woken by a child's write", ep, -1);
	waitpid(c, NULL, 0);
	char buf[4];
	read(p[0], buf, sizeof buf);

	struct sigaction sa = { 0 };
	sa.sa_handler = handler;
	sa.sa_flags = SA_RESTART;
	sigaction(SIGUSR1, &sa, NULL);
	sigset_t usr1, old, now;
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	/* The child signals every 20 ms until it is killed, so each wait
	 * below is interrupted however late the parent gets there. */
	c = fork();
	if (c == 0) {
		struct timespec ts = { 0, 20000000 };
		for (;;) {
			nanosleep(&ts, NULL);
			kill(getppid(), SIGUSR1);
		}
	}
	show("epoll_wait, a handler with SA_RESTART", ep, -1);
	/* SIGUSR1 blocked, unblocked only inside epoll_pwait. */
	sigprocmask(SIG_BLOCK, &usr1, &old);
	sigset_t none;
	sigemptyset(&none);
	struct epoll_event ev[1];
	errno = 0;
	int n = epoll_pwait(ep, ev, 1, -1, &none);
	sigprocmask(SIG_SETMASK, NULL, &now);
	printf("epoll_pwait, mask swapped in: %d %s, SIGUSR1 blocked again %d\n", n, strerror(errno),
	       sigismember(&now, SIGUSR1));
	kill(c, SIGKILL);
	waitpid(c, NULL, 0);
	sigprocmask(SIG_SETMASK, &old, NULL);
	close(p[0]), close(p[1]), close(ep);
}

/* A report that cannot be copied out is not consumed: Linux's
 * ep_send_events puts the item back and returns the reports before it
 * (EFAULT if none). */
static void faults(void)
{
	int ep = epoll_create1(0), a[2], b[2];
	pipe(a), pipe(b);
	add(ep, a[0], EPOLLIN | EPOLLONESHOT, 1);
	add(ep, b[0], EPOLLIN | EPOLLET, 2);
	write(a[1], "x", 1);
	write(b[1], "x", 1);
	printf("fault: events at 0x1000: %s\n", err(epoll_wait(ep, (void *)0x1000, 2, 0)));
	show("fault: then", ep, 0);
	show("fault: then again", ep, 0);
	/* Room for one report before an unmapped page. */
	char *m = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	munmap(m + 4096, 4096);
	struct epoll_event *edge = (void *)(m + 4096 - sizeof *edge);
	epoll_ctl(ep, EPOLL_CTL_MOD, a[0], &(struct epoll_event){ EPOLLIN | EPOLLET, { .u64 = 1 } });
	write(b[1], "y", 1);
	errno = 0;
	int n = epoll_wait(ep, edge, 2, 0);
	printf("fault: second report faults: %d%s%s, first %llu\n", n, n < 0 ? " " : "",
	       n < 0 ? strerror(errno) : "", n > 0 ? (unsigned long long)edge->data.u64 : 0ull);
	show("fault: after the partial copy", ep, 0);
	munmap(m, 4096);
	close(ep), close(a[0]), close(a[1]), close(b[0]), close(b[1]);
}

/* Epolls in epolls: the outer reports the inner readable while a file in
 * the inner's set is, and a sleeper on the outer (or in poll() on an
 * epoll descriptor) is woken by that file. */
static void nesting(void)
{
	int outer = epoll_create1(0), inner = epoll_create1(0);
	int p[2];
	pipe(p);
	add(inner, p[0], EPOLLIN, 7);
	printf("nest: ADD inner: %s\n", err(add(outer, inner, EPOLLIN, 70)));
	printf("nest: ADD inner again: %s\n", err(add(outer, inner, EPOLLIN, 70)));
	printf("nest: cycle: %s\n", err(add(inner, outer, EPOLLIN, 0)));
	printf("nest: EPOLLEXCLUSIVE on an epoll: %s\n",
	       err(add(epoll_create1(0), inner, EPOLLIN | EPOLLEXCLUSIVE, 0)));
	show("nest: nothing ready", outer, 0);
	write(p[1], "x", 1);
	show("nest: data in the inner's pipe", outer, 0);
	char buf[4];
	read(p[0], buf, sizeof buf);
	show("nest: read", outer, 0);

	pid_t c = write_later(p);
	show("nest: blocking wait, woken by a child's write", outer, -1);
	waitpid(c, NULL, 0);
	read(p[0], buf, sizeof buf);

	c = write_later(p);
	struct pollfd pf = { inner, POLLIN, 0 };
	int n = poll(&pf, 1, -1);
	printf("poll(epoll fd), woken by a child's write: %d revents 0x%x\n", n, pf.revents);
	waitpid(c, NULL, 0);
	read(p[0], buf, sizeof buf);
	c = write_later(p);
	pf.fd = outer;
	n = poll(&pf, 1, -1);
	printf("poll(outer epoll fd), woken by a child's write: %d revents 0x%x\n", n, pf.revents);
	waitpid(c, NULL, 0);
	read(p[0], buf, sizeof buf);
	close(inner);
	show("nest: inner closed", outer, 0);
	close(outer), close(p[0]), close(p[1]);

	/* Chains: each epoll into the next, from the bottom up, then from the
	 * top down (the depth above counts too). */
	int e[7];
	for (int i = 0; i < 7; i++)
		e[i] = epoll_create1(0);
	printf("nest: bottom up:");
	for (int i = 0; i < 6; i++)
		printf(" %s", err(add(e[i + 1], e[i], EPOLLIN, 0)));
	printf("\n");
	for (int i = 0; i < 7; i++)
		close(e[i]), e[i] = epoll_create1(0);
	printf("nest: top down:");
	for (int i = 0; i < 6; i++)
		printf(" %s", err(add(e[i], e[i + 1], EPOLLIN, 0)));
	printf("\n");
	for (int i = 0; i < 7; i++)
		close(e[i]);
}

/* epoll_pwait2 (441 on ppc32): epoll_pwait with a struct __kernel_timespec
 * timeout, 64-bit seconds; called directly, whatever glibc's version. */
struct kts {
	int64_t sec, nsec;
};

static long pwait2_call(int ep, struct epoll_event *ev, const void *ts, const sigset_t *mask)
{
	errno = 0;
	return syscall(441, ep, ev, 1, ts, mask, mask ? 8 : 0);
}

static void pwait2(void)
{
	int ep = epoll_create1(0), p[2];
	pipe(p);
	add(ep, p[0], EPOLLIN, 9);
	struct epoll_event ev = { 0 };
	struct kts zero = { 0, 0 }, ms30 = { 0, 30000000 }, neg = { -1, 0 }, ns = { 0, 1000000000 };
	struct kts sec = { 1, 0 };
	printf("epoll_pwait2, nothing ready, 0: %ld\n", pwait2_call(ep, &ev, &zero, NULL));
	struct timespec a, b;
	clock_gettime(CLOCK_MONOTONIC, &a);
	long n = pwait2_call(ep, &ev, &ms30, NULL);
	clock_gettime(CLOCK_MONOTONIC, &b);
	long waited = (b.tv_sec - a.tv_sec) * 1000 + (b.tv_nsec - a.tv_nsec) / 1000000;
	printf("epoll_pwait2, nothing ready, 30 ms: %ld, waited >= 30 ms %d\n", n, waited >= 30);
	printf("epoll_pwait2, tv_sec -1: %s\n", err(pwait2_call(ep, &ev, &neg, NULL)));
	printf("epoll_pwait2, tv_nsec 1e9: %s\n", err(pwait2_call(ep, &ev, &ns, NULL)));
	printf("epoll_pwait2, timeout at 0x1000: %s\n", err(pwait2_call(ep, &ev, (void *)0x1000, NULL)));
	pid_t c = write_later(p);
	n = pwait2_call(ep, &ev, &sec, NULL);
	printf("epoll_pwait2, 1 s, woken by a child's write: %ld [0x%x %llu]\n", n, ev.events,
	       (unsigned long long)ev.data.u64);
	waitpid(c, NULL, 0);
	sigset_t none;
	sigemptyset(&none);
	printf("epoll_pwait2, NULL timeout, data: %ld\n", pwait2_call(ep, &ev, NULL, &none));
	close(ep), close(p[0]), close(p[1]);
}

/* A daemon's loop: one epoll over a timer, a pipe and a signal. */
static void event_loop(void)
{
	sigset_t usr2;
	sigemptyset(&usr2);
	sigaddset(&usr2, SIGUSR2);
	sigprocmask(SIG_BLOCK, &usr2, NULL);
	int sfd = signalfd(-1, &usr2, 0);
	int tfd = timerfd_create(CLOCK_MONOTONIC, 0);
	struct itimerspec its = { { 0, 0 }, { 0, 30000000 } };
	timerfd_settime(tfd, 0, &its, NULL);
	int p[2];
	pipe(p);
	int ep = epoll_create1(0);
	add(ep, tfd, EPOLLIN, 1);
	add(ep, p[0], EPOLLIN, 2);
	add(ep, sfd, EPOLLIN, 3);
	pid_t c = fork();
	if (c == 0) {
		write(p[1], "hi", 2);
		struct timespec ts = { 0, 10000000 };
		nanosleep(&ts, NULL);
		kill(getppid(), SIGUSR2);
		_exit(0);
	}
	/* The three arrive in an order that depends on timing: the lines are
	 * printed in a fixed one. */
	char line[3][64] = { "", "", "" };
	int seen = 0;
	while (seen != 7) {
		struct epoll_event ev[4];
		int n = epoll_wait(ep, ev, 4, 1000);
		if (n <= 0) {
			printf("event loop: epoll_wait %d\n", n);
			break;
		}
		for (int i = 0; i < n; i++) {
			uint64_t count;
			char buf[8];
			struct signalfd_siginfo si;
			switch (ev[i].data.u64) {
			case 1:
				read(tfd, &count, 8);
				snprintf(line[0], 64, "timer, %llu expiration", (unsigned long long)count);
				break;
			case 2:
				snprintf(line[1], 64, "pipe, %zd bytes", read(p[0], buf, sizeof buf));
				break;
			case 3:
				read(sfd, &si, sizeof si);
				snprintf(line[2], 64, "signal %u from the child %d", si.ssi_signo,
					 si.ssi_pid == (uint32_t)c);
				break;
			}
			seen |= 1 << (ev[i].data.u64 - 1);
		}
	}
	for (int i = 0; i < 3; i++)
		printf("event loop: %s\n", line[i]);
	waitpid(c, NULL, 0);
	close(ep), close(tfd), close(sfd), close(p[0]), close(p[1]);
}

int main(int argc, char **argv)
{
	(void)argc;
	setvbuf(stdout, NULL, _IONBF, 0);
	errors(argv[0]);
	triggers();
	waits();
	nesting();
	faults();
	event_loop();
	pwait2();
	return 0;
}
