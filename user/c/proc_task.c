/* proc_task: a process's threads in /proc, and names relative to a
 * descriptor of a /proc directory.
 *
 * The main thread starts a second one that burns some CPU time, blocks
 * SIGUSR2 and sleeps in read(); main then sends that thread SIGUSR2 with
 * tgkill (so it is pending for that thread alone) and reads:
 * - /proc/self/task: both thread ids, and nothing else;
 * - /proc/<pid>/task/<tid>/status and stat: the thread's own Pid, state
 *   (S, while main is R), SigPnd and SigBlk (bit 11 for SIGUSR2), and its
 *   own CPU time;
 * - /proc/<tid> of the second thread: found, though /proc does not list it
 *   (Linux's proc_pid_lookup);
 * - /proc/self/task/<pid of a child process>: ENOENT (another group's);
 * - the thread's own descriptor table and umask (it unshares CLONE_FILES
 *   and CLONE_FS, sets umask 077 and opens /dev/null): task/<tid>/fd and
 *   /proc/<tid>/fd show that descriptor, /proc/self/fd (main's table)
 *   does not; task/<tid>/status says Umask 0077, main's 0022;
 * - openat, fstatat and readlinkat relative to descriptors of /proc/self
 *   and /proc/self/task.
 *
 * qemu-ppc shows the host's /proc (with the emulator's own threads), so
 * the expected lines are Linux's documented behaviour, checked on Sigil.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static char buf[4096];
static int ready[2], wake[2];
static volatile pid_t thread_tid;
static volatile int thread_fd = -1;

/* The whole file `name` relative to `dirfd` into buf; its length or -errno. */
static int slurp_at(int dirfd, const char *name)
{
	int fd = openat(dirfd, name, O_RDONLY);
	if (fd < 0)
		return -errno;
	int n = read(fd, buf, sizeof buf - 1);
	int err = errno;
	close(fd);
	if (n < 0)
		return -err;
	buf[n] = 0;
	return n;
}

/* The text after "name:\t" in buf up to the line's end, or "?". */
static const char *field(const char *name, char *out, size_t size)
{
	size_t len = strlen(name);
	for (const char *p = buf; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : p)
		if (strncmp(p, name, len) == 0 && p[len] == ':') {
			p += len + 1;
			while (*p == '\t' || *p == ' ')
				p++;
			size_t n = strcspn(p, "\n");
			n = n < size - 1 ? n : size - 1;
			memcpy(out, p, n);
			out[n] = 0;
			return out;
		}
	return "?";
}

static double thread_cpu(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The second thread: 50 ms of CPU, SIGUSR2 blocked, then asleep in read. */
static void *worker(void *arg)
{
	(void)arg;
	thread_tid = syscall(SYS_gettid);
	while (thread_cpu() < 0.05)
		;
	if (unshare(CLONE_FILES | CLONE_FS) == 0) {
		umask(077);
		thread_fd = open("/dev/null", O_RDONLY);
	}
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGUSR2);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	char c = 1;
	if (write(ready[1], &c, 1) != 1 || read(wake[0], &c, 1) != 1)
		return NULL;
	return NULL;
}

/* Does directory `path` list `name`, and how many numeric entries has it? */
static int lists(const char *path, const char *name, int *numbers)
{
	DIR *d = opendir(path);
	int found = 0;
	*numbers = 0;
	for (struct dirent *e; d && (e = readdir(d));) {
		found |= strcmp(e->d_name, name) == 0;
		*numbers += e->d_name[0] >= '1' && e->d_name[0] <= '9';
	}
	if (d)
		closedir(d);
	return found;
}

/* Fields 1 (pid), 3 (state), 14 and 15 (utime, stime) of the stat in buf. */
static void stat_fields(int *pid, char *state, long *ticks)
{
	long ut = 0, st = 0;
	*pid = atoi(buf);
	const char *p = strrchr(buf, ')');
	*state = p ? p[2] : '?';
	for (int i = 3; p && i < 14; i++)
		p = strchr(p + 1, ' ');
	if (p)
		sscanf(p + 1, "%ld %ld", &ut, &st);
	*ticks = ut + st;
}

