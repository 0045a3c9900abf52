/* spawn_bench: the cost of starting a program, in the three ways a C
 * program can: fork + execve + waitpid, vfork + execve + waitpid, and
 * posix_spawn + waitpid (glibc: clone(CLONE_VM | CLONE_VFORK)). argv[1] is
 * the count (default 100), argv[2] the way ("fork", "vfork" or "spawn";
 * default "spawn"). The program started is this one with a count of 0, so
 * it exits at once. Prints nothing; exits 0 when every child exited 0.
 */
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 100;
	const char *way = argc > 2 ? argv[2] : "spawn";
	char *child_argv[] = { argv[0], "0", NULL };

	for (int i = 0; i < n; i++) {
		pid_t pid;
		int status;
		if (strcmp(way, "spawn") == 0) {
			if (posix_spawn(&pid, argv[0], NULL, NULL, child_argv, environ) != 0)
				return 1;
		} else {
			pid = strcmp(way, "vfork") == 0 ? vfork() : fork();
			if (pid == 0) {
				execve(argv[0], child_argv, environ);
				_exit(127);
			}
		}
		if (pid < 0 || waitpid(pid, &status, 0) != pid || status != 0)
			return 1;
	}
	return 0;
}
