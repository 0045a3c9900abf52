/* proc_files: /proc as programs read it - the process's own stat, status,
 * cmdline and comm, the machine's meminfo, uptime, loadavg and stat, a
 * listing of /proc and of /proc/self, lseek and pread on a generated file,
 * and the errors for a process that is gone.
 *
 * Values differ from machine to machine, so the first part prints formats
 * and relations (a field count, "ppid is getppid()") that Linux and Sigil
 * agree on, for comparison with qemu-ppc (which shows the host's /proc, and
 * makes up /proc/self/stat and cmdline itself). After the line "sigil:"
 * come the values only Sigil's /proc has as Linux would for this program
 * (qemu-ppc's status and comm are the emulator's own).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysinfo.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static char buf[8192];

/* The whole file at `path` into buf, NUL-terminated; its length or -errno. */
static int slurp(const char *path)
{
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		return -errno;
	int n = 0, r;
	while ((r = read(fd, buf + n, sizeof buf - 1 - n)) > 0)
		n += r;
	close(fd);
	buf[n] = 0;
	return r < 0 ? -errno : n;
}

/* The value after "name:" in buf (a status or meminfo line), or NULL. */
static const char *line_value(const char *name)
{
	size_t len = strlen(name);
	for (const char *p = buf; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : p)
		if (strncmp(p, name, len) == 0 && p[len] == ':')
			return p + len + 1;
	return NULL;
}

/* qemu-ppc makes /proc/self/stat up (44 fields, state and groups 0): the
 * comparison reads only pid, comm and ppid; the rest is in values(). */
static void self_stat(const char *argv0)
{
	slurp("/proc/self/stat");
	char comm[32] = "";
	int pid = 0, ppid = 0;
	sscanf(buf, "%d (%31[^)]) %*c %d", &pid, comm, &ppid);
	const char *base = strrchr(argv0, '/') ? strrchr(argv0, '/') + 1 : argv0;
	printf("stat: pid is getpid() %d, comm is argv[0]'s last component %d, ppid is getppid() %d\n",
	       pid == getpid(), strcmp(comm, base) == 0, ppid == getppid());
}

static void machine_files(void)
{
	struct sysinfo si;
	sysinfo(&si);
	slurp("/proc/meminfo");
	unsigned long total = 0, avail = 0, cached = 0;
	int kb = sscanf(buf, "MemTotal: %lu kB", &total) == 1;
	const char *v = line_value("MemAvailable");
	kb += v && sscanf(v, "%lu", &avail) == 1;
	v = line_value("Cached");
	kb += v && sscanf(v, "%lu", &cached) == 1;
	printf("meminfo: MemTotal first, MemAvailable and Cached in kB: %d\n", kb == 3);
	printf("meminfo: MemAvailable <= MemTotal: %d\n", avail <= total);

	slurp("/proc/uptime");
	unsigned long up, upc, idle, idlec;
	int n = sscanf(buf, "%lu.%2lu %lu.%2lu", &up, &upc, &idle, &idlec);
	printf("uptime: two times with two decimals %d, at least sysinfo's - 1: %d\n", n == 4,
	       up + 1 >= (unsigned long)si.uptime);

	slurp("/proc/loadavg");
	int running, threads, last;
	n = sscanf(buf, "%*d.%*d %*d.%*d %*d.%*d %d/%d %d", &running, &threads, &last);
	printf("loadavg: %d fields, running <= threads: %d\n", n, running <= threads);

	slurp("/proc/stat");
	unsigned long long t[10];
	n = sscanf(buf, "cpu  %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu", &t[0], &t[1],
		   &t[2], &t[3], &t[4], &t[5], &t[6], &t[7], &t[8], &t[9]);
	printf("stat: cpu line with %d times, btime line: %d\n", n, strstr(buf, "\nbtime ") != NULL);
}

