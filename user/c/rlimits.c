/* rlimits: resource limits as a process meets them, compared with qemu-ppc.
 * RLIMIT_NOFILE lowered stops open() at the soft limit (EMFILE), dup2 and
 * F_DUPFD at or past it (EBADF, EINVAL); the soft limit rises back to the
 * hard one; fork inherits the limits; prlimit64 reads another process's
 * (ESRCH for none); the errors of a bad request (EINVAL) and of a hard
 * limit past the kernel's table (EPERM); then, as a user,
 * raising a hard limit is EPERM and RLIMIT_NPROC stops fork (EAGAIN).
 * The host's own limits differ from Sigil's, so values are printed only
 * after this program set them.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "show.h"

static void nofile(const char *who)
{
	struct rlimit r;
	getrlimit(RLIMIT_NOFILE, &r);
	printf("%s: NOFILE %ld/%ld\n", who, (long)r.rlim_cur, (long)r.rlim_max);
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0); /* the child's line too, to a pipe */
	struct rlimit r = { 8, 16 };
	show("setrlimit NOFILE 8/16", setrlimit(RLIMIT_NOFILE, &r));
	nofile("after");
	int fd, last = -1;
	while ((fd = open("/proc/self/exe", O_RDONLY)) >= 0)
		last = fd;
	printf("open until failure: %s, last fd below 8: %s\n", strerror(errno),
	       last >= 0 && last < 8 ? "yes" : "no");
	show("dup2 to 7", dup2(0, 7));
	show("dup2 to 8", dup2(0, 8));
	show("F_DUPFD from 8", fcntl(0, F_DUPFD, 8));

	r.rlim_cur = 16;
	show("soft up to the hard limit", setrlimit(RLIMIT_NOFILE, &r));
	show("F_DUPFD from 8 now", fcntl(0, F_DUPFD, 8));
	pid_t pid = fork();
	if (pid == 0) {
		nofile("child");
		_exit(0);
	}
	waitpid(pid, NULL, 0);

	struct rlimit got;
	show("prlimit of the parent", prlimit(getppid(), RLIMIT_CORE, NULL, &got));
	show("prlimit of no process", prlimit(0x3fffffff, RLIMIT_CORE, NULL, &got));
	show("prlimit of myself", prlimit(getpid(), RLIMIT_NOFILE, NULL, &got));
	printf("it says %ld/%ld\n", (long)got.rlim_cur, (long)got.rlim_max);

	show("getrlimit of resource 16", getrlimit(16, &got));
	struct rlimit inverted = { 10, 5 };
	show("soft above hard", setrlimit(RLIMIT_CORE, &inverted));
	struct rlimit huge = { 1 << 21, 1 << 21 };
	show("NOFILE past the kernel's table", setrlimit(RLIMIT_NOFILE, &huge));
	/* Raising a hard limit as root is not compared: a container's root
	 * may lack CAP_SYS_RESOURCE (sigil-core's host tests cover it). */
	struct rlimit core = { 0, 0 };
	show("root lowers CORE's hard limit", setrlimit(RLIMIT_CORE, &core));

	/* As a user nobody else runs as. */
	show("setuid 54321", setuid(54321));
	show("the user raises NOFILE's hard limit", setrlimit(RLIMIT_NOFILE, &(struct rlimit){ 16, 32 }));
	show("the user lowers it", setrlimit(RLIMIT_NOFILE, &(struct rlimit){ 16, 16 }));
	show("NPROC 1", setrlimit(RLIMIT_NPROC, &(struct rlimit){ 1, 1 }));
	pid = fork();
	if (pid == 0)
		_exit(0);
	show("fork at the NPROC limit", pid);
	show("prlimit of root's parent", prlimit(getppid(), RLIMIT_CORE, NULL, &got));
	return 0;
}
