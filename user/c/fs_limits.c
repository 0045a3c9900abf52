/* fs_limits: the limits a program meets in execve and the tmpfs, as Linux
 * sets them, and that the kernel heap survives them.
 * - execve: one string of 128 KiB with its NUL runs, one byte more is
 *   E2BIG; 200 KB of arguments in total run (Linux allows a quarter of the
 *   8 MiB stack limit), 3 MB do not; the limit follows a lower
 *   RLIMIT_STACK, and a higher one leaves it at 2 MiB (Sigil's cap); a
 *   5000-byte path is ENAMETOOLONG.
 * - write(2) of 2 GiB is cut to MAX_RW_COUNT (qemu-ppc 7.2 says EFAULT).
 * - The tmpfs metadata budget: symbolic links with 255-byte names and
 *   4000-byte targets, then empty files with long names, are made until
 *   ENOSPC; the kernel still forks; everything is deleted and the second
 *   fill holds as many (the leak check at power-off must say ok).
 * Sigil only: on a host it would fill /tmp, and qemu-ppc cannot exec a
 * ppc32 program without binfmt_misc.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "on_sigil.h"

static char self[256];
static char target[4001];

/* Runs this program again with `argc` arguments of `len` bytes each (and
 * "child" first); returns its exit status or -errno of the execve. */
static int spawn(int argc, size_t len)
{
	char **argv = calloc(argc + 2, sizeof *argv);
	argv[0] = "child";
	for (int i = 1; i <= argc; i++) {
		argv[i] = malloc(len + 1);
		memset(argv[i], 'a', len);
		argv[i][len] = 0;
	}
	int pfd[2];
	pipe(pfd);
	pid_t pid = fork();
	if (pid == 0) {
		close(pfd[0]);
		char *envp[] = { NULL };
		execve(self, argv, envp);
		int e = errno;
		write(pfd[1], &e, sizeof e);
		_exit(127);
	}
	close(pfd[1]);
	int e = 0, status;
	long n = read(pfd[0], &e, sizeof e);
	close(pfd[0]);
	waitpid(pid, &status, 0);
	for (int i = 1; i <= argc; i++)
		free(argv[i]);
	free(argv);
	return n == sizeof e ? -e : WEXITSTATUS(status);
}

static void show_exec(const char *what, int r)
{
	if (r < 0)
		printf("%s: %s\n", what, strerror(-r));
	else
		printf("%s: ran, exit %d\n", what, r);
}

/* Spread over this many directories: a directory is searched entry by
 * entry, so thousands in one would make the test slow, not harder. */
#define DIRS 64

/* Makes links (`links`) or empty files in /tmp/meta/NN until one fails;
 * returns how many and the errno through `err`. The names are 251 bytes,
 * different from their start. */
static int fill(int links, int *err)
{
	char name[300];
	for (int i = 0;; i++) {
		snprintf(name, sizeof name, "/tmp/meta/%02d/%c%06d%0244d", i % DIRS, links ? 'l' : 'f', i, 0);
		int r = links ? symlink(target, name) : open(name, O_CREAT | O_EXCL | O_WRONLY, 0644);
		if (r < 0) {
			*err = errno;
			return i;
		}
		if (!links)
			close(r);
	}
}

static void empty(int n, int links)
{
	char name[300];
	for (int i = 0; i < n; i++) {
		snprintf(name, sizeof name, "/tmp/meta/%02d/%c%06d%0244d", i % DIRS, links ? 'l' : 'f', i, 0);
		unlink(name);
	}
}

static void fill_twice(void)
{
	int first[2], second[2], err;
	memset(target, 'x', 4000);
	char sub[32];
	mkdir("/tmp/meta", 0755);
	for (int d = 0; d < DIRS; d++) {
		snprintf(sub, sizeof sub, "/tmp/meta/%02d", d);
		mkdir(sub, 0755);
	}
	for (int round = 0; round < 2; round++) {
		int *n = round ? second : first;
		n[0] = fill(1, &err);
		printf("links: stopped by %s\n", strerror(err));
		pid_t pid = fork();
		if (pid == 0)
			_exit(7);
		int status = 0;
		waitpid(pid, &status, 0);
		printf("fork while full: %s\n", pid > 0 && WEXITSTATUS(status) == 7 ? "ok" : "failed");
		empty(n[0], 1);
		n[1] = fill(0, &err);
		printf("files: stopped by %s\n", strerror(err));
		empty(n[1], 0);
	}
	printf("made %d links and %d files\n", first[0], first[1]);
	printf("second fill: %s\n", first[0] == second[0] && first[1] == second[1] ? "same" : "different");
	int r = 0;
	for (int d = 0; d < DIRS; d++) {
		snprintf(sub, sizeof sub, "/tmp/meta/%02d", d);
		r |= rmdir(sub);
	}
	printf("rmdir: %d\n", r | rmdir("/tmp/meta"));
}

int main(int argc, char **argv)
{
	if (argc > 0 && strcmp(argv[0], "child") == 0) {
		size_t total = 0;
		for (int i = 1; i < argc; i++)
			total += strlen(argv[i]);
		printf("child: %d arguments, %zu bytes\n", argc - 1, total);
		return 3;
	}
	if (!on_sigil()) {
		printf("fs_limits runs on Sigil only\n");
		return 0;
	}
	setvbuf(stdout, NULL, _IONBF, 0);
	long n = readlink("/proc/self/exe", self, sizeof self - 1);
	self[n > 0 ? n : 0] = 0;
	show_exec("one 131071-byte argument", spawn(1, 131071));
	show_exec("one 131072-byte argument", spawn(1, 131072));
	show_exec("4 arguments of 50000 bytes", spawn(4, 50000));
	show_exec("30 arguments of 100000 bytes", spawn(30, 100000));
	/* The argument limit follows RLIMIT_STACK: a quarter of it, at least
	 * 128 KiB, at most 2 MiB (Sigil's cap for its heap; Linux's is 6 MiB).
	 * qemu-ppc ignores a guest's RLIMIT_STACK. */
	struct rlimit small = { 256 << 10, RLIM_INFINITY }, unlimited = { RLIM_INFINITY, RLIM_INFINITY };
	setrlimit(RLIMIT_STACK, &small);
	show_exec("stack 256 KiB: one 100000-byte argument", spawn(1, 100000));
	show_exec("stack 256 KiB: 4 arguments of 50000 bytes", spawn(4, 50000));
	setrlimit(RLIMIT_STACK, &unlimited);
	show_exec("stack unlimited: 24 arguments of 100000 bytes", spawn(24, 100000));
	struct rlimit dflt = { 8 << 20, RLIM_INFINITY };
	setrlimit(RLIMIT_STACK, &dflt);
	char *longpath = malloc(5001);
	memset(longpath, 'p', 5000);
	longpath[5000] = 0;
	char *none[] = { NULL };
	printf("execve 5000-byte path: %s\n", execve(longpath, none, none) < 0 ? strerror(errno) : "?");
	void *big = mmap(NULL, 0x80000000u, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	int null = open("/dev/null", O_WRONLY);
	printf("write 2 GiB to /dev/null: %ld\n", big == MAP_FAILED ? -1L : syscall(SYS_write, null, big, 0x80000000u));
	close(null);
	munmap(big, 0x80000000u);
	fill_twice();
	return 0;
}
