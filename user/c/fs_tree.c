/* fs_tree: a writable file tree, compared with qemu-ppc. Everything happens
 * under "fst" in the working directory (the root on Sigil, a scratch
 * directory under qemu-ppc), and only what both file systems agree on is
 * printed: results and errnos, file contents, link counts, modes, times set
 * by utimensat, the basename of getcwd, sorted directory listings.
 */
#define _GNU_SOURCE
#define _FILE_OFFSET_BITS 64 /* readdir of a 64-bit host's directory under qemu-ppc */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "show.h"

static void cat(const char *path)
{
	char buf[64] = { 0 };
	int fd = open(path, O_RDONLY);
	long n = fd < 0 ? -1 : read(fd, buf, sizeof buf - 1);
	if (fd >= 0)
		close(fd);
	if (n < 0)
		printf("cat %s: %s\n", path, strerror(errno));
	else
		printf("cat %s: \"%s\"\n", path, buf);
}

static int cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names in `dir`, sorted (the order getdents gives is the file system's). */
static void ls(const char *dir)
{
	char *names[64];
	int n = 0;
	DIR *d = opendir(dir);
	struct dirent *e;
	if (!d) {
		printf("ls %s: %s\n", dir, strerror(errno));
		return;
	}
	while ((e = readdir(d)) && n < 64)
		names[n++] = strdup(e->d_name);
	closedir(d);
	qsort(names, n, sizeof names[0], cmp);
	printf("ls %s:", dir);
	for (int i = 0; i < n; i++) {
		printf(" %s", names[i]);
		free(names[i]);
	}
	printf("\n");
}

static void files(void)
{
	struct stat st;
	show("mkdir fst", mkdir("fst", 0755));
	show("mkdir fst again", mkdir("fst", 0755));
	int fd = open("fst/f", O_CREAT | O_EXCL | O_WRONLY, 0644);
	show("write", write(fd, "hello", 5));
	close(fd);
	show("open O_EXCL existing", open("fst/f", O_CREAT | O_EXCL | O_WRONLY, 0644));
	fd = open("fst/f", O_WRONLY | O_APPEND);
	show("append", write(fd, " world", 6));
	close(fd);
	cat("fst/f");
	fd = open("fst/f", O_RDWR | O_TRUNC);
	fstat(fd, &st);
	printf("after O_TRUNC: size %lld\n", (long long)st.st_size);
	show("ftruncate 10000", ftruncate(fd, 10000));
	fstat(fd, &st);
	printf("size %lld\n", (long long)st.st_size);
	char buf[16] = { 1 };
	pread(fd, buf, 4, 5000);
	printf("bytes at 5000: %d %d %d %d\n", buf[0], buf[1], buf[2], buf[3]);
	lseek(fd, 20000, SEEK_SET);
	show("write past the end", write(fd, "z", 1));
	fstat(fd, &st);
	printf("size %lld\n", (long long)st.st_size);
	show("ftruncate 3", ftruncate(fd, 3));
	lseek(fd, 0, SEEK_SET);
	memset(buf, 0, sizeof buf);
	show("read", read(fd, buf, sizeof buf));
	printf("contents \"%s\"\n", buf);
	close(fd);
	show("ftruncate(read-only fd)", ftruncate(fd = open("fst/f", O_RDONLY), 1));
	close(fd);
	show("truncate fst/f 2", truncate("fst/f", 2));
	cat("fst/f");
}

static void names(void)
{
	struct stat st;
	show("rename f g", rename("fst/f", "fst/g"));
	show("stat f", stat("fst/f", &st));
	close(open("fst/x", O_CREAT | O_WRONLY, 0600));
	show("renameat2 NOREPLACE over x",
	     syscall(SYS_renameat2, AT_FDCWD, "fst/g", AT_FDCWD, "fst/x", 1));
	show("renameat2 flags 8", syscall(SYS_renameat2, AT_FDCWD, "fst/g", AT_FDCWD, "fst/y", 8));
	show("rename x over g", rename("fst/x", "fst/g"));
	show("mkdir fst/d", mkdir("fst/d", 0700));
	show("mkdir fst/d/e", mkdir("fst/d/e", 0700));
	show("rename d into d/e", rename("fst/d", "fst/d/e/d"));
	show("rmdir non-empty", rmdir("fst/d"));
	show("unlink a directory", unlink("fst/d"));
	show("rmdir a file", rmdir("fst/g"));
	show("rmdir .", rmdir("fst/d/e/."));
	show("open g/", open("fst/g/", O_RDONLY));
	show("mkdir g/x", mkdir("fst/g/x", 0700));
	show("open missing", open("fst/nope", O_RDONLY));
	show("open missing/dir/f", open("fst/nope/f", O_RDONLY));
	show("stat /dev/null/", stat("/dev/null/", &st));
	show("rename file over dir", rename("fst/g", "fst/d"));
	show("rename dir over file", rename("fst/d", "fst/g"));
	show("rename dir over non-empty dir", rename("fst/d/e", "fst"));
	show("open dir for writing", open("fst/d", O_WRONLY));
	show("mkdir fst/d2", mkdir("fst/d2", 0755));
	show("rename d2 over empty e", rename("fst/d2", "fst/d/e"));
	stat("fst/d", &st);
	printf("fst/d nlink %ld mode %o\n", (long)st.st_nlink, st.st_mode);
}

static void links(void)
{
	struct stat st;
	char buf[64] = { 0 };
	int fd = open("fst/g", O_WRONLY | O_TRUNC);
	write(fd, "linked", 6);
	close(fd);
	show("link g h", link("fst/g", "fst/h"));
	show("link g h again", link("fst/g", "fst/h"));
	show("link a directory", link("fst/d", "fst/dl"));
	stat("fst/h", &st);
	printf("nlink %ld\n", (long)st.st_nlink);
	show("unlink g", unlink("fst/g"));
	cat("fst/h");
	stat("fst/h", &st);
	printf("nlink %ld\n", (long)st.st_nlink);
	show("symlink h l", symlink("h", "fst/l"));
	show("readlink l", readlink("fst/l", buf, sizeof buf));
	printf("target \"%s\"\n", buf);
	show("readlink h", readlink("fst/h", buf, sizeof buf));
	cat("fst/l");
	lstat("fst/l", &st);
	printf("lstat l: link %d\n", S_ISLNK(st.st_mode));
	symlink("loop2", "fst/loop1");
	symlink("loop1", "fst/loop2");
	show("open a link loop", open("fst/loop1", O_RDONLY));
	show("open O_NOFOLLOW link", open("fst/l", O_RDONLY | O_NOFOLLOW));
	symlink("d", "fst/dlink");
	show("mkdir through a dir link", mkdir("fst/dlink/new", 0755));
	show("rmdir it", rmdir("fst/d/new"));
	show("symlink over existing", symlink("x", "fst/h"));
	show("open dangling link", open("fst/loop0", O_RDONLY));
	char name[300];
	memset(name, 'n', sizeof name);
	name[256] = 0;
	show("open 256-byte name", open(name, O_RDONLY));
	name[255] = 0;
	show("open 255-byte name", open(name, O_RDONLY));
	char *longp = malloc(5000);
	memset(longp, 0, 5000);
	for (int i = 0; i < 4200; i += 2)
		memcpy(longp + i, "a/", 2);
	show("open 4200-byte path", open(longp, O_RDONLY));
	free(longp);
}

static void attrs(void)
{
	struct stat st;
	show("chmod h 0640", chmod("fst/h", 0640));
	stat("fst/h", &st);
	printf("mode %o\n", st.st_mode);
	show("chown h to myself", chown("fst/h", getuid(), getgid()));
	show("chown -1 -1", chown("fst/h", -1, -1));
	struct timespec t[2] = { { 1000000000, 5 }, { 1234567890, 0 } };
	show("utimensat", utimensat(AT_FDCWD, "fst/h", t, 0));
	stat("fst/h", &st);
	printf("atime %ld.%ld mtime %ld\n", (long)st.st_atim.tv_sec, st.st_atim.tv_nsec,
	       (long)st.st_mtim.tv_sec);
	t[0].tv_nsec = UTIME_OMIT;
	t[1].tv_sec = 42;
	show("utimensat OMIT atime", utimensat(AT_FDCWD, "fst/h", t, 0));
	stat("fst/h", &st);
	printf("atime %ld mtime %ld\n", (long)st.st_atim.tv_sec, (long)st.st_mtim.tv_sec);
	t[1].tv_nsec = 1000000000;
	show("utimensat bad nsec", utimensat(AT_FDCWD, "fst/h", t, 0));
	int fd = open("fst/h", O_RDWR);
	show("fsync", fsync(fd));
	show("fdatasync", fdatasync(fd));
	show("fchmod 0604", fchmod(fd, 0604));
	fstat(fd, &st);
	printf("mode %o\n", st.st_mode);
	close(fd);
	int p[2];
	pipe(p);
	show("fsync(pipe)", fsync(p[0]));
	close(p[0]);
	close(p[1]);
	show("fsync(99)", fsync(99));
}

static void cwd(void)
{
	char buf[PATH_MAX];
	int top = open(".", O_RDONLY | O_DIRECTORY);
	show("chdir fst/d", chdir("fst/d"));
	getcwd(buf, sizeof buf);
	printf("cwd ends in %s\n", strrchr(buf, '/'));
	show("open ../h", open("../h", O_RDONLY) >= 0);
	show("chdir e", chdir("e"));
	show("chdir a file", chdir("../../h"));
	show("chdir missing", chdir("nope"));
	show("getcwd size 2", getcwd(buf, 2) ? 0 : -1);
	show("fchdir top", fchdir(top));
	int d = open("fst/d", O_RDONLY | O_DIRECTORY);
	show("mkdirat d/m", mkdirat(d, "m", 0755));
	show("openat d/m/f O_CREAT", openat(d, "m/f", O_CREAT | O_WRONLY, 0644) >= 0);
	show("fstatat d/m/f", fstatat(d, "m/f", &(struct stat){ 0 }, 0));
	show("unlinkat d/m AT_REMOVEDIR", unlinkat(d, "m", AT_REMOVEDIR));
	show("unlinkat d/m/f", unlinkat(d, "m/f", 0));
	show("unlinkat d/m AT_REMOVEDIR", unlinkat(d, "m", AT_REMOVEDIR));
	show("openat(file fd, ...)", openat(open("fst/h", O_RDONLY), "x", O_RDONLY));
	show("fchdir(file)", fchdir(open("fst/h", O_RDONLY)));
	pid_t pid = fork();
	if (pid == 0) {
		chdir("fst/d");
		getcwd(buf, sizeof buf);
		printf("child cwd ends in %s\n", strrchr(buf, '/'));
		_exit(0);
	}
	waitpid(pid, NULL, 0);
	getcwd(buf, sizeof buf);
	printf("parent cwd unchanged: %d\n", chdir("fst") == 0 && chdir("..") == 0);
	chdir("fst");
	pid = fork();
	if (pid == 0) {
		getcwd(buf, sizeof buf);
		printf("inherited cwd ends in %s\n", strrchr(buf, '/'));
		_exit(0);
	}
	waitpid(pid, NULL, 0);
	fchdir(top);
	close(top);
	close(d);
}

/* A removed directory takes no new names (ENOENT, even as the cwd), and a
 * write from a bad buffer leaves the file as it was (and, on Sigil, no
 * page behind: the power-off leak check counts them). */
static void removed(void)
{
	int top = open(".", O_RDONLY | O_DIRECTORY);
	mkdir("fst/gone", 0755);
	chdir("fst/gone");
	show("rmdir the cwd", rmdir("../gone"));
	show("mkdir in it", mkdir("x", 0755));
	show("create in it", open("f", O_CREAT | O_WRONLY, 0644));
	fchdir(top);
	close(top);
	char *volatile bad = (char *)16; /* unmapped; volatile: gcc must not see it */
	int fd = open("fst/bad", O_CREAT | O_RDWR | O_TRUNC, 0644);
	for (int i = 0; i < 64; i++)
		write(fd, bad, 5000);
	show("write from a bad buffer", write(fd, bad, 5000));
	show("size after it", lseek(fd, 0, SEEK_END));
	close(fd);
	unlink("fst/bad");
}

/* RLIMIT_NOFILE is Sigil's table size (256), and set so on the host. */
static void emfile(void)
{
	struct rlimit r = { 256, 256 };
	show("setrlimit NOFILE 256", setrlimit(RLIMIT_NOFILE, &r));
	int fds[256], n = 0;
	errno = 0;
	while (n < 256 && (fds[n] = open("fst/h", O_RDONLY)) >= 0)
		n++;
	printf("opened until: %s\n", strerror(errno));
	while (n > 0)
		close(fds[--n]);
}

static void cleanup(void)
{
	ls("fst");
	ls("fst/d");
	const char *gone[] = { "fst/h", "fst/l", "fst/loop1", "fst/loop2", "fst/dlink" };
	for (unsigned i = 0; i < sizeof gone / sizeof gone[0]; i++)
		unlink(gone[i]);
	show("rmdir fst/d/e", rmdir("fst/d/e"));
	show("rmdir fst/d", rmdir("fst/d"));
	show("rmdir fst", rmdir("fst"));
	show("stat fst", stat("fst", &(struct stat){ 0 }));
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	files();
	names();
	links();
	attrs();
	cwd();
	removed();
	for (int fd = 3; fd < 64; fd++)
		close(fd);
	emfile();
	cleanup();
	return 0;
}
