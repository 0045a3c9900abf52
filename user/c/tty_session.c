/* tty_session: runs a program as the leader of a new session whose
 * controlling terminal is the console (stdin), then exits with its status.
 * What `make run` starts: with no arguments, BusyBox ash as a login shell,
 * which then has job control; with arguments, that program
 * (`tty_session /bin/wc -l`). A process group leader cannot call setsid(),
 * so the session is made in a child, as setsid(1) does; the parent waits.
 * PATH puts Sigil's programs (/bin) first. It is a child subreaper
 * (prctl PR_SET_CHILD_SUBREAPER): the jobs the shell leaves behind come to
 * it rather than to init (a stopped one is hung up as the shell exits),
 * and it waits for them, so they finish before init powers off. So a
 * background job still running when the shell exits keeps the machine up
 * until it ends, as it would keep running on Linux. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	static char *shell[] = {"-sh", NULL};
	char **cmd = argc > 1 ? argv + 1 : shell;
	const char *path = argc > 1 ? argv[1] : "/bin/sh";
	int status;
	pid_t pid;

	setenv("PATH", "/bin:/sbin:/usr/bin:/usr/sbin", 0);
	if (prctl(PR_SET_CHILD_SUBREAPER, 1) < 0)
		perror("tty_session: prctl");
	pid = fork();
	if (pid < 0) {
		perror("tty_session: fork");
		return 1;
	}
	if (pid == 0) {
		if (setsid() < 0 || ioctl(0, TIOCSCTTY, 0) < 0) {
			perror("tty_session: a session on the console");
			_exit(1);
		}
		execvp(path, cmd);
		perror(path);
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			perror("tty_session: waitpid");
			return 1;
		}
	}
	while (wait(NULL) > 0 || errno == EINTR)
		;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
