/* event_fds: eventfd (counter and semaphore modes, blocking, poll) and
 * pidfd_open + pidfd_send_signal, poll on a pidfd and waitid(P_PIDFD),
 * with the errors Linux gives for misuse.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef P_PIDFD
#define P_PIDFD 3 /* Linux 5.3's idtype */
#endif

static const char *err(long r)
{
	return r >= 0 ? "ok" : strerror(errno);
}

static long rd(int fd)
{
	uint64_t v = 0;
	errno = 0;
	long r = read(fd, &v, 8);
	return r < 0 ? -1 : (long)v;
}

static long wr(int fd, uint64_t v)
{
	errno = 0;
	return write(fd, &v, 8);
}

static int pidfd_open(pid_t pid, unsigned flags)
{
	return syscall(SYS_pidfd_open, pid, flags);
}

static int pidfd_send_signal(int fd, int sig, siginfo_t *info, unsigned flags)
{
	return syscall(SYS_pidfd_send_signal, fd, sig, info, flags);
}

static void eventfds(void)
{
	int fd = eventfd(3, 0);
	printf("eventfd(3): write 4 -> %ld, read -> %ld\n", wr(fd, 4), rd(fd));
	close(fd);

	fd = eventfd(2, EFD_SEMAPHORE | EFD_NONBLOCK);
	long a = rd(fd), b = rd(fd), c = rd(fd);
	printf("semaphore(2): reads %ld %ld, then %s\n", a, b, c < 0 ? strerror(errno) : "a value");
	printf("write of 2^64-1: %s\n", err(wr(fd, UINT64_MAX)));
	wr(fd, UINT64_MAX - 1);
	printf("write past the maximum, nonblocking: %s\n", err(wr(fd, 1)));
	uint32_t small;
	errno = 0;
	printf("4-byte read: %s\n", err(read(fd, &small, 4)));
	struct pollfd p = { .fd = fd, .events = POLLIN | POLLOUT };
	poll(&p, 1, 0);
	printf("full counter polls: %s%s\n", p.revents & POLLIN ? "IN" : "", p.revents & POLLOUT ? " OUT" : "");
	close(fd);

	/* A child posts after a delay: a blocking read and a poll wake up. */
	fd = eventfd(0, 0);
	pid_t pid = fork();
	if (pid == 0) {
		usleep(20000);
		wr(fd, 5);
		usleep(20000);
		wr(fd, 6);
		_exit(0);
	}
	printf("blocking read woke with %ld\n", rd(fd));
	p = (struct pollfd){ .fd = fd, .events = POLLIN };
	int n = poll(&p, 1, 5000);
	printf("poll woke: %d, %s, then read %ld\n", n, p.revents & POLLIN ? "POLLIN" : "-", rd(fd));
	waitpid(pid, NULL, 0);
	close(fd);
	errno = 0;
	printf("eventfd2 with an unknown flag: %s\n", err(eventfd(0, 8)));
}

/* A pidfd becomes readable when its process ends, and waitid(P_PIDFD)
 * waits for that child (with PIDFD_NONBLOCK: EAGAIN while it runs). */
