/* sig_select_eintr: a caught signal interrupts select(), for every signal
 * the Open POSIX Test Suite's sigaction/17-1..26 try (a handler installed
 * without SA_RESTART: select returns -1 with EINTR), compared with qemu-ppc.
 *
 * Each signal gets a child of its own that installs the handler, tells the
 * parent it is about to wait, and sleeps in select (3 s, never reached).
 * The parent waits until /proc says the child sleeps, so the signal finds
 * it inside select and not before (the suite sleeps one second instead),
 * then sends the signal. The child's exit status says what select did.
 *
 * Three more cases show the rules around it:
 * - SA_RESTART does not restart select: Linux returns EINTR all the same
 *   (its select is ERESTARTNOHAND, restarted only when no handler ran);
 *   the suite's sigaction/16-* expect the opposite and fail on Linux too;
 * - a signal whose default action is to ignore (SIGCHLD, SIG_DFL) does not
 *   interrupt select at all: it times out;
 * - SIGSTOP then SIGCONT without a handler: select goes on sleeping, is
 *   restarted transparently, and times out.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/select.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t caught;

static void handler(int sig)
{
	caught = sig;
}

enum { INTERRUPTED = 10, TIMED_OUT = 11, OTHER = 12 };

/* The child: install `how` for `sig`, say so, and sleep in select. */
static int child(int sig, int how, long wait_ms, int ready)
{
	if (how >= 0) {
		struct sigaction sa = { .sa_handler = handler, .sa_flags = how };
		sigemptyset(&sa.sa_mask);
		sigaction(sig, &sa, NULL);
	}
	struct timeval tv = { .tv_sec = wait_ms / 1000, .tv_usec = wait_ms % 1000 * 1000 };
	write(ready, "r", 1);
	int r = select(0, NULL, NULL, NULL, &tv);
	if (r == -1 && errno == EINTR && caught == sig)
		return INTERRUPTED;
	if (r == 0 && !caught)
		return TIMED_OUT;
	return OTHER;
}

/* Waits until `pid` sleeps (state S in /proc/<pid>/stat). */
static void until_sleeping(pid_t pid)
{
	char path[32], buf[256];
	snprintf(path, sizeof path, "/proc/%d/stat", pid);
	for (int i = 0; i < 100000; i++) {
		FILE *f = fopen(path, "r");
		if (f) {
			size_t n = fread(buf, 1, sizeof buf - 1, f);
			fclose(f);
			buf[n] = 0;
			char *close = strrchr(buf, ')');
			if (close && close[1] == ' ' && close[2] == 'S')
				return;
		}
		struct timespec ms = { 0, 1000000 };
		nanosleep(&ms, NULL);
	}
}

/* One case: the child's answer, as a word. `how` is sa_flags for a handler,
 * or -1 for none; `stop` sends SIGSTOP first and `sig` after. */
static const char *run(int sig, int how, long wait_ms, int stop)
{
	int p[2];
	pipe(p);
	pid_t pid = fork();
	if (pid == 0)
		_exit(child(sig, how, wait_ms, p[1]));
	char c;
	read(p[0], &c, 1);
	close(p[0]);
	close(p[1]);
	until_sleeping(pid);
	int status;
	if (stop) {
		kill(pid, SIGSTOP);
		waitpid(pid, &status, WUNTRACED);
	}
	kill(pid, sig);
	waitpid(pid, &status, 0);
	if (!WIFEXITED(status))
		return "killed";
	switch (WEXITSTATUS(status)) {
	case INTERRUPTED:
		return "EINTR, handler ran";
	case TIMED_OUT:
		return "timed out";
	default:
		return "something else";
	}
}

int main(void)
{
	/* sigaction/17-1 .. 17-26, in the suite's order. */
	static const int sigs[] = {
		SIGABRT, SIGALRM, SIGBUS,  SIGCHLD, SIGCONT,   SIGFPE,  SIGHUP,
		SIGILL,	 SIGINT,  SIGPIPE, SIGQUIT, SIGSEGV,   SIGTERM, SIGTSTP,
		SIGTTIN, SIGTTOU, SIGUSR1, SIGUSR2, SIGPOLL,   SIGPROF, SIGSYS,
		SIGTRAP, SIGURG,  SIGVTALRM, SIGXCPU, SIGXFSZ,
	};
	for (unsigned i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
		printf("SIG%s, no SA_RESTART: %s\n", sigabbrev_np(sigs[i]), run(sigs[i], 0, 3000, 0));
	printf("SIGUSR1, SA_RESTART: %s\n", run(SIGUSR1, SA_RESTART, 3000, 0));
	printf("SIGCHLD, SIG_DFL: %s\n", run(SIGCHLD, -1, 200, 0));
	printf("SIGSTOP, SIGCONT, no handler: %s\n", run(SIGCONT, -1, 200, 1));
	return 0;
}
