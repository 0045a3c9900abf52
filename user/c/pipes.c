/* pipes: data through a pipe between processes, EOF, and writes with no reader.
 *
 * A child writes two messages and a 64 KiB block (more than a pipe buffer, so
 * the writer must block until the parent reads); the parent reads until EOF.
 * Then writing to a pipe whose read end is closed: SIGPIPE kills the writer by
 * default, and with SIGPIPE ignored write() fails with EPIPE.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define BLOCK (64 * 1024)

static unsigned char block[BLOCK];

static int write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;
	while (len > 0) {
		ssize_t n = write(fd, p, len);
		if (n <= 0)
			return -1;
		p += n;
		len -= n;
	}
	return 0;
}

int main(void)
{
	int p[2], status;
	char buf[4096];

	setvbuf(stdout, NULL, _IONBF, 0);
	for (int i = 0; i < BLOCK; i++)
		block[i] = (unsigned char)(i * 7 + i / 256);

	if (pipe(p) != 0)
		return 1;
	pid_t child = fork();
	if (child == 0) {
		close(p[0]);
		write_all(p[1], "message 1\n", 10);
		write_all(p[1], "message 2\n", 10);
		write_all(p[1], block, BLOCK);
		close(p[1]);
		_exit(0);
	}
	close(p[1]);
	/* Read exactly the two 10-byte messages first. */
	size_t got = 0;
	while (got < 20) {
		ssize_t n = read(p[0], buf + got, 20 - got);
		if (n <= 0)
			break;
		got += n;
	}
	printf("parent read: %.*s", (int)got, buf);
	unsigned long sum = 0, total = 0;
	ssize_t n;
	while ((n = read(p[0], buf, sizeof buf)) > 0) {
		for (ssize_t i = 0; i < n; i++)
			sum = sum * 31 + buf[i];
		total += n;
	}
	unsigned long want = 0;
	for (int i = 0; i < BLOCK; i++)
		want = want * 31 + (char)block[i];
	printf("block: %lu bytes, checksum %s\n", total, sum == want ? "ok" : "BAD");
	printf("read at EOF returns %d\n", (int)n);
	printf("read again at EOF returns %d\n", (int)read(p[0], buf, sizeof buf));
	close(p[0]);
	waitpid(child, &status, 0);
	printf("writer exited with %d\n", WEXITSTATUS(status));

	/* No reader, SIGPIPE at its default action: the writer is killed. */
	if (pipe(p) != 0)
		return 1;
	close(p[0]);
	child = fork();
	if (child == 0) {
		write(p[1], "x", 1);
		_exit(3); /* not reached */
	}
	waitpid(child, &status, 0);
	if (WIFSIGNALED(status))
		printf("write with no reader: killed by signal %d (%s)\n", WTERMSIG(status), strsignal(WTERMSIG(status)));
	else
		printf("write with no reader: exited %d\n", WEXITSTATUS(status));

	/* No reader, SIGPIPE ignored: EPIPE. */
	signal(SIGPIPE, SIG_IGN);
	errno = 0;
	n = write(p[1], "x", 1);
	printf("write with SIGPIPE ignored: %d, errno %s\n", (int)n, strerror(errno));
	close(p[1]);

	/* Reading a pipe whose writers are all gone: immediate EOF. */
	if (pipe(p) != 0)
		return 1;
	close(p[1]);
	printf("read with no writer returns %d\n", (int)read(p[0], buf, 1));
	close(p[0]);

	/* Closed descriptors: EBADF. */
	errno = 0;
	n = read(p[0], buf, 1);
	printf("read on a closed fd: %d, errno %s\n", (int)n, strerror(errno));
	return 0;
}