/* /proc/self/maps: address order, Linux's columns, the stack named. */
static void self_maps(void)
{
	slurp("/proc/self/maps");
	unsigned long prev = 0, start, end;
	int ordered = 1, formed = 1, stack = 0;
	for (char *l = strtok(buf, "\n"); l; l = strtok(NULL, "\n")) {
		char perms[8];
		unsigned dev_major, dev_minor;
		unsigned long off, ino;
		if (sscanf(l, "%lx-%lx %7s %lx %x:%x %lu", &start, &end, perms, &off, &dev_major,
			   &dev_minor, &ino) != 7 || strlen(perms) != 4 || start >= end)
			formed = 0;
		ordered &= start >= prev;
		prev = end;
		stack |= strstr(l, "[stack]") != NULL;
	}
	printf("maps: Linux's columns %d, in address order %d, [stack] named %d\n", formed, ordered,
	       stack);
}

static void listings(void)
{
	DIR *d = opendir("/proc");
	int mine = 0, self = 0, others_dirs = 1;
	char me[16];
	snprintf(me, sizeof me, "%d", getpid());
	for (struct dirent *e; (e = readdir(d));) {
		if (strcmp(e->d_name, me) == 0)
			mine = e->d_type == DT_DIR;
		else if (strcmp(e->d_name, "self") == 0)
			self = e->d_type == DT_LNK;
		else if (e->d_name[0] >= '1' && e->d_name[0] <= '9' && e->d_type != DT_DIR)
			others_dirs = 0;
	}
	closedir(d);
	printf("/proc lists my pid as a directory %d, self as a link %d, pids as directories %d\n",
	       mine, self, others_dirs);

	int stat_f = 0, status_f = 0, cmdline_f = 0, exe_l = 0;
	d = opendir("/proc/self");
	for (struct dirent *e; (e = readdir(d));) {
		stat_f |= strcmp(e->d_name, "stat") == 0 && e->d_type == DT_REG;
		status_f |= strcmp(e->d_name, "status") == 0 && e->d_type == DT_REG;
		cmdline_f |= strcmp(e->d_name, "cmdline") == 0 && e->d_type == DT_REG;
		exe_l |= strcmp(e->d_name, "exe") == 0 && e->d_type == DT_LNK;
	}
	closedir(d);
	printf("/proc/self has stat %d, status %d, cmdline %d, the exe link %d\n", stat_f, status_f,
	       cmdline_f, exe_l);

	char link[32] = "";
	readlink("/proc/self", link, sizeof link - 1);
	struct stat st, sf;
	stat("/proc/self/", &st);
	stat("/proc/meminfo", &sf);
	printf("readlink /proc/self is getpid(): %d; /proc/self/ is a directory of geteuid(): %d; "
	       "meminfo mode %o size %lld\n",
	       strcmp(link, me) == 0, S_ISDIR(st.st_mode) && st.st_uid == geteuid(), sf.st_mode,
	       (long long)sf.st_size);
}

/* /proc/self/fd: a pipe's links, their modes, and what stat follows to. */
static void fds(void)
{
	int p[2];
	pipe(p);
	char path[64], link[64] = "";
	snprintf(path, sizeof path, "/proc/self/fd/%d", p[0]);
	readlink(path, link, sizeof link - 1);
	struct stat l, st;
	lstat(path, &l);
	stat(path, &st);
	snprintf(path, sizeof path, "/proc/self/fd/%d", p[1]);
	struct stat lw;
	lstat(path, &lw);
	int seen = 0;
	DIR *d = opendir("/proc/self/fd");
	for (struct dirent *e; (e = readdir(d));)
		seen += e->d_type == DT_LNK && (atoi(e->d_name) == p[0] || atoi(e->d_name) == p[1]);
	closedir(d);
	printf("fd: a pipe's link is pipe:[...] %d, modes %o and %o, stat follows to a FIFO %d, "
	       "both ends listed %d\n",
	       strncmp(link, "pipe:[", 6) == 0, l.st_mode, lw.st_mode, S_ISFIFO(st.st_mode),
	       seen == 2);
	close(p[0]);
	close(p[1]);
}

