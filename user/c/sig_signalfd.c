/* sig_signalfd: signals read from a descriptor, compared with qemu-ppc.
 * Blocked signals are taken by read(2) as 128-byte signalfd_siginfo
 * records, lowest signal first and queued RT signals one by one; each
 * layout's fields (kill, sigqueue, tgkill, SIGCHLD, a POSIX timer); poll
 * and select; a blocking read woken by a signal from another process;
 * the mask changed in place; the errors of signalfd4.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/select.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "show.h"

static const char *who(unsigned pid)
{
	return pid == (unsigned)getpid() ? "self" : pid == 0 ? "0" : "other";
}

static void print(const struct signalfd_siginfo *s)
{
	printf("  signo %u code %d pid %s uid is getuid %d int %d ptr %llu status %d\n",
	       s->ssi_signo, s->ssi_code, who(s->ssi_pid), s->ssi_uid == getuid(), s->ssi_int,
	       (unsigned long long)s->ssi_ptr, s->ssi_status);
}

static int readable(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	return poll(&p, 1, 0) == 1 && p.revents == POLLIN;
}

int main(void)
{
	struct signalfd_siginfo s[4];
	sigset_t mask;
	long n;

	setvbuf(stdout, NULL, _IONBF, 0);
	sigemptyset(&mask);
	sigaddset(&mask, SIGUSR1);
	sigaddset(&mask, SIGUSR2);
	sigaddset(&mask, SIGRTMIN);
	sigaddset(&mask, SIGCHLD);
	sigaddset(&mask, SIGRTMIN + 1);
	sigprocmask(SIG_BLOCK, &mask, NULL);
	int fd = signalfd(-1, &mask, SFD_NONBLOCK | SFD_CLOEXEC);
	printf("signalfd: %s\n", fd >= 0 ? "ok" : strerror(errno));

	show("read, nothing pending", read(fd, s, sizeof s));
	printf("poll, nothing pending: %d\n", readable(fd));
	kill(getpid(), SIGUSR1);
	printf("poll after kill: %d\n", readable(fd));
	show("read 64 bytes", read(fd, s, 64));
	n = read(fd, s, sizeof s);
	show("read after kill", n);
	print(&s[0]);

	/* Lowest first; each queued RT signal is its own record. */
	union sigval v = { .sival_int = 42 };
	sigqueue(getpid(), SIGRTMIN, v);
	v.sival_int = 43;
	sigqueue(getpid(), SIGRTMIN, v);
	raise(SIGUSR2);
	n = read(fd, s, sizeof s);
	show("read of three", n);
	for (int i = 0; i < n / (long)sizeof *s; i++)
		print(&s[i]);

	/* select sees it too. */
	kill(getpid(), SIGUSR2);
	fd_set r;
	FD_ZERO(&r);
	FD_SET(fd, &r);
	struct timeval tv = { 0, 0 };
	show("select", select(fd + 1, &r, NULL, NULL, &tv));
	read(fd, s, sizeof s);

	/* A child blocks reading a signalfd of its own; the parent's signal
	 * wakes it. Then SIGCHLD comes through ours. */
	pid_t child = fork();
	if (child == 0) {
		int b = signalfd(-1, &mask, 0);
		n = read(b, s, sizeof s);
		printf("child read: %ld, signo %u from parent %d\n", n, s[0].ssi_signo,
		       s[0].ssi_pid == (unsigned)getppid());
		_exit(7);
	}
	kill(child, SIGUSR1);
	struct pollfd p = { .fd = fd, .events = POLLIN };
	poll(&p, 1, -1); /* SIGCHLD arrives */
	n = read(fd, s, sizeof s);
	show("read SIGCHLD", n);
	printf("  signo %u code %d pid is child %d status %d\n", s[0].ssi_signo, s[0].ssi_code,
	       s[0].ssi_pid == (unsigned)child, s[0].ssi_status);
	waitpid(child, NULL, 0);

	/* A POSIX timer's signal. */
	timer_t t;
	struct sigevent ev = { .sigev_notify = SIGEV_SIGNAL, .sigev_signo = SIGRTMIN + 1 };
	ev.sigev_value.sival_int = 99;
	timer_create(CLOCK_MONOTONIC, &ev, &t);
	struct itimerspec its = { .it_value = { 0, 1000000 } };
	timer_settime(t, 0, &its, NULL);
	p.revents = 0;
	poll(&p, 1, -1);
	n = read(fd, s, sizeof s);
	show("read timer", n);
	printf("  signo is SIGRTMIN+1 %d code %d overrun %u int %d\n",
	       s[0].ssi_signo == (unsigned)SIGRTMIN + 1, s[0].ssi_code, s[0].ssi_overrun, s[0].ssi_int);

	/* A new mask in place: SIGUSR1 is no longer taken. */
	sigset_t only2;
	sigemptyset(&only2);
	sigaddset(&only2, SIGUSR2);
	show("signalfd(fd, only SIGUSR2) is fd", signalfd(fd, &only2, 0) == fd);
	kill(getpid(), SIGUSR1);
	show("read, SIGUSR1 not in the mask", read(fd, s, sizeof s));
	sigset_t got;
	sigpending(&got);
	printf("SIGUSR1 still pending: %d\n", sigismember(&got, SIGUSR1));

	/* Errors. */
	show("signalfd on stdin", signalfd(0, &mask, 0));
	show("signalfd on fd 99", signalfd(99, &mask, 0));
	show("signalfd4 bad flags", syscall(SYS_signalfd4, -1, &mask, 8, 1));
	show("signalfd4 sizemask 4", syscall(SYS_signalfd4, -1, &mask, 4, 0));
	show("signalfd4 bad mask", syscall(SYS_signalfd4, -1, (void *)16, 8, 0));
	char link[64] = { 0 }, path[32];
	snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
	readlink(path, link, sizeof link - 1);
	printf("fd link: %s\n", link);
	return 0;
}
