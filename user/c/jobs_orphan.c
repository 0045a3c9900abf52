/* jobs_orphan: a stopped job whose group is orphaned is hung up.
 *
 * The program (a group leader) forks M, which makes its own group G and
 * forks two members of G; one stops itself with SIGSTOP. When M exits,
 * nobody outside G in the session is left to continue the stopped member:
 * G is orphaned with a stopped member, so every member gets SIGHUP, then
 * SIGCONT (which resumes the stopped one). Then the same without a stopped
 * member: that group is orphaned too, but nobody is hung up (the parent
 * then ends the members with SIGUSR1). Members report through a pipe; the
 * parent prints the reports sorted, so the output does not depend on which
 * member runs first.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define LINE 32

static int out[2];
static volatile sig_atomic_t hup, usr1;

static void on_signal(int sig)
{
	if (sig == SIGHUP)
		hup = 1;
	else
		usr1 = 1;
}

/* A member: reports whether SIGHUP came before SIGUSR1 ended it. */
static void member(const char *name, int stop, int ready)
{
	sigset_t both, none;
	sigemptyset(&both);
	sigaddset(&both, SIGHUP);
	sigaddset(&both, SIGUSR1);
	sigemptyset(&none);
	sigprocmask(SIG_BLOCK, &both, NULL);
	signal(SIGHUP, on_signal);
	signal(SIGUSR1, on_signal);
	write(ready, "r", 1);
	if (stop)
		raise(SIGSTOP);
	while (!hup && !usr1)
		sigsuspend(&none);
	char line[LINE];
	memset(line, 0, sizeof line);
	snprintf(line, sizeof line, "%s: %s", name, hup ? "SIGHUP" : "no SIGHUP");
	write(out[1], line, LINE);
	_exit(0);
}

/* M: a group of its own with two members, one stopped if `stop`; exits once
 * they are set up. */
static void middle(int stop)
{
	int ready[2];
	char c;
	pipe(ready);
	setpgid(0, 0);
	if (fork() == 0)
		member(stop ? "stopped member" : "member 1", stop, ready[1]);
	read(ready[0], &c, 1);
	if (fork() == 0)
		member(stop ? "running member" : "member 2", 0, ready[1]);
	read(ready[0], &c, 1);
	if (stop) {
		int status;
		waitpid(-1, &status, WUNTRACED);
	}
	_exit(0);
}

static int cmp(const void *a, const void *b)
{
	return strcmp(a, b);
}

static void run(int stop)
{
	char lines[2][LINE];
	int status;
	pid_t m = fork();
	if (m == 0)
		middle(stop);
	waitpid(m, &status, 0);
	/* Any hangup was sent before M's exit was reported: now end the rest. */
	kill(-m, SIGUSR1);
	for (int i = 0; i < 2; i++)
		read(out[0], lines[i], LINE);
	qsort(lines, 2, LINE, cmp);
	for (int i = 0; i < 2; i++)
		printf("  %s\n", lines[i]);
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	pipe(out);
	printf("orphaned with a stopped member:\n");
	run(1);
	printf("orphaned, nothing stopped:\n");
	run(0);
	return 0;
}