static void offsets(void)
{
	int fd = open("/proc/meminfo", O_RDONLY);
	char a[16] = "", b[16] = "";
	read(fd, a, 8);
	pread(fd, b, 8, 0);
	errno = 0;
	off_t end = lseek(fd, 0, SEEK_END);
	int end_errno = errno;
	off_t set = lseek(fd, 3, SEEK_SET);
	read(fd, b + 8, 5);
	printf("pread at 0 reads what read did: %d; SEEK_END: %lld %s; SEEK_SET 3: %lld, then \"%.5s\"\n",
	       memcmp(a, b, 8) == 0, (long long)end, strerror(end_errno), (long long)set, b + 8);
	errno = 0;
	printf("write: %zd %s\n", write(fd, "x", 1), strerror(errno));
	close(fd);
}

/* /proc/self/limits after setrlimit: Linux's columns, a line per resource,
 * and the new values (the other rows are the host's under qemu-ppc). */
static void limits(void)
{
	struct rlimit r = { 64, 128 };
	setrlimit(RLIMIT_NOFILE, &r);
	int n = slurp("/proc/self/limits"), lines = 0;
	for (int i = 0; i < n; i++)
		lines += buf[i] == '\n';
	char *row = strstr(buf, "Max open files");
	printf("limits: %d lines, header \"%.*s\"\n", lines, (int)strcspn(buf, "\n"), buf);
	printf("limits: \"%.*s\"\n", row ? (int)strcspn(row, "\n") : 0, row ? row : "");
}

/* A child that has exited: its files while it is a zombie, then after the
 * reap (Linux: the open file reads ESRCH, a new open is ENOENT). */
static void gone(void)
{
	pid_t pid = fork();
	if (pid == 0)
		_exit(3);
	siginfo_t si;
	waitid(P_PID, pid, &si, WEXITED | WNOWAIT);
	char path[64];
	snprintf(path, sizeof path, "/proc/%d/stat", pid);
	int fd = open(path, O_RDONLY);
	int n = read(fd, buf, sizeof buf - 1);
	buf[n > 0 ? n : 0] = 0;
	char *p = strrchr(buf, ')');
	printf("a zombie's state: %c\n", p ? p[2] : '?');
	waitpid(pid, NULL, 0);
	errno = 0;
	n = pread(fd, buf, sizeof buf, 0);
	printf("after the reap, the open file reads: %d %s\n", n, strerror(errno));
	close(fd);
	errno = 0;
	printf("open again: %d %s\n", open(path, O_RDONLY), strerror(errno));
	errno = 0;
	printf("open /proc/self/nothing: %d %s\n", open("/proc/self/nothing", O_RDONLY),
	       strerror(errno));
}

/* With the argument "values": what Sigil's /proc shows of this program,
 * as Linux's would (qemu-ppc's status and comm are the emulator's own, so
 * these are checked on Sigil only). */
/* Prints the `n` bytes slurp() read, each NUL as '|'. */
static void show_nuls(const char *what, int n)
{
	for (int i = 0; i < n; i++)
		if (buf[i] == 0)
			buf[i] = '|';
	printf("%s: %.*s\n", what, n > 0 ? n : 0, buf);
}

