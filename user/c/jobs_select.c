/* jobs_select: select, pselect6, poll and ppoll over pipes and the console.
 *
 * Readiness of a pipe's ends (empty, data, hung up, broken), timeouts (the
 * time left written back: 0 after a timeout), a blocking wait woken by a
 * child's write, bad descriptors (POLLNVAL, EBADF), and the atomic signal
 * mask of ppoll and pselect6: a signal blocked outside the call interrupts
 * it (EINTR, the handler runs) and is blocked again afterwards; a mask that
 * keeps it blocked lets the call time out with the signal still pending.
 * A timeout in read-only memory is no error (the time left is just not
 * written back).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/select.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t handled;

static void on_signal(int sig)
{
	handled = sig;
}

static void show_poll(const char *what, int fd, short events, int timeout)
{
	struct pollfd p = { .fd = fd, .events = events };
	errno = 0;
	int r = poll(&p, 1, timeout);
	printf("%s: %d%s%s, revents%s%s%s%s%s\n", what, r, r < 0 ? " " : "", r < 0 ? strerror(errno) : "",
	       p.revents & POLLIN ? " IN" : "", p.revents & POLLOUT ? " OUT" : "", p.revents & POLLHUP ? " HUP" : "",
	       p.revents & POLLERR ? " ERR" : "", p.revents & POLLNVAL ? " NVAL" : "");
}

static void show_select(const char *what, int fd, int rd, int wr, long usec)
{
	fd_set r, w;
	FD_ZERO(&r);
	FD_ZERO(&w);
	if (rd)
		FD_SET(fd, &r);
	if (wr)
		FD_SET(fd, &w);
	struct timeval tv = { 0, usec };
	errno = 0;
	int n = select(fd + 1, &r, &w, NULL, usec >= 0 ? &tv : NULL);
	printf("%s: %d%s%s, read %s, write %s", what, n, n < 0 ? " " : "", n < 0 ? strerror(errno) : "",
	       FD_ISSET(fd, &r) ? "yes" : "no", FD_ISSET(fd, &w) ? "yes" : "no");
	if (usec >= 0)
		printf(", time left %ld.%06ld", (long)tv.tv_sec, (long)tv.tv_usec);
	printf("\n");
}

/* A child that writes one byte to `fd` after 100 ms. */
static pid_t late_writer(int fd)
{
	pid_t pid = fork();
	if (pid == 0) {
		usleep(100000);
		write(fd, "x", 1);
		_exit(0);
	}
	return pid;
}

/* A child that sends `sig` to its parent after 100 ms. */
static pid_t late_signal(int sig)
{
	pid_t parent = getpid(), pid = fork();
	if (pid == 0) {
		usleep(100000);
		kill(parent, sig);
		_exit(0);
	}
	return pid;
}

static const char *blocked(int sig)
{
	sigset_t now;
	sigprocmask(SIG_BLOCK, NULL, &now);
	return sigismember(&now, sig) ? "yes" : "no";
}

