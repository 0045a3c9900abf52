/* Group stop and group kill of a 4-thread child, seen by its parent:
 * SIGSTOP stops every thread (waitpid WUNTRACED reports it once), SIGCONT
 * resumes them all (WCONTINUED), and SIGKILL ends the whole process, as
 * does a fatal default action (SIGTERM). */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#define N 4

static void *spin(void *arg)
{
	volatile unsigned *c = arg;
	for (;;) {
		(*c)++;
		if ((*c & 1023) == 0)
			sched_yield();
	}
	return NULL;
}

static void report(const char *what, int st)
{
	if (WIFSTOPPED(st))
		printf("%s: stopped by signal %d\n", what, WSTOPSIG(st));
	else if (WIFCONTINUED(st))
		printf("%s: continued\n", what);
	else if (WIFSIGNALED(st))
		printf("%s: killed by signal %d\n", what, WTERMSIG(st));
	else
		printf("%s: exited %d\n", what, WEXITSTATUS(st));
}

/* The child: N threads (main + 3) spinning; it never exits by itself. */
static void child(int fd)
{
	static unsigned c[N];
	pthread_t t;
	for (int i = 1; i < N; i++)
		pthread_create(&t, NULL, spin, (void *)&c[i]);
	char b = 'r';
	write(fd, &b, 1);
	spin((void *)&c[0]);
}

int main(void)
{
	int p[2];
	pipe(p);
	pid_t pid = fork();
	if (pid == 0)
		child(p[1]);
	char b;
	read(p[0], &b, 1);
	int st;
	kill(pid, SIGSTOP);
	pid_t w = waitpid(pid, &st, WUNTRACED);
	report(w == pid ? "SIGSTOP, waitpid(WUNTRACED)" : "waitpid failed", st);
	printf("nothing more to report while stopped: %d\n", waitpid(pid, &st, WNOHANG | WUNTRACED));
	kill(pid, SIGCONT);
	w = waitpid(pid, &st, WCONTINUED);
	report(w == pid ? "SIGCONT, waitpid(WCONTINUED)" : "waitpid failed", st);
	usleep(20000);
	kill(pid, SIGKILL);
	w = waitpid(pid, &st, 0);
	report(w == pid ? "SIGKILL of the 4-thread child" : "waitpid failed", st);

	/* A fatal default action (SIGTERM) in one thread ends them all too. */
	pid = fork();
	if (pid == 0)
		child(p[1]);
	read(p[0], &b, 1);
	kill(pid, SIGTERM);
	w = waitpid(pid, &st, 0);
	report(w == pid ? "SIGTERM of the 4-thread child" : "waitpid failed", st);
	printf("no children left: %d\n", waitpid(-1, &st, 0));
	return 0;
}
