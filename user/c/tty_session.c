/* tty_session: runs a program as the leader of a new session whose
 * controlling terminal is the console (stdin), then exits with its status.
 * What `make run` starts: with no arguments, BusyBox ash as a login shell,
 * which then has job control; with arguments, that program
 * (`tty_session /bin/wc -l`). A process group leader cannot call setsid(),
 * so the session is made in a child, as setsid(1) does; the parent waits.
 * PATH puts Sigil's programs (/bin) first. As PID 1 it also waits for
 * the orphans it inherits (the shell's jobs, hung up when it exits), so
 * they finish before the machine powers off. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
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
	while (getpid() == 1 && (wait(NULL) > 0 || errno == EINTR))
		;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
