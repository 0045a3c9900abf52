/* sysinfo: what the machine says about itself - uname, sysinfo and the CPU
 * affinity of a one-CPU system. The values are the machine's, so the test
 * checks them on Sigil rather than against the host qemu-ppc runs on.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/sysinfo.h>
#include <sys/utsname.h>
#include <unistd.h>

int main(void)
{
	struct utsname u;
	struct sysinfo si;
	cpu_set_t set;

	setvbuf(stdout, NULL, _IONBF, 0);
	uname(&u);
	printf("uname: %s %s\n", u.sysname, u.machine);
	if (sysinfo(&si) != 0) {
		printf("sysinfo: %s\n", strerror(errno));
		return 1;
	}
	printf("sysinfo: uptime %s, mem_unit %u, total RAM %lu MiB, free below total %s, %u threads\n",
	       si.uptime >= 1 ? ">= 1 s" : "0", si.mem_unit, si.totalram * si.mem_unit >> 20,
	       si.freeram < si.totalram ? "yes" : "no", si.procs);
	printf("get_nprocs: %d\n", get_nprocs());

	CPU_ZERO(&set);
	int r = sched_getaffinity(0, sizeof set, &set);
	printf("sched_getaffinity: %d, %d CPU, CPU 0 %s\n", r, CPU_COUNT(&set), CPU_ISSET(0, &set) ? "set" : "clear");
	errno = 0;
	r = sched_getaffinity(0, 2, &set);
	printf("sched_getaffinity, 2 bytes: %s\n", r < 0 ? strerror(errno) : "ok");
	errno = 0;
	r = sched_getaffinity(99999, sizeof set, &set);
	printf("sched_getaffinity, no such pid: %s\n", r < 0 ? strerror(errno) : "ok");
	CPU_ZERO(&set);
	CPU_SET(0, &set);
	printf("sched_setaffinity CPU 0: %d\n", sched_setaffinity(0, sizeof set, &set));
	CPU_ZERO(&set);
	errno = 0;
	r = sched_setaffinity(0, sizeof set, &set);
	printf("sched_setaffinity, no CPU: %s\n", r < 0 ? strerror(errno) : "ok");
	return 0;
}
