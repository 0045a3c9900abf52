/* fs_fill: fills the tmpfs until ENOSPC, twice, deleting everything in
 * between: the second fill must hold as much as the first (every frame came
 * back), and the kernel must still fork while the file system is full.
 * Sigil only: on a host it would fill the disk.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "on_sigil.h"

static char chunk[65536];

/* Writes files of up to 1 MiB under /tmp until a write fails; returns the
 * bytes written and the number of files through `files`. */
static long long fill(int *files, int *err)
{
	long long total = 0;
	char name[32];
	for (int i = 0;; i++) {
		snprintf(name, sizeof name, "/tmp/fill%d", i);
		int fd = open(name, O_CREAT | O_WRONLY | O_EXCL, 0644);
		if (fd < 0) {
			*err = errno;
			*files = i;
			return total;
		}
		for (int k = 0; k < 16; k++) {
			long n = write(fd, chunk, sizeof chunk);
			if (n > 0)
				total += n;
			if (n < (long)sizeof chunk) {
				*err = n < 0 ? errno : 0;
				if (n >= 0 && write(fd, chunk, 1) < 0)
					*err = errno;
				close(fd);
				*files = i + 1;
				return total;
			}
		}
		close(fd);
	}
}

static void empty(int files)
{
	char name[32];
	for (int i = 0; i < files; i++) {
		snprintf(name, sizeof name, "/tmp/fill%d", i);
		unlink(name);
	}
}

int main(void)
{
	if (!on_sigil()) {
		printf("fs_fill runs on Sigil only\n");
		return 1;
	}
	memset(chunk, 'f', sizeof chunk);
	int files, err;
	long long first = fill(&files, &err);
	printf("first fill: %d files, stopped by %s\n", files, strerror(err));
	pid_t pid = fork();
	if (pid == 0)
		_exit(7);
	int status = 0;
	waitpid(pid, &status, 0);
	printf("fork while full: %s\n", pid > 0 && WEXITSTATUS(status) == 7 ? "ok" : "failed");
	empty(files);
	long long second = fill(&files, &err);
	printf("second fill: %s, stopped by %s\n", second == first ? "same size" : "DIFFERENT",
	       strerror(err));
	printf("filled %lld KiB\n", first >> 10);
	empty(files);
	return 0;
}