static void pidfd_wait(int efd)
{
	int go[2];
	pipe(go);
	pid_t pid = fork();
	if (pid == 0) {
		char c;
		read(go[0], &c, 1);
		_exit(3);
	}
	int fd = pidfd_open(pid, O_NONBLOCK);
	struct pollfd p = { .fd = fd, .events = POLLIN };
	printf("pidfd poll while it runs: %d\n", poll(&p, 1, 0));
	printf("pidfd F_GETFL has O_NONBLOCK: %d\n", (fcntl(fd, F_GETFL) & O_NONBLOCK) != 0);
	siginfo_t si;
	memset(&si, 0, sizeof si);
	errno = 0;
	printf("waitid(P_PIDFD, nonblocking pidfd): %s\n", err(waitid(P_PIDFD, fd, &si, WEXITED)));
	printf("waitid(P_PIDFD, WNOHANG): %s, si_pid 0 %d\n",
	       err(waitid(P_PIDFD, fd, &si, WEXITED | WNOHANG)), si.si_pid == 0);
	write(go[1], "x", 1);
	printf("pidfd poll until it ends: %d, revents %#x\n", poll(&p, 1, -1), p.revents);
	printf("waitid(P_PIDFD): %s, si_pid is the child %d, code %d, status %d\n",
	       err(waitid(P_PIDFD, fd, &si, WEXITED)), si.si_pid == pid, si.si_code, si.si_status);
	errno = 0;
	printf("waitid(P_PIDFD) again: %s\n", err(waitid(P_PIDFD, fd, &si, WEXITED)));
	printf("pidfd poll after the reap: %d\n", poll(&p, 1, 0));
	errno = 0;
	printf("waitid(P_PIDFD, an eventfd): %s\n", err(waitid(P_PIDFD, efd, &si, WEXITED)));
	errno = 0;
	printf("waitid(P_PIDFD, fd 99): %s\n", err(waitid(P_PIDFD, 99, &si, WEXITED)));
	errno = 0;
	printf("waitid(P_PIDFD, -1): %s\n", err(waitid(P_PIDFD, -1, &si, WEXITED)));
	close(fd);
	close(go[0]);
	close(go[1]);
}

static void pidfds(void)
{
	int status;
	pid_t pid = fork();
	if (pid == 0) {
		for (;;)
			pause();
	}
	int fd = pidfd_open(pid, 0);
	printf("pidfd_open(child): %s, close-on-exec %s\n", err(fd), fcntl(fd, F_GETFD) & FD_CLOEXEC ? "yes" : "no");
	errno = 0;
	printf("pidfd_send_signal(unknown flag): %s\n", err(pidfd_send_signal(fd, SIGTERM, NULL, 0x100)));
	printf("pidfd_send_signal(0): %s\n", err(pidfd_send_signal(fd, 0, NULL, 0)));
	siginfo_t si;
	memset(&si, 0, sizeof si);
	si.si_signo = SIGUSR1;
	si.si_code = SI_QUEUE;
	errno = 0;
	printf("pidfd_send_signal, si_signo not sig: %s\n", err(pidfd_send_signal(fd, SIGTERM, &si, 0)));
	si.si_code = SI_USER;
	errno = 0;
	printf("pidfd_send_signal, forged SI_USER: %s\n", err(pidfd_send_signal(fd, SIGUSR1, &si, 0)));
	/* Signal 0 with a siginfo is the existence check after the siginfo's own checks. */
	si.si_signo = 0;
	errno = 0;
	printf("pidfd_send_signal(0, forged SI_USER): %s\n", err(pidfd_send_signal(fd, 0, &si, 0)));
	si.si_code = SI_QUEUE;
	errno = 0;
	printf("pidfd_send_signal(0, SI_QUEUE): %s\n", err(pidfd_send_signal(fd, 0, &si, 0)));
	printf("pidfd_send_signal(SIGTERM): %s\n", err(pidfd_send_signal(fd, SIGTERM, NULL, 0)));
	waitpid(pid, &status, 0);
	printf("child: killed by %d\n", WIFSIGNALED(status) ? WTERMSIG(status) : -1);
	errno = 0;
	printf("pidfd_send_signal after the reap: %s\n", err(pidfd_send_signal(fd, SIGTERM, NULL, 0)));
	close(fd);

	int efd = eventfd(0, 0);
	errno = 0;
	printf("pidfd_send_signal on an eventfd: %s\n", err(pidfd_send_signal(efd, SIGTERM, NULL, 0)));
	errno = 0;
	printf("pidfd_send_signal on fd 99: %s\n", err(pidfd_send_signal(99, SIGTERM, NULL, 0)));
	pidfd_wait(efd);
	errno = 0;
	printf("pidfd_open(-1): %s\n", err(pidfd_open(-1, 0)));
	errno = 0;
	printf("pidfd_open(self, bad flag): %s\n", err(pidfd_open(getpid(), 1)));
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	eventfds();
	pidfds();
	return 0;
}
