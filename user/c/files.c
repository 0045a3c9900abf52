/* files: open, read, lseek, fstat, dup2, fcntl and getdents64 on a read-only file.
 *
 * argv[1] is the file to use (Sigil: /bin/hello from the initramfs; on a host
 * under qemu-ppc, the same program's path in target/user). Output depends only
 * on the file's contents and on Linux semantics, never on pids or inode numbers.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

static void check(const char *what, long r)
{
	printf("%s: %ld%s%s\n", what, r < 0 ? -1L : r, r < 0 ? ", errno " : "", r < 0 ? strerror(errno) : "");
}

int main(int argc, char **argv)
{
	char buf[64], path[256], dir[256];
	struct stat st;

	setvbuf(stdout, NULL, _IONBF, 0);
	if (argc < 2)
		return 1;
	strncpy(path, argv[1], sizeof path - 1);
	strncpy(dir, argv[1], sizeof dir - 1);
	const char *base = basename(path);
	const char *d = dirname(dir);

	int fd = open(argv[1], O_RDONLY);
	printf("open: %s\n", fd >= 0 ? "ok" : strerror(errno));
	if (fd < 0)
		return 1;
	ssize_t n = read(fd, buf, 4);
	printf("read 4: %zd, ELF magic %s\n", n, n == 4 && memcmp(buf, "\177ELF", 4) == 0 ? "yes" : "no");
	if (fstat(fd, &st) != 0)
		return 1;
	printf("fstat: regular %d, size matches SEEK_END %s\n", S_ISREG(st.st_mode),
	       lseek(fd, 0, SEEK_END) == st.st_size ? "yes" : "no");
	check("lseek(SEEK_SET 1)", lseek(fd, 1, SEEK_SET));
	n = read(fd, buf, 3);
	printf("read after seek: %.*s\n", (int)n, buf);
	check("lseek(SEEK_CUR -2)", lseek(fd, -2, SEEK_CUR));
	check("lseek(-10 SEEK_SET)", lseek(fd, -10, SEEK_SET));
	check("lseek past end", lseek(fd, st.st_size + 100, SEEK_SET) == st.st_size + 100 ? 0 : -1);
	check("read past end", read(fd, buf, 8));
	check("write to read-only fd", write(fd, "x", 1));

	/* dup2 shares the offset; fcntl flags. */
	lseek(fd, 0, SEEK_SET);
	check("dup2 to 10", dup2(fd, 10));
	read(10, buf, 2);
	check("offset seen through fd", lseek(fd, 0, SEEK_CUR));
	check("F_GETFD fresh", fcntl(10, F_GETFD));
	check("F_SETFD cloexec", fcntl(10, F_SETFD, FD_CLOEXEC));
	check("F_GETFD now", fcntl(10, F_GETFD));
	check("F_GETFL accmode", fcntl(10, F_GETFL) & O_ACCMODE);
	check("F_SETFL O_NONBLOCK", fcntl(10, F_SETFL, O_NONBLOCK));
	check("F_GETFL nonblock", (fcntl(fd, F_GETFL) & O_NONBLOCK) != 0);
	check("F_DUPFD 20", fcntl(fd, F_DUPFD, 20));
	check("F_DUPFD_CLOEXEC 20", fcntl(fd, F_DUPFD_CLOEXEC, 20));
	check("F_GETFD 21", fcntl(21, F_GETFD));
	check("dup3 same fd", dup3(10, 10, 0));
	check("dup2 same fd", dup2(10, 10));
	check("close 10", close(10));
	check("close 10 again", close(10));
	check("lseek on pipe", ({ int p[2]; pipe(p); long r = lseek(p[0], 0, SEEK_SET); close(p[0]); close(p[1]); r; }));

	/* Errors opening. */
	check("open missing", open("/no/such/file", O_RDONLY));
	check("open a directory for writing", open(d, O_WRONLY));
	check("open O_DIRECTORY on a file", open(argv[1], O_RDONLY | O_DIRECTORY));
	check("open file as a directory", open(strcat(strcpy(buf, argv[1]), "/x"), O_RDONLY));
	check("access R_OK", access(argv[1], R_OK));
	check("access X_OK", access(argv[1], X_OK));
	check("access missing", access("/no/such/file", F_OK));

	/* The directory: "." and "..", and our file among its entries. */
	int dfd = open(d, O_RDONLY | O_DIRECTORY);
	printf("open dir: %s\n", dfd >= 0 ? "ok" : strerror(errno));
	check("read on a directory", read(dfd, buf, 1));
	check("fstatat relative to dir", fstatat(dfd, base, &st, 0) == 0 && S_ISREG(st.st_mode) ? 0 : -1);
	char dents[512];
	int found = 0, dots = 0, total = 0;
	long k;
	while ((k = syscall(SYS_getdents64, dfd, dents, sizeof dents)) > 0) {
		for (long off = 0; off < k;) {
			struct dirent64 *e = (struct dirent64 *)(dents + off);
			if (strcmp(e->d_name, base) == 0 && e->d_type == DT_REG)
				found = 1;
			if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
				dots++;
			total++;
			off += e->d_reclen;
		}
	}
	printf("getdents: end %ld, file found %d, dot entries %d, several entries %s\n", k, found, dots,
	       total > 3 ? "yes" : "no");
	check("getdents on a file", syscall(SYS_getdents64, fd, dents, sizeof dents));
	check("getdents tiny buffer", (lseek(dfd, 0, SEEK_SET), syscall(SYS_getdents64, dfd, dents, 8)));
	check("close dir", close(dfd));
	check("close file", close(fd));
	return 0;
}
