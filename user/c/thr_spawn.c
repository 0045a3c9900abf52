/* system() and popen(), which glibc builds on posix_spawn, which is
 * clone(CLONE_VM | CLONE_VFORK) (after clone3, which Sigil answers with
 * ENOSYS so glibc falls back), plus vfork() itself and the clone3 fallback
 * seen directly. Needs /bin/sh (the test installs mini_sh there). */
#include <errno.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

int main(void)
{
	long r = syscall(435 /* clone3 */, NULL, 0);
	printf("clone3(NULL, 0): %ld (%s)\n", r, r < 0 ? strerror(errno) : "ok");
	fflush(stdout);

	int st = system("echo hello from system");
	printf("system(echo): status %d\n", WEXITSTATUS(st));
	st = system("exit 3");
	printf("system(exit 3): exited %d\n", WEXITSTATUS(st));
	printf("system(NULL) (is there a shell?): %s\n", system(NULL) ? "yes" : "no");

	FILE *f = popen("echo one line through popen", "r");
	char line[128] = "";
	if (f && fgets(line, sizeof line, f))
		printf("popen read: %s", line);
	printf("pclose: exited %d\n", f ? WEXITSTATUS(pclose(f)) : -1);

	pid_t pid;
	char *argv[] = { "sh", "-c", "exit 9", NULL };
	int e = posix_spawn(&pid, "/bin/sh", NULL, NULL, argv, environ);
	waitpid(pid, &st, 0);
	printf("posix_spawn: %d, child exited %d\n", e, WEXITSTATUS(st));

	/* vfork: the parent sleeps until the child exits. */
	pid = vfork();
	if (pid == 0)
		_exit(4);
	printf("vfork: parent resumed after the child: %s\n", waitpid(pid, &st, 0) == pid ? "yes" : "no");
	printf("vfork child: exited %d\n", WEXITSTATUS(st));
	return 0;
}
