/* getppid_bench: the cheapest syscall round trip, as a baseline for the
 * signal benchmarks. 100000 getppid() (argv[1] may change the count) through
 * syscall() so no libc caching can skip the kernel. Prints nothing.
 */
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 100000;
	long first = syscall(SYS_getppid);

	for (int i = 0; i < n; i++)
		if (syscall(SYS_getppid) != first)
			return 1;
	return 0;
}
