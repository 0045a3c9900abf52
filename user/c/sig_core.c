/* sig_core: the WCOREDUMP bit of a wait status follows RLIMIT_CORE, as on Linux.
 *
 * A core-dump signal (SIGABRT, SIGSEGV, ...) reports a core only when the
 * RLIMIT_CORE soft limit is above 0; Linux starts every process with 0.
 * Terminate-only signals (SIGTERM) never do. The limit is inherited across
 * fork, so the children below die with their parent's setting. Sigil-only:
 * under qemu-ppc a raised limit would make the emulator write real core files.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

static void die_by(int sig, const char *limit)
{
	pid_t pid = fork();
	if (pid == 0) {
		if (sig == SIGSEGV)
			*(volatile int *)0 = 1; /* a real fault, not a kill() */
		kill(getpid(), sig);
		_exit(99);
	}
	int st;
	waitpid(pid, &st, 0);
	printf("%s with RLIMIT_CORE %s: killed by %d, core %d\n", strsignal(sig), limit,
	       WIFSIGNALED(st) ? WTERMSIG(st) : 0, WIFSIGNALED(st) && WCOREDUMP(st) ? 1 : 0);
}

static const char *show(rlim_t v)
{
	static char buf[2][16];
	static int n;
	if (v == RLIM_INFINITY)
		return "unlimited";
	snprintf(buf[n ^= 1], sizeof buf[0], "%lu", (unsigned long)v);
	return buf[n];
}

int main(void)
{
	struct rlimit r;

	setvbuf(stdout, NULL, _IONBF, 0);
	getrlimit(RLIMIT_CORE, &r);
	printf("initial RLIMIT_CORE: soft %s, hard %s\n", show(r.rlim_cur), show(r.rlim_max));
	die_by(SIGABRT, "0");

	r.rlim_cur = r.rlim_max = RLIM_INFINITY;
	printf("raise to unlimited: %d\n", setrlimit(RLIMIT_CORE, &r));
	die_by(SIGABRT, "unlimited");
	die_by(SIGSEGV, "unlimited");
	die_by(SIGTERM, "unlimited");

	r.rlim_cur = 4096;
	r.rlim_max = 1024;
	errno = 0;
	printf("soft above hard: %d, %s\n", setrlimit(RLIMIT_CORE, &r), strerror(errno));
	errno = 0;
	printf("unknown resource: %d, %s\n", getrlimit(99, &r), strerror(errno));
	r.rlim_cur = 0;
	r.rlim_max = 0;
	errno = 0;
	printf("lower RLIMIT_CORE to 0/0: %d, %s\n", setrlimit(RLIMIT_CORE, &r), strerror(errno));
	die_by(SIGABRT, "0/0");
	return 0;
}
