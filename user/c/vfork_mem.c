/* vfork_mem: a child in its parent's memory, as Linux runs it.
 * - vfork: the child's stores before it exits are the parent's (the parent
 *   sleeps meanwhile); a child killed by a fault or a signal wakes the
 *   parent with the right status; a vfork child may fork, and its child
 *   gets a copy.
 * - posix_spawn (glibc: clone(CLONE_VM | CLONE_VFORK)): the child stores
 *   its exec or file-action error in the parent's memory and exits 127, so
 *   the parent returns the error, having reaped the child.
 * - clone(CLONE_VM | SIGCHLD): a process running beside its parent in the
 *   same memory (no vfork sleep): a handshake through a shared variable,
 *   an mmap the parent then reads, CHILD_SETTID/CHILD_CLEARTID and a futex
 *   wait on the tid word, and the exit status through waitpid.
 * - the flag combinations Linux rejects: EINVAL.
 * Children touch only globals and raw system calls: their TLS (errno, the
 * stdio locks) is the parent's.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static volatile int shared;
static volatile int grandchild_status = -1;
static volatile int go;
static volatile int *volatile mapped;
static volatile pid_t tid_word;
static char stack[64 * 1024] __attribute__((aligned(16)));

static const char *status_text(int st)
{
	static char buf[64];
	if (WIFEXITED(st))
		snprintf(buf, sizeof buf, "exited %d", WEXITSTATUS(st));
	else if (WIFSIGNALED(st))
		snprintf(buf, sizeof buf, "killed by signal %d", WTERMSIG(st));
	else
		snprintf(buf, sizeof buf, "status %#x", st);
	return buf;
}

static void vfork_cases(void)
{
	int st;
	shared = 1;
	pid_t pid = vfork();
	if (pid == 0) {
		shared = 2;
		_exit(0);
	}
	waitpid(pid, &st, 0);
	printf("vfork: the parent sees the child's store: %s\n", shared == 2 ? "yes" : "no");

	pid = vfork();
	if (pid == 0) {
		*(volatile int *)0 = 1;
		_exit(0);
	}
	printf("vfork child faults: the parent runs again, waitpid: %s\n",
	       waitpid(pid, &st, 0) == pid ? status_text(st) : "failed");

	pid = vfork();
	if (pid == 0) {
		raise(SIGTERM);
		_exit(0);
	}
	printf("vfork child raises SIGTERM: the parent runs again, waitpid: %s\n",
	       waitpid(pid, &st, 0) == pid ? status_text(st) : "failed");

	shared = 1;
	pid = vfork();
	if (pid == 0) {
		long g = syscall(SYS_fork);
		if (g == 0) {
			shared = 99;
			syscall(SYS_exit_group, 5);
		}
		int gst;
		if (g > 0 && waitpid(g, &gst, 0) == g)
			grandchild_status = WEXITSTATUS(gst);
		_exit(0);
	}
	waitpid(pid, &st, 0);
	printf("vfork child forks: grandchild exited %d (seen through the vfork child)\n",
	       grandchild_status);
	printf("vfork child forks: the grandchild's store stayed its own: %s\n",
	       shared == 1 ? "yes" : "no");
}

static void spawn_cases(void)
{
	pid_t pid = 0;
	char *argv[] = { "x", NULL };
	int e = posix_spawn(&pid, "/nonexistent", NULL, NULL, argv, environ);
	printf("posix_spawn(/nonexistent): %s\n", strerror(e));
	e = posix_spawnp(&pid, "no-such-program", NULL, NULL, argv, environ);
	printf("posix_spawnp(no-such-program): %s\n", strerror(e));
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 3, "/nonexistent/file", O_RDONLY, 0);
	e = posix_spawn(&pid, "/nonexistent", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	printf("posix_spawn with a failing open action: %s\n", strerror(e));
	errno = 0;
	pid_t left = waitpid(-1, NULL, WNOHANG);
	printf("failed children already reaped: %s\n", left < 0 && errno == ECHILD ? "yes" : "no");
}

static int vm_child(void *arg)
{
	(void)arg;
	while (!go)
		syscall(SYS_sched_yield);
	shared = 42;
	void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p != MAP_FAILED) {
		*(volatile int *)p = 7;
		mapped = p;
	}
	return 3;
}

static void clone_vm_cases(void)
{
	int flags = CLONE_VM | CLONE_CHILD_SETTID | CLONE_CHILD_CLEARTID | SIGCHLD;
	shared = 0;
	pid_t pid = clone(vm_child, stack + sizeof stack, flags, NULL, NULL, NULL, &tid_word);
	if (pid < 0) {
		printf("clone(CLONE_VM | SIGCHLD): %s\n", strerror(errno));
		return;
	}
	printf("clone(CLONE_VM | SIGCHLD): CHILD_SETTID stored the child's id: %s\n",
	       tid_word == pid ? "yes" : "no");
	go = 1;
	pid_t w;
	while ((w = tid_word) != 0)
		syscall(SYS_futex, &tid_word, FUTEX_WAIT, w, NULL, NULL, 0);
	printf("clone(CLONE_VM | SIGCHLD): CHILD_CLEARTID zeroed and woke: yes\n");
	int st;
	printf("clone(CLONE_VM | SIGCHLD): waitpid: %s\n",
	       waitpid(pid, &st, 0) == pid ? status_text(st) : "failed");
	printf("clone(CLONE_VM | SIGCHLD): the child's store %d, its mmap read back %d\n", shared,
	       mapped ? *mapped : -1);
}

static void einval(const char *what, int flags)
{
	errno = 0;
	long r = syscall(SYS_clone, flags, 0, NULL, NULL, NULL);
	if (r == 0)
		syscall(SYS_exit_group, 0);
	if (r > 0)
		waitpid(r, NULL, 0);
	printf("clone(%s): %s\n", what, r < 0 ? strerror(errno) : "a child");
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	vfork_cases();
	spawn_cases();
	clone_vm_cases();
	einval("CLONE_SIGHAND without CLONE_VM", CLONE_SIGHAND | SIGCHLD);
	einval("CLONE_THREAD without CLONE_SIGHAND", CLONE_THREAD | CLONE_VM | SIGCHLD);
	return 0;
}
