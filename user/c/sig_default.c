/* sig_default: what the default actions do to a process.
 *
 * Each case runs in a child; the parent prints the wait status. Terminate
 * (SIGTERM, SIGUSR1, SIGKILL even when "blocked"), core (SIGSEGV from a NULL
 * write, SIGABRT: RLIMIT_CORE is 0, so no core is written and WCOREDUMP is 0),
 * ignore (SIGCHLD, SIGURG, SIGTERM set to SIG_IGN), and stop/continue
 * (SIGSTOP, SIGCONT seen through WUNTRACED and WCONTINUED).
 */
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
		printf("%s: exited %d\n", what, WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		printf("%s: killed by %d (%s), core %d\n", what, WTERMSIG(status), strsignal(WTERMSIG(status)),
		       WCOREDUMP(status) ? 1 : 0);
	else if (WIFSTOPPED(status))
		printf("%s: stopped by %d (%s)\n", what, WSTOPSIG(status), strsignal(WSTOPSIG(status)));
	else if (WIFCONTINUED(status))
		printf("%s: continued\n", what);
	else
		printf("%s: status 0x%x\n", what, status);
}

static void child_null_write(void)
{
	*(volatile int *)0 = 1;
}

static void child_blocked_kill(void)
{
	sigset_t all;
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, NULL);
	raise(SIGKILL);
}

static void child_ignore_defaults(void)
{
	raise(SIGCHLD);
	raise(SIGURG);
	raise(SIGWINCH);
	raise(SIGCONT);
}

static void child_sig_ign(void)
{
	signal(SIGTERM, SIG_IGN);
	raise(SIGTERM);
}

static void run(const char *what, void (*body)(void), int sig)
{
	int status;
	pid_t pid = fork();
	if (pid == 0) {
		if (body) {
			body();
		} else {
			/* The default action, whatever was inherited: a reference
			 * run under nohup starts with SIGHUP ignored. */
			signal(sig, SIG_DFL);
			raise(sig);
		}
		_exit(0);
	}
	waitpid(pid, &status, 0);
	describe(what, status);
}

int main(void)
{
	struct rlimit nocore = { 0, 0 };
	int status;

	setvbuf(stdout, NULL, _IONBF, 0);
	setrlimit(RLIMIT_CORE, &nocore);

	run("SIGTERM", NULL, SIGTERM);
	run("SIGUSR1", NULL, SIGUSR1);
	run("SIGHUP", NULL, SIGHUP);
	run("SIGALRM", NULL, SIGALRM);
	run("SIGRTMIN", NULL, SIGRTMIN);
	run("SIGKILL while everything is blocked", child_blocked_kill, 0);
	run("NULL write (SIGSEGV)", child_null_write, 0);
	run("SIGABRT via abort()", abort, 0);
	run("SIGQUIT", NULL, SIGQUIT);
	run("SIGCHLD, SIGURG, SIGWINCH, SIGCONT", child_ignore_defaults, 0);
	run("SIGTERM set to SIG_IGN", child_sig_ign, 0);

	/* Stop and continue: the child stops itself, the parent sees it and
	 * resumes it. The child then waits on a pipe before exiting: had it
	 * exited at once, wait might report the exit before the continue. */
	int go[2];
	if (pipe(go) != 0)
		return 1;
	pid_t pid = fork();
	if (pid == 0) {
		char c;
		raise(SIGSTOP);
		_exit(read(go[0], &c, 1) == 1 ? 4 : 5);
	}
	waitpid(pid, &status, WUNTRACED);
	describe("raise(SIGSTOP)", status);
	kill(pid, SIGCONT);
	waitpid(pid, &status, WCONTINUED);
	describe("after SIGCONT", status);
	write(go[1], "x", 1);
	waitpid(pid, &status, 0);
	describe("then", status);

	/* A stopped child still dies of SIGKILL. */
	pid = fork();
	if (pid == 0) {
		raise(SIGSTOP);
		_exit(4);
	}
	waitpid(pid, &status, WUNTRACED);
	describe("stopped again", status);
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	describe("SIGKILL while stopped", status);

	/* SIGTSTP from another process stops too; SIGCONT resumes. */
	pid = fork();
	if (pid == 0) {
		for (;;)
			pause();
	}
	kill(pid, SIGTSTP);
	waitpid(pid, &status, WUNTRACED);
	describe("SIGTSTP", status);
	kill(pid, SIGCONT);
	waitpid(pid, &status, WCONTINUED);
	describe("after SIGCONT", status);
	kill(pid, SIGTERM);
	waitpid(pid, &status, 0);
	describe("then SIGTERM", status);
	return 0;
}
