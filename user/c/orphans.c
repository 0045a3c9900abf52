/* orphans: PID 1 exits while its children are still busy, so the kernel
 * must kill and reap them itself before its leak check.
 *
 * Left behind: one child in pause(), one blocked reading a pipe, one in a
 * 100 s nanosleep, one stopped by SIGSTOP, one zombie never waited for,
 * and one with a grandchild of its own, both in pause().
 */
#include <signal.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

int main(void)
{
	int p[2];
	pipe(p);
	if (fork() == 0)
		for (;;)
			pause();
	if (fork() == 0) {
		char c;
		read(p[0], &c, 1);
		_exit(1);
	}
	if (fork() == 0) {
		struct timespec t = { 100, 0 };
		nanosleep(&t, NULL);
		_exit(1);
	}
	if (fork() == 0) {
		raise(SIGSTOP);
		_exit(1);
	}
	if (fork() == 0)
		_exit(0);
	if (fork() == 0) {
		fork();
		for (;;)
			pause();
	}
	struct timespec t = { 0, 50000000 };
	nanosleep(&t, NULL);
	printf("orphans: PID 1 exits with 7 processes left behind\n");
	return 0;
}