int main(void)
{
	int p[2], status;
	char c;
	setvbuf(stdout, NULL, _IONBF, 0);
	pipe(p);
	show_poll("empty pipe, poll(0)", p[0], POLLIN, 0);
	show_poll("write end", p[1], POLLOUT, 0);
	show_select("empty pipe, select 50 ms", p[0], 1, 0, 50000);
	show_poll("empty pipe, poll 50 ms", p[0], POLLIN, 50);
	write(p[1], "a", 1);
	show_poll("one byte", p[0], POLLIN, -1);
	show_select("one byte, select", p[0], 1, 0, -1);
	read(p[0], &c, 1);

	pid_t kid = late_writer(p[1]);
	show_poll("poll(-1) until a child writes", p[0], POLLIN, -1);
	waitpid(kid, &status, 0);
	read(p[0], &c, 1);
	kid = late_writer(p[1]);
	show_select("select(NULL) until a child writes", p[0], 1, 0, -1);
	waitpid(kid, &status, 0);
	read(p[0], &c, 1);

	write(p[1], "b", 1);
	close(p[1]);
	show_poll("data, writer gone", p[0], POLLIN, 0);
	read(p[0], &c, 1);
	show_poll("writer gone", p[0], POLLIN, 0);
	show_select("writer gone, select", p[0], 1, 1, 0);
	show_poll("closed fd", p[1], POLLIN, 0);
	show_select("closed fd, select", p[1], 1, 0, 0);
	close(p[0]);

	pipe(p);
	close(p[0]);
	signal(SIGPIPE, SIG_IGN);
	show_poll("reader gone", p[1], POLLOUT, 0);
	close(p[1]);
	show_poll("stdout", 1, POLLOUT, 0);

	/* ppoll and pselect6: a signal blocked outside the call. */
	pipe(p);
	signal(SIGUSR1, on_signal);
	signal(SIGUSR2, on_signal);
	sigset_t usr, none;
	sigemptyset(&usr);
	sigaddset(&usr, SIGUSR1);
	sigaddset(&usr, SIGUSR2);
	sigemptyset(&none);
	sigprocmask(SIG_BLOCK, &usr, NULL);
	struct pollfd pf = { .fd = p[0], .events = POLLIN };
	kid = late_signal(SIGUSR1);
	errno = 0;
	int r = ppoll(&pf, 1, NULL, &none);
	printf("ppoll with SIGUSR1 unblocked: %d %s, handler ran: %s, blocked again: %s\n", r, strerror(errno),
	       handled == SIGUSR1 ? "yes" : "no", blocked(SIGUSR1));
	waitpid(kid, &status, 0);
	handled = 0;
	fd_set rs;
	FD_ZERO(&rs);
	FD_SET(p[0], &rs);
	kid = late_signal(SIGUSR2);
	errno = 0;
	r = pselect(p[0] + 1, &rs, NULL, NULL, NULL, &none);
	printf("pselect with SIGUSR2 unblocked: %d %s, handler ran: %s, blocked again: %s\n", r, strerror(errno),
	       handled == SIGUSR2 ? "yes" : "no", blocked(SIGUSR2));
	waitpid(kid, &status, 0);
	handled = 0;
	kill(getpid(), SIGUSR1);
	struct timespec ts = { 0, 50000000 };
	r = ppoll(&pf, 1, &ts, &usr);
	sigset_t pend;
	sigpending(&pend);
	printf("ppoll with SIGUSR1 kept blocked: %d, time left %ld.%09ld, still pending: %s, handler ran: %s\n", r,
	       (long)ts.tv_sec, ts.tv_nsec, sigismember(&pend, SIGUSR1) ? "yes" : "no", handled ? "yes" : "no");
	sigprocmask(SIG_UNBLOCK, &usr, NULL);
	printf("after unblocking: handler ran: %s\n", handled == SIGUSR1 ? "yes" : "no");

	/* A timeout in read-only memory (raw calls: glibc passes a copy). The
	 * time left cannot be written back, which is no error: the call times
	 * out with 0, and an interrupted one is EINTR, not restarted. */
	struct ts32 {
		int32_t sec, nsec;
	} *ro = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ro[0] = (struct ts32){ 0, 50000000 };
	ro[1] = (struct ts32){ 0, 50000 }; /* a timeval */
	ro[2] = (struct ts32){ 2, 0 };
	mprotect(ro, 4096, PROT_READ);
	errno = 0;
	r = syscall(SYS_ppoll, &pf, 1, &ro[0], NULL, 8);
	printf("ppoll, read-only timeout: %d %s\n", r, strerror(errno));
	FD_ZERO(&rs);
	FD_SET(p[0], &rs);
	r = syscall(SYS__newselect, p[0] + 1, &rs, NULL, NULL, &ro[1]);
	printf("select, read-only timeout: %d %s\n", r, strerror(errno));
	handled = 0;
	kid = late_signal(SIGUSR1);
	r = syscall(SYS_ppoll, &pf, 1, &ro[2], NULL, 8);
	printf("ppoll 2 s, read-only timeout, a handler runs: %d %s, handler ran: %s\n", r, strerror(errno),
	       handled == SIGUSR1 ? "yes" : "no");
	waitpid(kid, &status, 0);
	return 0;
}
