/* proclimit: fork until the process limit stops it, then recover.
 *
 * RLIMIT_NPROC is lowered to 64 first (so the program stays small under a
 * Linux that honours it; note root ignores RLIMIT_NPROC on Linux, so the test
 * never runs this under qemu-ppc as root). Children pause; the parent forks
 * until fork fails, checks the errno is EAGAIN, kills and reaps every child,
 * and then shows the system still forks. Prints no counts: the limit is the
 * kernel's business.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_CHILDREN 4096

static pid_t children[MAX_CHILDREN];

int main(void)
{
	struct rlimit lim = { 64, 64 };
	int n = 0, eagain = 0, status;

	setvbuf(stdout, NULL, _IONBF, 0);
	setrlimit(RLIMIT_NPROC, &lim);
	while (n < MAX_CHILDREN) {
		pid_t pid = fork();
		if (pid == 0) {
			for (;;)
				pause();
		}
		if (pid < 0) {
			eagain = errno == EAGAIN;
			break;
		}
		children[n++] = pid;
	}
	printf("fork failed with EAGAIN: %s\n", eagain ? "yes" : "no");

	int reaped = 0;
	for (int i = 0; i < n; i++)
		kill(children[i], SIGKILL);
	for (int i = 0; i < n; i++)
		if (waitpid(children[i], &status, 0) == children[i] && WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL)
			reaped++;
	printf("all children killed and reaped: %s\n", reaped == n ? "yes" : "no");

	pid_t pid = fork();
	if (pid == 0)
		_exit(5);
	int ok = pid > 0 && waitpid(pid, &status, 0) == pid && WEXITSTATUS(status) == 5;
	printf("fork and wait work again: %s\n", ok ? "yes" : "no");
	return 0;
}
