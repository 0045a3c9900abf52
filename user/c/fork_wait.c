/* fork_wait: fork, exit and the wait status encodings.
 *
 * Children exit with several codes, die of SIGTERM and SIGABRT; the parent
 * reaps them with waitpid(pid) and waitpid(-1) and prints the WIF* macros.
 * Ends with the ECHILD case (nothing left to wait for). Only the parent
 * prints, after each wait, so the order is fixed. RLIMIT_CORE is set to 0 so
 * "core dumped" has one meaning everywhere: no core file, WCOREDUMP = 0.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

static void describe(const char *what, int status)
{
	if (WIFEXITED(status))
		printf("%s: exited, status %d\n", what, WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		printf("%s: killed by signal %d (%s), core %d\n", what,
		       WTERMSIG(status), strsignal(WTERMSIG(status)),
		       WCOREDUMP(status) ? 1 : 0);
	else
		printf("%s: other status 0x%x\n", what, status);
}

static pid_t spawn_exit(int code)
{
	pid_t pid = fork();
	if (pid == 0)
		_exit(code);
	return pid;
}

static pid_t spawn_raise(int sig)
{
	pid_t pid = fork();
	if (pid == 0) {
		if (sig == SIGABRT)
			abort();
		raise(sig);
		_exit(99); /* not reached: the default action kills */
	}
	return pid;
}

int main(void)
{
	static const int codes[] = { 0, 1, 42, 255, 256 + 3 };
	pid_t pids[5];
	int status;
	struct rlimit nocore = { 0, 0 };

	setvbuf(stdout, NULL, _IONBF, 0);
	setrlimit(RLIMIT_CORE, &nocore);

	/* waitpid on each specific pid, in reverse order of creation. */
	for (int i = 0; i < 5; i++)
		pids[i] = spawn_exit(codes[i]);
	for (int i = 4; i >= 0; i--) {
		char what[32];
		pid_t got = waitpid(pids[i], &status, 0);
		snprintf(what, sizeof what, "exit(%d)", codes[i]);
		printf("waitpid returned the pid asked for: %s\n", got == pids[i] ? "yes" : "no");
		describe(what, status);
	}

	/* Killed by signals. */
	pid_t t = spawn_raise(SIGTERM);
	waitpid(t, &status, 0);
	describe("raise(SIGTERM)", status);
	pid_t a = spawn_raise(SIGABRT);
	waitpid(a, &status, 0);
	describe("abort()", status);

	/* waitpid(-1) reaps whichever child is done: collect three, check the set. */
	pid_t q[3];
	int seen = 0, sum = 0;
	for (int i = 0; i < 3; i++)
		q[i] = spawn_exit(10 + i);
	for (int i = 0; i < 3; i++) {
		pid_t got = waitpid(-1, &status, 0);
		for (int j = 0; j < 3; j++)
			if (got == q[j])
				seen |= 1 << j;
		sum += WEXITSTATUS(status);
	}
	printf("waitpid(-1) reaped all three: %s, status sum %d\n", seen == 7 ? "yes" : "no", sum);

	/* wait() on a child that is still running blocks until it exits. */
	pid_t s = fork();
	if (s == 0) {
		usleep(50000);
		_exit(5);
	}
	pid_t got = wait(&status);
	printf("wait() blocked for the running child: %s\n", got == s ? "yes" : "no");
	describe("sleeper", status);

	/* WNOHANG on a running child returns 0. */
	int p[2];
	if (pipe(p) != 0)
		return 1;
	pid_t r = fork();
	if (r == 0) {
		char c;
		close(p[1]);
		read(p[0], &c, 1); /* until the parent closes its end */
		_exit(6);
	}
	close(p[0]);
	printf("WNOHANG on a running child returns 0: %s\n", waitpid(r, &status, WNOHANG) == 0 ? "yes" : "no");
	close(p[1]);
	waitpid(r, &status, 0);
	describe("reader", status);

	/* Nothing left: ECHILD. */
	errno = 0;
	pid_t none = waitpid(-1, &status, 0);
	printf("waitpid with no children: %d, errno %s\n", (int)none, strerror(errno));
	errno = 0;
	none = waitpid(12345, &status, 0);
	printf("waitpid of a non-child: %d, errno %s\n", (int)none, strerror(errno));
	return 0;
}
