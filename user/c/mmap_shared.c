/* mmap_shared: MAP_SHARED file mappings, compared with qemu-ppc. The
 * mapping's pages are the file's: a store through it is in the file for
 * pread and for another process's mapping (a forked child maps the file
 * itself, and one mapping made before fork is shared, not copied), and a
 * pwrite shows through it. Past the end of the file: the last page's
 * tail reads zero, a page wholly past it is SIGBUS, also after ftruncate
 * shrinks the file under the mapping; growing it back gives zeroed pages.
 * A file unlinked and closed lives on while mapped; the program's own
 * file, still the initramfs archive's bytes on Sigil, maps shared too. Code stored through
 * one mapping runs from a PROT_EXEC mapping of the same file. Errors:
 * EACCES for a writable shared mapping of a read-only descriptor and for
 * mprotect to PROT_WRITE of one; msync's EINVAL and ENOMEM. A first
 * store through the mapping (a write fault) sets the file's mtime and
 * ctime, as Linux's fault_dirty_shared_page does, and so does read()
 * filling a page of the mapping (the kernel's store).
 *
 * qemu-ppc 7.2 is wrong twice, so these two are Linux's rules checked on
 * Sigil only: its SIGBUS carries a host address in si_addr (Linux: the
 * faulting address), and its msync of an unmapped range succeeds (it
 * reserves the whole guest address space on the host; Linux: ENOMEM).
 */
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "on_sigil.h"
#include "show.h"

#define PAGE 4096

static sigjmp_buf back;
static volatile void *bus_addr;
static volatile int bus_code;

static void on_bus(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	bus_addr = si->si_addr;
	bus_code = si->si_code;
	siglongjmp(back, 1);
}

/* Reads *p: the byte, or -1 after a SIGBUS with code BUS_ADRERR at p (at
 * p on Sigil: see above), -2 after another. */
static int touch(volatile char *p)
{
	bus_addr = 0;
	if (sigsetjmp(back, 1))
		return (bus_addr == p || !on_sigil()) && bus_code == BUS_ADRERR ? -1 : -2;
	return *p;
}

/* mmap's result as show() prints it: 0 for a mapping, -1 and errno else. */
static long mapped(void *p)
{
	return p == MAP_FAILED ? -1 : 0;
}

/* Does a line of /proc/self/maps name a shared mapping of a file ms? */
static int maps_name_ms(void)
{
	char line[256];
	int found = 0;
	FILE *f = fopen("/proc/self/maps", "r");
	while (f && fgets(line, sizeof line, f)) {
		size_t n = strlen(line);
		if (n > 4 && strcmp(line + n - 4, "/ms\n") == 0 && strstr(line, "rw-s "))
			found = 1;
	}
	if (f)
		fclose(f);
	return found;
}