static void values(char **argv)
{
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, NULL);
	signal(SIGPIPE, SIG_IGN);
	signal(SIGUSR2, (void (*)(int))abort);
	raise(SIGUSR1);		 /* thread-directed: SigPnd */
	kill(getpid(), SIGUSR1); /* process-directed: ShdPnd */
	slurp("/proc/self/status");
	const char *names[] = { "Name", "State", "Tgid", "PPid", "Uid", "Gid", "Groups", "Threads",
				"SigQ", "SigPnd", "ShdPnd", "SigBlk", "SigIgn", "SigCgt" };
	for (unsigned i = 0; i < sizeof names / sizeof *names; i++) {
		const char *v = line_value(names[i]);
		printf("status %s:%.*s\n", names[i], v ? (int)strcspn(v, "\n") : 4, v ? v : "none");
	}
	printf("status VmSize and VmRSS in kB: %d %d\n", strstr(buf, "\nVmSize:\t") != NULL,
	       strstr(buf, "\nVmRSS:\t") != NULL);
	slurp("/proc/self/comm");
	printf("comm: %s", buf);
	show_nuls("cmdline", slurp("/proc/self/cmdline"));
	struct sysinfo si;
	sysinfo(&si);
	slurp("/proc/meminfo");
	unsigned long total = 0;
	sscanf(buf, "MemTotal: %lu kB", &total);
	printf("meminfo: MemTotal is sysinfo's total: %d\n",
	       total == (unsigned long)((unsigned long long)si.totalram * si.mem_unit >> 10));
	slurp("/proc/self/stat");
	char state = '?';
	int pgrp = 0, sid = 0, fields = 3;
	sscanf(strrchr(buf, ')') + 2, "%c %*d %d %d", &state, &pgrp, &sid);
	for (char *q = strchr(strrchr(buf, ')') + 2, ' '); q; q = strchr(q + 1, ' '))
		fields++;
	printf("stat: %d fields, state %c, pgrp and session are getpgrp(), getsid(0): %d %d\n",
	       fields, state, pgrp == getpgrp(), sid == getsid(0));
	unsigned long f[52];
	char *p = strrchr(buf, ')') + 4; /* past ") R " */
	for (int i = 4; i <= 52; i++)
		f[i - 1] = strtoul(p, &p, 10);
	printf("stat: tty_nr %lu, tpgid %ld\n", f[6], (long)f[7]);
	printf("stat: threads %lu, priority %lu, exit_signal %lu\n", f[19], f[17], f[37]);
	printf("stat: vsize > 0 %d, rss > 0 %d, pending %lu, blocked %lu, ignored %lu, caught %lu\n",
	       f[22] > 0, f[23] > 0, f[30], f[31], f[32], f[33]);
	char link[256] = "";
	readlink("/proc/self/exe", link, sizeof link - 1);
	printf("exe: %s, argv[0] %s\n", link, argv[0]);
	int fd = open("/proc/self/exe", O_RDONLY);
	char elf[4] = "";
	read(fd, elf, 4);
	printf("open /proc/self/exe reads an ELF: %d\n", memcmp(elf, "\177ELF", 4) == 0);
	close(fd);
	errno = 0;
	printf("open /proc/self/stat for writing: %d %s\n", open("/proc/self/stat", O_WRONLY),
	       strerror(errno));
	char fd0[64] = "";
	readlink("/proc/self/fd/0", fd0, sizeof fd0 - 1);
	fd = open("/tmp/proc_files", O_CREAT | O_WRONLY, 0600);
	char file[64] = "", proc_fd[64] = "";
	snprintf(proc_fd, sizeof proc_fd, "/proc/self/fd/%d", fd);
	readlink(proc_fd, file, sizeof file - 1);
	unlink("/tmp/proc_files");
	printf("fd 0 links to %s, a new file's to %s\n", fd0, file);
	close(fd);
	fd = open("/proc/uptime", O_RDONLY);
	snprintf(proc_fd, sizeof proc_fd, "/proc/self/fd/%d", fd);
	memset(file, 0, sizeof file);
	readlink(proc_fd, file, sizeof file - 1);
	printf("an open /proc file's link: %s\n", file);
	close(fd);
	/* cpuinfo's names are padded with tabs before the colon. */
	slurp("/proc/cpuinfo");
	unsigned long tb = 0, bogo = 0, bogo_cents = 0, mem = 0;
	const char *v = strstr(buf, "\ntimebase\t: ");
	if (v)
		sscanf(v, "\ntimebase\t: %lu", &tb);
	if ((v = strstr(buf, "\nbogomips\t: ")))
		sscanf(v, "\nbogomips\t: %lu.%lu", &bogo, &bogo_cents);
	if ((v = strstr(buf, "\nMemory\t\t: ")))
		sscanf(v, "\nMemory\t\t: %lu MB", &mem);
	printf("cpuinfo: processor 0 %d, a cpu name %d, bogomips is timebase / 500000: %d, "
	       "Memory is RAM: %d\n",
	       strncmp(buf, "processor\t: 0\n", 14) == 0, strstr(buf, "\ncpu\t\t: ") != NULL,
	       tb > 0 && bogo * 100 + bogo_cents == tb / 5000,
	       mem > 0 && mem * 1024 >= (unsigned long)((unsigned long long)si.totalram * si.mem_unit >> 10));
	printf("chdir /proc, then ls-style open of \"self/stat\": %d\n",
	       chdir("/proc") == 0 && slurp("self/stat") > 0);
	/* cmdline and environ are read from this process's memory, as Linux
	 * reads them (qemu-ppc shows a copy): an argv rewritten in place shows,
	 * and one written over its last NUL (setproctitle) reads on into the
	 * environment up to the next NUL. */
	show_nuls("environ", slurp("self/environ"));
	argv[0][1] = 'I';
	show_nuls("cmdline after argv[0][1] = 'I'", slurp("self/cmdline"));
	char *end = argv[1] + strlen(argv[1]);
	memset(argv[0], '-', end - argv[0] + 1);
	show_nuls("cmdline after a title over the last NUL", slurp("self/cmdline"));
}

