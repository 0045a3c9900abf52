/* clone_share: what clone's sharing flags share, as Linux runs them.
 * Each of the descriptor table (CLONE_FILES), the working directory and
 * umask (CLONE_FS) and the signal handlers (CLONE_SIGHAND) is an object of
 * its own, shared or copied independently:
 * - a thread (CLONE_THREAD) without CLONE_FILES or CLONE_FS has its own
 *   table or directory: its close, dup2, chdir and umask are its own; with
 *   the flag they are the parent's too;
 * - a process made with CLONE_FILES, CLONE_FS or CLONE_VM | CLONE_SIGHAND
 *   shares that object with its parent: what one changes the other sees,
 *   and the child's exit leaves the parent's intact;
 * - execve in a process that shares its table and handlers with its parent
 *   (CLONE_VFORK here) gets copies first: its close-on-exec pass and its
 *   handler reset leave the parent's alone;
 * - unshare(2): CLONE_FILES and CLONE_FS give the caller copies; the
 *   thread group, memory and handlers cannot be unshared while shared;
 * - a thread made with CLONE_VFORK: the caller sleeps until it exits.
 * Children use the caller's TLS (no CLONE_SETTLS): they call only thin
 * system call wrappers, and the parent waits meanwhile.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define THREAD (CLONE_VM | CLONE_SIGHAND | CLONE_THREAD | CLONE_SYSVSEM)

static char stack[64 * 1024] __attribute__((aligned(16)));
static volatile pid_t tid_word;
static char *self;
/* What a child saw or got, for the parent to print. */
static volatile int fd_arg, result, result_errno;
static void (*volatile seen_handler)(int);

static void on_usr(int sig)
{
	(void)sig;
}

/* Runs fn in a new task made with `flags` and waits for its end: a thread
 * through CLONE_CHILD_CLEARTID and a futex, a process through waitpid. */
static void run(int (*fn)(void *), int flags)
{
	tid_word = -1;
	int extra = flags & CLONE_THREAD ? CLONE_CHILD_CLEARTID : SIGCHLD;
	pid_t pid = clone(fn, stack + sizeof stack, flags | extra, NULL, NULL, NULL, &tid_word);
	if (pid < 0) {
		printf("clone(%#x): %s\n", flags, strerror(errno));
		return;
	}
	if (flags & CLONE_THREAD) {
		pid_t w;
		while ((w = tid_word) != 0)
			syscall(SYS_futex, &tid_word, FUTEX_WAIT, w, NULL, NULL, 0);
	} else {
		waitpid(pid, NULL, 0);
	}
}

static const char *yes(int c)
{
	return c ? "yes" : "no";
}

static int is_open(int fd)
{
	return fcntl(fd, F_GETFD) >= 0;
}

static int cwd_is(const char *path)
{
	char buf[64];
	return getcwd(buf, sizeof buf) && strcmp(buf, path) == 0;
}

static int close_and_dup(void *arg)
{
	(void)arg;
	close(fd_arg);
	dup2(0, 40);
	return 0;
}

static int chdir_and_umask(void *arg)
{
	(void)arg;
	chdir("/dev");
	umask(077);
	return 0;
}

static void files_case(const char *what, int flags, int shared)
{
	fd_arg = dup(1);
	run(close_and_dup, flags);
	if (shared)
		printf("%s: its close and dup2 are the parent's: %s\n", what,
		       yes(!is_open(fd_arg) && is_open(40)));
	else
		printf("%s: its close and dup2 are its own: %s\n", what,
		       yes(is_open(fd_arg) && !is_open(40)));
	close(fd_arg);
	close(40);
}

static void fs_case(const char *what, int flags, int shared)
{
	run(chdir_and_umask, flags);
	mode_t mask = umask(022);
	if (shared)
		printf("%s: its chdir and umask are the parent's: %s\n", what,
		       yes(cwd_is("/dev") && mask == 077));
	else
		printf("%s: its chdir and umask are its own: %s\n", what,
		       yes(cwd_is("/") && mask == 022));
	chdir("/");
}

static int set_handler(void *arg)
{
	(void)arg;
	signal(SIGUSR1, on_usr);
	struct sigaction old;
	sigaction(SIGUSR2, NULL, &old);
	seen_handler = old.sa_handler;
	return 0;
}

static void sighand_case(void)
{
	signal(SIGUSR1, SIG_DFL);
	signal(SIGUSR2, on_usr);
	seen_handler = NULL;
	run(set_handler, CLONE_VM | CLONE_SIGHAND);
	struct sigaction old;
	sigaction(SIGUSR1, NULL, &old);
	printf("CLONE_VM | CLONE_SIGHAND process: the parent sees its handler: %s, "
	       "it sees the parent's: %s\n",
	       yes(old.sa_handler == on_usr), yes(seen_handler == on_usr));
}

/* The child of exec_case: a copy of the table and fresh handlers. */
static int exec_child(int fd)
{
	struct sigaction old;
	sigaction(SIGUSR1, NULL, &old);
	printf("exec'd sharer: its close-on-exec fd is closed: %s, SIGUSR1 is SIG_DFL: %s\n",
	       yes(!is_open(fd)), yes(old.sa_handler == SIG_DFL));
	return 0;
}