static void threads_part(pid_t me, pid_t tid)
{
	char path[64], name[16], a[64], b[64], c[64], d[64];
	int numbers;
	snprintf(name, sizeof name, "%d", me);
	int lists_me = lists("/proc/self/task", name, &numbers);
	snprintf(name, sizeof name, "%d", tid);
	int lists_thread = lists("/proc/self/task", name, &numbers);
	printf("task lists me %d, the thread %d, %d threads\n", lists_me, lists_thread, numbers);
	printf("/proc lists the thread id: %d\n", lists("/proc", name, &numbers));

	snprintf(path, sizeof path, "/proc/%d/task/%d/status", me, tid);
	printf("thread status: %d bytes\n", slurp_at(AT_FDCWD, path) > 0);
	printf("thread: Pid is its tid %d, Tgid %d, State %s\n", atoi(field("Pid", a, sizeof a)) == tid,
	       atoi(field("Tgid", b, sizeof b)) == me, field("State", c, sizeof c));
	printf("thread: SigPnd %s ShdPnd %s\n", field("SigPnd", a, sizeof a),
	       field("ShdPnd", b, sizeof b));
	printf("thread: SigBlk %s Threads %s\n", field("SigBlk", c, sizeof c),
	       field("Threads", d, sizeof d));
	snprintf(path, sizeof path, "/proc/%d/task/%d/status", me, me);
	slurp_at(AT_FDCWD, path);
	printf("main: Pid is my pid %d, State %s, SigPnd %s SigBlk %s\n",
	       atoi(field("Pid", a, sizeof a)) == me, field("State", b, sizeof b),
	       field("SigPnd", c, sizeof c), field("SigBlk", d, sizeof d));

	int pid;
	char state;
	long thread_ticks, main_ticks, all_ticks;
	snprintf(path, sizeof path, "/proc/%d/task/%d/stat", me, tid);
	slurp_at(AT_FDCWD, path);
	stat_fields(&pid, &state, &thread_ticks);
	printf("thread stat: pid is its tid %d, state %c, CPU ticks >= 4: %d\n", pid == tid, state,
	       thread_ticks >= 4);
	snprintf(path, sizeof path, "/proc/%d/task/%d/stat", me, me);
	slurp_at(AT_FDCWD, path);
	stat_fields(&pid, &state, &main_ticks);
	slurp_at(AT_FDCWD, "/proc/self/stat");
	stat_fields(&pid, &state, &all_ticks);
	printf("process stat: at least both threads' ticks %d\n",
	       all_ticks + 1 >= thread_ticks + main_ticks);

	/* /proc/<tid>: the thread, with its process's Tgid. */
	snprintf(path, sizeof path, "/proc/%d/status", tid);
	int n = slurp_at(AT_FDCWD, path);
	printf("/proc/<tid>/status: %d, Pid is the tid %d, Tgid my pid %d\n", n > 0,
	       atoi(field("Pid", a, sizeof a)) == tid, atoi(field("Tgid", b, sizeof b)) == me);
	snprintf(path, sizeof path, "/proc/%d/task/%d/comm", tid, tid);
	printf("/proc/<tid>/task/<tid>/comm: %d\n", slurp_at(AT_FDCWD, path) > 0);
}

/* The text of link `path` into buf, or the error's name. */
static const char *link_text(const char *path)
{
	ssize_t n = readlink(path, buf, sizeof buf - 1);
	if (n < 0)
		return strerror(errno);
	buf[n] = 0;
	return buf;
}

static void files_part(pid_t me, pid_t tid)
{
	char path[64], a[64];
	int numbers;
	snprintf(path, sizeof path, "/proc/%d/task/%d", me, tid);
	printf("task/<tid> lists fd: %d\n", lists(path, "fd", &numbers));
	printf("the thread's own descriptor: %d\n", thread_fd > 2);
	snprintf(path, sizeof path, "/proc/%d/task/%d/fd/%d", me, tid, thread_fd);
	printf("task/<tid>/fd/<its fd>: %s\n", link_text(path));
	snprintf(path, sizeof path, "/proc/%d/fd/%d", tid, thread_fd);
	printf("/proc/<tid>/fd/<its fd>: %s\n", link_text(path));
	snprintf(path, sizeof path, "/proc/self/fd/%d", thread_fd);
	printf("/proc/self/fd/<its fd>: %s\n", link_text(path));
	snprintf(path, sizeof path, "/proc/%d/task/%d/status", me, tid);
	slurp_at(AT_FDCWD, path);
	printf("thread Umask %s", field("Umask", a, sizeof a));
	slurp_at(AT_FDCWD, "/proc/self/status");
	printf(", main's %s\n", field("Umask", a, sizeof a));
}

