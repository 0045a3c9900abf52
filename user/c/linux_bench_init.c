/* linux_bench_init.c - PID 1 of the Linux boot of `make bench-linux`
 * (qemu/src/linux.rs boots Linux 6.1 with it as /init): the Linux half of
 * the side-by-side table. Never run on Sigil or under qemu-ppc: it mounts
 * file systems and powers the machine off.
 *
 * Its arguments (the kernel command line after "--") are "PROG:N" words.
 * For each, it runs /bin/PROG with N operations once to warm up, then with
 * N and with 2N operations (fork, exec, wait), and prints one line per
 * measured run,
 *   linux-bench: run PROG COUNT NS STATUS
 * NS being the CLOCK_MONOTONIC time from before the fork to after the wait.
 * Differencing the two runs cancels fork, exec, start-up and exit, exactly
 * as sigil-bench's two boots cancel Sigil's boot: what remains is N
 * operations of the loop. Under QEMU's -icount shift=0 one guest nanosecond
 * is one guest instruction, provided Linux's clock follows the virtual
 * clock; the first line checks that:
 *   linux-bench: calibrate INSNS NS
 * times a loop of a known number of instructions (a bdnz loop of INSNS
 * iterations, one instruction each), so NS/INSNS should be 1.00 plus the
 * timer ticks' share. Then "linux-bench: done" and reboot(RB_POWER_OFF),
 * which CUDA turns into QEMU's exit. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

static long long now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Runs /bin/prog with `count` as argv[1]; returns its wait status, or -1. */
static int run(const char *prog, long count, long long *ns)
{
	char path[128], arg[24];
	snprintf(path, sizeof(path), "/bin/%s", prog);
	snprintf(arg, sizeof(arg), "%ld", count);
	long long t0 = now_ns();
	pid_t pid = fork();
	if (pid == 0) {
		execl(path, prog, arg, (char *)NULL);
		printf("linux-bench: cannot exec %s: %s\n", path, strerror(errno));
		_exit(127);
	}
	int status = -1;
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		status = -1;
	*ns = now_ns() - t0;
	return status;
}

/* A loop of exactly `n` bdnz instructions (plus a handful around it). */
static void spin(unsigned long n)
{
	__asm__ volatile("mtctr %0\n1: bdnz 1b" : : "r"(n) : "ctr");
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	/* The pcm benchmark opens /dev/snd/pcmC0D0p: devtmpfs makes the node
	 * when the dummy card registers. proc for anyone who looks. */
	mkdir("/dev", 0755);
	if (mount("devtmpfs", "/dev", "devtmpfs", 0, NULL) != 0)
		printf("linux-bench: mount devtmpfs: %s\n", strerror(errno));
	/* Linux gives PID 1 /dev/console as stdin, stdout and stderr only if
	 * the initramfs has that node; ours has no device nodes, so open it
	 * now that devtmpfs is there. */
	int console = open("/dev/console", O_RDWR);
	if (console >= 0) {
		for (int fd = 0; fd < 3; fd++)
			dup2(console, fd);
		if (console > 2)
			close(console);
	}
	mkdir("/proc", 0555);
	mount("proc", "/proc", "proc", 0, NULL);

	const unsigned long insns = 100000000;
	long long t0 = now_ns();
	spin(insns);
	printf("linux-bench: calibrate %lu %lld\n", insns, now_ns() - t0);
	tcdrain(1);

	for (int i = 1; i < argc; i++) {
		char prog[96];
		long n;
		if (sscanf(argv[i], "%95[^:]:%ld", prog, &n) != 2 || n <= 0) {
			printf("linux-bench: bad argument %s (want PROG:N)\n", argv[i]);
			continue;
		}
		/* A first run, not reported, warms what the first exec of a
		 * program leaves cold (its page-cache pages mapped the first
		 * time, slab caches grown), so the N and 2N runs start from
		 * the same state. */
		long long ns;
		run(prog, n, &ns);
		for (long count = n; count <= 2 * n; count += n) {
			int status = run(prog, count, &ns);
			printf("linux-bench: run %s %ld %lld %d\n", prog, count, ns, status);
			/* The console sends the line by interrupts, which would
			 * land in the next run's time, at moments QEMU's serial
			 * backend chooses: wait until it is out. */
			tcdrain(1);
		}
	}
	printf("linux-bench: done\n");
	sync();
	reboot(RB_POWER_OFF);
	/* PID 1 must not exit: that would panic the kernel. */
	for (;;)
		pause();
}
