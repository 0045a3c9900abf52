/* errno_edges: edge cases whose errno Linux defines, one line each, compared
 * with qemu-ppc: getrandom with unknown flags, readlink with size 0 and of a
 * file that is not a link, reading a pipe's write end and writing its read
 * end, mmap of a bad file descriptor; with an argument, mmap MAP_FIXED
 * reaching past TASK_SIZE (0xb0000000 on Sigil).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

static void show(const char *what, long r)
{
	printf("%s: %ld%s%s\n", what, r, r < 0 ? ", " : "", r < 0 ? strerror(errno) : "");
}

int main(int argc, char **argv)
{
	char buf[64];
	show("getrandom(buf, 8, 0x10)", syscall(SYS_getrandom, buf, 8, 0x10));
	show("getrandom(buf, 8, GRND_RANDOM|GRND_INSECURE)", syscall(SYS_getrandom, buf, 8, 6));
	show("getrandom(buf, 8, GRND_NONBLOCK)", syscall(SYS_getrandom, buf, 8, 1));
	show("readlink(\"/proc/self/exe\", buf, 0)", syscall(SYS_readlink, "/proc/self/exe", buf, 0));
	show("readlink(\"/\", buf, 64)", syscall(SYS_readlink, "/", buf, 64));
	show("readlink(\"/no/such/file\", buf, 64)", syscall(SYS_readlink, "/no/such/file", buf, 64));
	int p[2];
	pipe(p);
	show("read(pipe write end)", read(p[1], buf, 1));
	show("write(pipe read end)", write(p[0], "x", 1));
	void *m = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, 99, 0);
	show("mmap(fd 99, not open)", m == MAP_FAILED ? -1 : 0);
	/* Only with an argument: where user space ends is the kernel's choice
	 * (Sigil and Linux ppc32: a TASK_SIZE below 4 GiB; qemu-ppc allows all 4 GiB). */
	if (argc > 1) {
		m = mmap((void *)0xaffff000, 0x2000, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
		show("mmap(MAP_FIXED, past TASK_SIZE)", m == MAP_FAILED ? -1 : 0);
	}
	return 0;
}
