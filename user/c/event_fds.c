/* event_fds: eventfd (counter and semaphore modes, blocking, poll) and
 * pidfd_open + pidfd_send_signal, with the errors Linux gives for misuse.
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