static void errors_part(pid_t me)
{
	char path[64];
	pid_t child = fork();
	if (child == 0) {
		pause();
		_exit(0);
	}
	snprintf(path, sizeof path, "/proc/%d/task/%d", me, child);
	struct stat st;
	printf("another process's id in my task/: %s\n",
	       stat(path, &st) < 0 ? strerror(errno) : "found");
	snprintf(path, sizeof path, "/proc/%d/task/%d", child, child);
	printf("its own task/<pid>: %s\n", stat(path, &st) == 0 ? "found" : strerror(errno));
	printf("task/99999: %s\n",
	       stat("/proc/self/task/99999", &st) < 0 ? strerror(errno) : "found");
	printf("task/<tid>/nope: %s\n",
	       open("/proc/self/task/1/nope", O_RDONLY) < 0 ? strerror(errno) : "opened");
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
}

static void dirfd_part(pid_t me, pid_t tid)
{
	char path[64], a[64], link[256];
	int self = open("/proc/self", O_RDONLY | O_DIRECTORY);
	int task = open("/proc/self/task", O_RDONLY | O_DIRECTORY);
	printf("dirfds: %d %d\n", self >= 0, task >= 0);
	slurp_at(self, "status");
	printf("openat(/proc/self, status): Pid is my pid %d\n", atoi(field("Pid", a, sizeof a)) == me);
	snprintf(path, sizeof path, "%d/stat", tid);
	slurp_at(task, path);
	printf("openat(/proc/self/task, <tid>/stat): the thread's %d\n", atoi(buf) == tid);
	struct stat st, exe;
	stat("/proc/self/exe", &exe);
	printf("fstatat(exe): %d, the program %d\n", fstatat(self, "exe", &st, 0) == 0,
	       st.st_ino == exe.st_ino && S_ISREG(st.st_mode));
	printf("fstatat(exe, NOFOLLOW) a link: %d\n",
	       fstatat(self, "exe", &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode));
	ssize_t n = readlinkat(self, "exe", link, sizeof link - 1);
	link[n > 0 ? n : 0] = 0;
	printf("readlinkat(exe): absolute %d\n", link[0] == '/');
	printf("openat(/proc/self, ../meminfo): %d\n", slurp_at(self, "../meminfo") > 0 &&
							   strncmp(buf, "MemTotal:", 9) == 0);
	snprintf(path, sizeof path, "%d/status", tid);
	int sub = openat(task, path, O_RDONLY);
	printf("a file is no directory: %s\n",
	       openat(sub, "x", O_RDONLY) < 0 ? strerror(errno) : "opened");
	snprintf(path, sizeof path, "%d", tid);
	int tdir = openat(task, path, O_RDONLY | O_DIRECTORY);
	slurp_at(tdir, "status");
	printf("openat(task/<tid> dirfd, status): Pid is the tid %d\n",
	       atoi(field("Pid", a, sizeof a)) == tid);
	printf("openat(/proc/self, nope): %s\n",
	       openat(self, "nope", O_RDONLY) < 0 ? strerror(errno) : "opened");
}

int main(void)
{
	if (pipe(ready) || pipe(wake))
		return 1;
	pthread_t t;
	pthread_create(&t, NULL, worker, NULL);
	char c;
	if (read(ready[0], &c, 1) != 1)
		return 1;
	pid_t me = getpid(), tid = thread_tid;
	syscall(SYS_tgkill, me, tid, SIGUSR2);
	/* A moment for the thread to be back asleep in read(). */
	struct timespec pause_ts = {0, 20 * 1000 * 1000};
	nanosleep(&pause_ts, NULL);

	threads_part(me, tid);
	files_part(me, tid);
	errors_part(me);
	dirfd_part(me, tid);

	c = 0;
	if (write(wake[1], &c, 1) != 1)
		return 1;
	pthread_join(t, NULL);
	printf("done\n");
	return 0;
}