static int execer(void *arg)
{
	(void)arg;
	char buf[16];
	snprintf(buf, sizeof buf, "%d", fd_arg);
	char *argv[] = { self, "exec-child", buf, NULL };
	execv(self, argv);
	return 127;
}

static void exec_case(void)
{
	signal(SIGUSR1, on_usr);
	fd_arg = open("/", O_RDONLY | O_CLOEXEC);
	run(execer, CLONE_VM | CLONE_SIGHAND | CLONE_FILES | CLONE_VFORK);
	struct sigaction old;
	sigaction(SIGUSR1, NULL, &old);
	printf("after the sharer's exec: the parent's close-on-exec fd is open: %s, "
	       "its handler kept: %s\n",
	       yes(is_open(fd_arg)), yes(old.sa_handler == on_usr));
	close(fd_arg);
	signal(SIGUSR1, SIG_DFL);
}

static int unshare_and_close(void *arg)
{
	(void)arg;
	result = unshare(CLONE_FILES);
	close(fd_arg);
	return 0;
}

static int unshare_and_chdir(void *arg)
{
	(void)arg;
	result = unshare(CLONE_FS);
	chdir("/dev");
	return 0;
}

static int try_unshare(void *arg)
{
	errno = 0;
	result = unshare((int)(long)arg);
	result_errno = errno;
	return 0;
}

static void unshare_in(const char *what, int flags, int unshare_flags)
{
	result = -2;
	result_errno = 0;
	if (clone(try_unshare, stack + sizeof stack, flags | SIGCHLD,
		  (void *)(long)unshare_flags) < 0) {
		printf("%s: clone: %s\n", what, strerror(errno));
		return;
	}
	while (result == -2)
		syscall(SYS_sched_yield);
	wait(NULL);
	printf("%s: %s\n", what, result == 0 ? "Success" : strerror(result_errno));
}

static void unshare_cases(void)
{
	fd_arg = dup(1);
	result = -2;
	run(unshare_and_close, THREAD | CLONE_FILES | CLONE_FS);
	printf("unshare(CLONE_FILES) in a thread: %d, its close is its own: %s\n", result,
	       yes(is_open(fd_arg)));
	close(fd_arg);
	result = -2;
	run(unshare_and_chdir, CLONE_VM | CLONE_FS);
	printf("unshare(CLONE_FS) in a CLONE_VM | CLONE_FS child: %d, its chdir is its own: %s\n", result,
	       yes(cwd_is("/")));
	chdir("/");
	printf("unshare(CLONE_THREAD | CLONE_VM | CLONE_SIGHAND) alone: %s\n",
	       unshare(CLONE_THREAD | CLONE_VM | CLONE_SIGHAND) == 0 ? "Success" : strerror(errno));
	printf("unshare(CLONE_SETTLS): %s\n",
	       unshare(CLONE_SETTLS) == 0 ? "Success" : strerror(errno));
	/* A CLONE_VM | CLONE_SIGHAND child asks while it shares the handlers:
	 * it runs beside the parent, which spins on `result`. */
	unshare_in("unshare(CLONE_SIGHAND) with the handlers shared", CLONE_VM | CLONE_SIGHAND,
		   CLONE_SIGHAND);
	unshare_in("unshare(CLONE_VM) with the memory shared", CLONE_VM, CLONE_VM);
	unshare_in("unshare(CLONE_FILES) with the memory shared", CLONE_VM, CLONE_FILES);
}

static int yield_then_finish(void *arg)
{
	(void)arg;
	for (int i = 0; i < 100; i++)
		sched_yield();
	result = 1;
	return 0;
}

/* The thread yields a hundred times before it finishes: without the vfork
 * wait the caller would run meanwhile and find `result` still 0. */
static void vfork_thread_case(void)
{
	result = 0;
	int r = clone(yield_then_finish, stack + sizeof stack, THREAD | CLONE_FILES | CLONE_FS | CLONE_VFORK,
		      NULL);
	printf("CLONE_THREAD | CLONE_VFORK: %s, the caller resumed after the thread's exit: %s\n",
	       r > 0 ? "ok" : strerror(errno), yes(result == 1));
}

int main(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "exec-child") == 0)
		return exec_child(atoi(argv[2]));
	self = argv[0];
	setvbuf(stdout, NULL, _IONBF, 0);
	umask(022);
	files_case("thread without CLONE_FILES", THREAD | CLONE_FS, 0);
	files_case("thread with CLONE_FILES", THREAD | CLONE_FILES, 1);
	files_case("CLONE_FILES process", CLONE_FILES, 1);
	files_case("fork", 0, 0);
	fs_case("thread without CLONE_FS", THREAD | CLONE_FILES, 0);
	fs_case("thread with CLONE_FS", THREAD | CLONE_FS, 1);
	fs_case("CLONE_FS process", CLONE_FS, 1);
	fs_case("CLONE_VM process", CLONE_VM, 0);
	sighand_case();
	exec_case();
	unshare_cases();
	vfork_thread_case();
	return 0;
}
