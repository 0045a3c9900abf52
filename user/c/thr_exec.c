/* execve from a thread that is not the leader: the other threads (the
 * main thread included, blocked in pthread_join) are killed, and the new
 * program runs with the process's PID. Also exit_group vs exit: the exit
 * status of a process whose main thread returns from main while another
 * thread still runs is main's (exit_group kills the other). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static char *self;
static char pidbuf[16];

static void *execer(void *arg)
{
	(void)arg;
	snprintf(pidbuf, sizeof pidbuf, "%d", getpid());
	char *argv[] = { self, "after", pidbuf, NULL };
	execv(self, argv);
	perror("execv");
	return NULL;
}

static void *sleeper(void *arg)
{
	(void)arg;
	for (;;)
		pause();
	return NULL;
}

int main(int argc, char **argv)
{
	self = argv[0];
	if (argc == 3 && strcmp(argv[1], "after") == 0) {
		printf("after exec: same pid: %s\n", atoi(argv[2]) == getpid() ? "yes" : "no");
		printf("after exec: gettid == getpid: %s\n", syscall(SYS_gettid) == getpid() ? "yes" : "no");
		/* exit_group from main while a thread sleeps: status 5. */
		fflush(stdout);
		pid_t c = fork();
		if (c == 0) {
			pthread_t t;
			pthread_create(&t, NULL, sleeper, NULL);
			exit(5);
		}
		int st;
		waitpid(c, &st, 0);
		printf("exit(5) from main with a sleeping thread: exited %d\n", WEXITSTATUS(st));
		/* The leader exits alone (SYS_exit): the process lives on in its
		 * other thread, until a fatal signal ends it. */
		fflush(stdout);
		c = fork();
		if (c == 0) {
			pthread_t t;
			pthread_create(&t, NULL, sleeper, NULL);
			pthread_exit(NULL);
		}
		usleep(10000);
		printf("leader gone, process still there: %s\n", waitpid(c, &st, WNOHANG) == 0 ? "yes" : "no");
		kill(c, SIGTERM);
		waitpid(c, &st, 0);
		printf("then SIGTERM: killed by signal %d\n", WTERMSIG(st));
		return 0;
	}
	fflush(stdout);
	pthread_t t;
	pthread_create(&t, NULL, execer, NULL);
	pthread_join(t, NULL);
	printf("not reached\n");
	return 1;
}