int main(void)
{
	static char page[PAGE];
	char buf[8] = { 0 };
	struct sigaction sa = { .sa_sigaction = on_bus, .sa_flags = SA_SIGINFO };
	sigaction(SIGBUS, &sa, 0);

	unlink("ms");
	int fd = open("ms", O_RDWR | O_CREAT | O_TRUNC, 0644);
	memset(page, 'a', PAGE);
	write(fd, page, PAGE);
	write(fd, "second page", 11); /* the file is 4107 bytes */

	char *p = mmap(NULL, 3 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	show("mmap shared", mapped(p));
	printf("page 1 \"%.11s\", tail past the end %d %d\n", p + PAGE, p[PAGE + 11], p[2 * PAGE - 1]);
	printf("page 2, wholly past the end: %d\n", touch(p + 2 * PAGE));
	printf("maps names the file: %d\n", maps_name_ms());

	memcpy(p, "STORED", 6);
	pread(fd, buf, 6, 0);
	printf("after a store, file \"%.6s\"\n", buf);
	pwrite(fd, "WRITE", 5, PAGE);
	printf("after pwrite, mapping \"%.5s\"\n", p + PAGE);
	/* write() from the mapping into the same file. */
	pwrite(fd, p, 3, PAGE + 5);
	printf("pwrite from the mapping: \"%.8s\"\n", p + PAGE);

	/* Another process's own mapping, and this one shared across fork. */
	pid_t pid = fork();
	if (pid == 0) {
		int cfd = open("ms", O_RDWR);
		char *c = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, cfd, 0);
		memcpy(c + 8, "CHILD", 5);
		memcpy(p + 16, "FORKED", 6);
		_exit(0);
	}
	waitpid(pid, 0, 0);
	pread(fd, buf, 5, 8);
	printf("child's stores: mapping \"%.5s\" \"%.6s\", file \"%.5s\"\n", p + 8, p + 16, buf);

	show("msync MS_SYNC", msync(p, 2 * PAGE, MS_SYNC));
	show("msync MS_ASYNC|MS_INVALIDATE", msync(p, PAGE, MS_ASYNC | MS_INVALIDATE));
	show("msync MS_SYNC|MS_ASYNC", msync(p, PAGE, MS_SYNC | MS_ASYNC));
	show("msync misaligned", msync(p + 1, PAGE, MS_SYNC));
	show("msync flag 8", msync(p, PAGE, 8));
	show("msync length 0", msync(p, 0, MS_SYNC));

	/* Shrink under the mapping: the cut page is gone, the tail zeroed. */
	show("ftruncate to 20", ftruncate(fd, 20));
	printf("after the shrink: page 1 %d, byte 19 %c, byte 20 %d\n", touch(p + PAGE), p[19],
	       p[20]);
	show("ftruncate to 2 pages", ftruncate(fd, 2 * PAGE));
	printf("grown again: page 1 %d\n", touch(p + PAGE));
	p[PAGE] = 'G';
	pread(fd, buf, 1, PAGE);
	printf("store in the grown page, file '%c'\n", buf[0]);

	/* Code stored through this mapping, run from an executable one. */
	static const unsigned int li_r3_42_blr[] = { 0x3860002a, 0x4e800020 };
	memcpy(p + 64, li_r3_42_blr, sizeof li_r3_42_blr);
	char *x = mmap(NULL, PAGE, PROT_READ | PROT_EXEC, MAP_SHARED, fd, 0);
	show("mmap shared PROT_EXEC", mapped(x));
	printf("code from the file returns %d\n", ((int (*)(void))(void *)(x + 64))());
	munmap(x, PAGE);

	/* Unlinked and closed, the mapping still holds the file. */
	close(fd);
	show("unlink ms", unlink("ms"));
	memcpy(p + 32, "ORPHAN", 6);
	printf("after close and unlink: \"%.6s\" \"%.6s\"\n", p, p + 32);
	show("munmap", munmap(p, 3 * PAGE));

	fd = open("ms", O_RDWR | O_CREAT | O_TRUNC, 0644);
	write(fd, page, PAGE);
	int ro = open("ms", O_RDONLY);
	show("shared PROT_WRITE of a read-only fd",
	     mapped(mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, ro, 0)));
	show("private PROT_WRITE of a read-only fd",
	     mapped(mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE, ro, 0)));
	char *r = mmap(NULL, PAGE, PROT_READ, MAP_SHARED, ro, 0);
	show("shared PROT_READ of a read-only fd", mapped(r));
	show("mprotect it to PROT_WRITE", mprotect(r, PAGE, PROT_READ | PROT_WRITE));
	show("mprotect it to PROT_EXEC", mprotect(r, PAGE, PROT_READ | PROT_EXEC));
	show("msync it", msync(r, PAGE, MS_SYNC));
	munmap(r, PAGE);
	long unmapped = msync(r, PAGE, MS_SYNC);
	if (!on_sigil())
		unmapped = -1, errno = ENOMEM;
	show("msync unmapped", unmapped);

	/* A file still in the initramfs archive becomes frames to be shared. */
	int self = open("/proc/self/exe", O_RDONLY);
	unsigned char *e = mmap(NULL, PAGE, PROT_READ, MAP_SHARED, self, 0);
	show("mmap /proc/self/exe shared", mapped(e));
	printf("ELF magic: %d\n", e != MAP_FAILED && memcmp(e, "\177ELF", 4) == 0);
	close(self);

	/* A store that faults the page in changes the file: mtime, set back
	 * to 1970 first, and ctime move (Linux: file_update_time at the write
	 * fault; each store after it, to a page mapped writable, does not). */
	int mt = open("mt", O_RDWR | O_CREAT | O_TRUNC, 0644);
	write(mt, page, PAGE);
	struct timespec old[2] = { { 1, 0 }, { 1, 0 } };
	struct stat before, after;
	futimens(mt, old);
	fstat(mt, &before);
	char *w = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, mt, 0);
	w[0] = 'z';
	fstat(mt, &after);
	printf("a first store through the mapping: mtime set %d, ctime moved %d\n",
	       after.st_mtim.tv_sec > 1,
	       after.st_ctim.tv_sec > before.st_ctim.tv_sec ||
		       (after.st_ctim.tv_sec == before.st_ctim.tv_sec &&
			after.st_ctim.tv_nsec > before.st_ctim.tv_nsec));
	munmap(w, PAGE);

	/* So does the kernel's store when read() fills a page not yet
	 * mapped: from /dev/zero (the fault inside the copy), and from the
	 * file itself into its own mapping (the page the call maps before it
	 * holds the file). Linux's write fault is the same in both. */
	int zero = open("/dev/zero", O_RDONLY);
	w = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, mt, 0);
	futimens(mt, old);
	long got = read(zero, w, 16);
	fstat(mt, &after);
	printf("read() from /dev/zero into the mapping: %ld, byte 0 %d, mtime set %d\n", got, w[0],
	       after.st_mtim.tv_sec > 1);
	write(mt, "file", 4);
	futimens(mt, old);
	got = pread(mt, w + PAGE, 4, PAGE);
	fstat(mt, &after);
	printf("pread() of the file into its own mapping: %ld \"%.4s\", mtime set %d\n", got,
	       w + PAGE, after.st_mtim.tv_sec > 1);
	munmap(w, 2 * PAGE);
	close(zero);
	close(mt);
	unlink("mt");

	/* Mapped, written, truncated and unlinked: nothing may be left over
	 * for the kernel's leak check at power-off. */
	r = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	r[100] = 'x';
	ftruncate(fd, 0);
	unlink("ms");
	close(ro);
	close(fd);
	printf("truncated to 0 under the mapping: %d\n", touch(r));
	return 0;
}