/* Field 10 of /proc/self/stat (minflt): the 8th after the comm's ')'. */
static unsigned long stat_minflt(void)
{
	unsigned long n = 0;
	slurp("/proc/self/stat");
	char *at = strrchr(buf, ')');
	if (at)
		sscanf(at + 2, "%*s %*s %*s %*s %*s %*s %*s %lu", &n);
	return n;
}

static unsigned long long ctxt(void)
{
	unsigned long long n = 0;
	slurp("/proc/stat");
	char *at = strstr(buf, "\nctxt ");
	if (at)
		sscanf(at, "\nctxt %llu", &n);
	return n;
}

/* With the argument "load": the load average after 5.2 s of guest time
 * spent running (the kernel samples every 5.01 s, so once, with this
 * process the one runnable thread), the context-switch count and the
 * page-fault counts. */
static void load(void)
{
	struct timespec t;
	volatile unsigned spin = 0;
	do {
		for (int i = 0; i < 100000; i++)
			spin++;
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while (t.tv_sec < 5 || (t.tv_sec == 5 && t.tv_nsec < 200000000));
	char avg[3][8];
	slurp("/proc/loadavg");
	sscanf(buf, "%7s %7s %7s", avg[0], avg[1], avg[2]);
	printf("loadavg after 5.2 s busy: %s %s %s\n", avg[0], avg[1], avg[2]);
	unsigned long long before = ctxt();
	pid_t pid = fork();
	if (pid == 0)
		_exit(0);
	waitpid(pid, NULL, 0);
	printf("ctxt grows across a fork and wait: %d\n", ctxt() >= before + 2);

	/* Page faults: each first touch of a fresh anonymous page is one
	 * minor fault, in getrusage and in /proc/self/stat's field 10. */
	struct rusage ru0, ru1;
	unsigned long f0 = stat_minflt();
	getrusage(RUSAGE_SELF, &ru0);
	char *p = mmap(NULL, 16 * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	for (int i = 0; i < 16; i++)
		p[i * 4096] = 1;
	getrusage(RUSAGE_SELF, &ru1);
	printf("minflt: 16 new pages add %ld to getrusage and %lu to stat\n",
	       ru1.ru_minflt - ru0.ru_minflt, stat_minflt() - f0);
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	if (argc > 1 && strcmp(argv[1], "values") == 0) {
		values(argv);
		return 0;
	}
	if (argc > 1 && strcmp(argv[1], "load") == 0) {
		load();
		return 0;
	}
	self_stat(argv[0]);
	machine_files();
	self_maps();
	listings();
	fds();
	offsets();
	limits();
	gone();
	return 0;
}
