/* fork1000: many sequential fork + exit + wait cycles (process slots recycle).
 *
 * Child i exits with i % 7; the parent sums the statuses. Prints the count
 * and the sum, which only depend on the count (default 1000; argv[1] may
 * give a different count).
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int count = argc > 1 ? atoi(argv[1]) : 1000;
	long sum = 0;
	int done = 0;

	setvbuf(stdout, NULL, _IONBF, 0);
	for (int i = 0; i < count; i++) {
		int status;
		pid_t pid = fork();
		if (pid < 0) {
			printf("fork %d failed\n", i);
			break;
		}
		if (pid == 0)
			_exit(i % 7);
		if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status)) {
			printf("wait %d failed\n", i);
			break;
		}
		sum += WEXITSTATUS(status);
		done++;
	}
	printf("forks: %d, sum of statuses: %ld\n", done, sum);
	return done == count ? 0 : 1;
}
