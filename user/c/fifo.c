/* fifo: named pipes (mkfifo), compared with qemu-ppc. The FIFO is "ff" in
 * the working directory (the root on Sigil, a scratch directory under
 * qemu-ppc). Covers Linux's fifo_open rules (who waits for whom, ENXIO,
 * O_RDWR), poll's hang-up only after a writer came and went, data that
 * dies with the last close, a blocking open interrupted by a signal, and
 * what stat, getdents and /proc/self/fd say about one.
 */
#define _GNU_SOURCE
#define _FILE_OFFSET_BITS 64 /* readdir of a 64-bit host's directory under qemu-ppc */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "show.h"

static int revents(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN | POLLOUT };
	poll(&p, 1, 0);
	return p.revents;
}

static void on_alarm(int sig)
{
	(void)sig;
}

int main(void)
{
	struct stat st, fst;
	char buf[16] = { 0 };
	int n;

	umask(022);
	unlink("ff");
	show("mkfifo ff", mkfifo("ff", 0640));
	show("mkfifo ff again", mkfifo("ff", 0640));
	stat("ff", &st);
	printf("stat: fifo %d, mode %o, size %lld, nlink %d\n", S_ISFIFO(st.st_mode),
	       st.st_mode & 07777, (long long)st.st_size, (int)st.st_nlink);
	DIR *d = opendir(".");
	struct dirent *e;
	while ((e = readdir(d)))
		if (!strcmp(e->d_name, "ff"))
			printf("readdir: d_type fifo %d\n", e->d_type == DT_FIFO);
	closedir(d);

	/* Non-blocking opens: a writer needs a reader, a reader needs no one. */
	show("open O_WRONLY|O_NONBLOCK, no reader", open("ff", O_WRONLY | O_NONBLOCK));
	int r = open("ff", O_RDONLY | O_NONBLOCK);
	printf("open O_RDONLY|O_NONBLOCK: %s\n", r >= 0 ? "ok" : strerror(errno));
	show("read, no writer yet", read(r, buf, sizeof buf));
	printf("poll, no writer yet: %#x\n", revents(r));
	int w = open("ff", O_WRONLY | O_NONBLOCK);
	printf("open O_WRONLY|O_NONBLOCK with a reader: %s\n", w >= 0 ? "ok" : strerror(errno));
	fstat(w, &fst);
	printf("fstat: fifo %d, same inode %d\n", S_ISFIFO(fst.st_mode), fst.st_ino == st.st_ino);
	show("lseek", lseek(w, 0, SEEK_SET));
	show("write abc", write(w, "abc", 3));
	printf("poll, data: %#x\n", revents(r));
	ioctl(r, FIONREAD, &n);
	printf("FIONREAD: %d\n", n);
	show("read", read(r, buf, sizeof buf));
	printf("read got \"%s\"\n", buf);
	show("read end write", write(r, "x", 1));
	show("write end read", read(w, buf, 1));
	close(w);
	printf("poll, writer gone: %#x\n", revents(r));
	show("read, writer gone", read(r, buf, sizeof buf));
	close(r);

	/* Blocking opens meet: the child's writer waits for our reader. */
	pid_t pid = fork();
	if (pid == 0) {
		int fd = open("ff", O_WRONLY);
		write(fd, "hello", 5);
		_exit(0);
	}
	r = open("ff", O_RDONLY);
	printf("blocking open O_RDONLY: %s\n", r >= 0 ? "ok" : strerror(errno));
	memset(buf, 0, sizeof buf);
	int got = 0;
	while ((n = read(r, buf + got, sizeof buf - 1 - got)) > 0)
		got += n;
	printf("from the child: \"%s\", then EOF %d\n", buf, n == 0);
	waitpid(pid, NULL, 0);
	close(r);

	/* O_RDWR never waits; what nobody has open is gone. */
	int rw = open("ff", O_RDWR);
	printf("open O_RDWR: %s\n", rw >= 0 ? "ok" : strerror(errno));
	show("write through O_RDWR", write(rw, "left", 4));
	printf("poll O_RDWR: %#x\n", revents(rw));
	close(rw);
	rw = open("ff", O_RDWR);
	ioctl(rw, FIONREAD, &n);
	printf("after the last close, FIONREAD: %d\n", n);
	char link[256] = { 0 }, self[64];
	snprintf(self, sizeof self, "/proc/self/fd/%d", rw);
	readlink(self, link, sizeof link - 1);
	char *base = strrchr(link, '/');
	printf("fd link ends in: %s\n", base ? base + 1 : link);
	show("ftruncate", ftruncate(rw, 0));
	show("fsync", fsync(rw));
	show("fchmod 0600", fchmod(rw, 0600));
	close(rw);

	/* Writing with the readers gone: EPIPE (SIGPIPE ignored). */
	signal(SIGPIPE, SIG_IGN);
	r = open("ff", O_RDONLY | O_NONBLOCK);
	w = open("ff", O_WRONLY | O_NONBLOCK);
	close(r);
	show("write, reader gone", write(w, "x", 1));
	close(w);

	/* A blocking open with no partner is interrupted by a handler
	 * without SA_RESTART: EINTR. */
	struct sigaction sa = { .sa_handler = on_alarm };
	sigaction(SIGALRM, &sa, NULL);
	struct itimerval it = { .it_value = { .tv_usec = 100000 } };
	setitimer(ITIMER_REAL, &it, NULL);
	show("blocking open, alarm", open("ff", O_WRONLY));

	/* Unlinked while open, it still works. */
	r = open("ff", O_RDONLY | O_NONBLOCK);
	w = open("ff", O_WRONLY | O_NONBLOCK);
	show("unlink ff", unlink("ff"));
	show("write after unlink", write(w, "zz", 2));
	show("read after unlink", read(r, buf, sizeof buf));
	close(r);
	close(w);
	show("mknod S_IFIFO", mknod("ff2", S_IFIFO | 0600, 0));
	stat("ff2", &st);
	printf("ff2 fifo %d\n", S_ISFIFO(st.st_mode));
	show("truncate ff2", truncate("ff2", 0));
	show("unlink ff2", unlink("ff2"));
	return 0;
}
