/* fs_rules: the order of Linux's file-system checks and the edges around
 * them, compared with qemu-ppc (which runs as the host's root, so its
 * setuid calls and permission checks are real Linux's).
 *
 * Root makes a scratch directory in /tmp holding a read-only directory
 * "ro" (0555, with a file and a subdirectory), a sticky one "st" (1777,
 * with root's file and directory) and one the user cannot search, "nox"
 * (0700). A child drops to uid/gid 1000 and tries them:
 * - creating a name that exists is EEXIST even where it may not write
 *   (so `mkdir -p /tmp` works), else EACCES; removing a missing name is
 *   ENOENT before EACCES; search permission comes first of all;
 * - in the sticky directory it may remove only its own entries (EPERM);
 * - faccessat2/fstatat with AT_EMPTY_PATH on a file descriptor.
 * Root then checks O_CREAT through dangling symbolic links, the device
 * nodes' modes (and that fstat and stat agree) and readv/writev's limits.
 * No pid, inode number or name is printed, so the output is the same on
 * any run and on qemu-ppc.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

static char dir[64];

static void show(const char *what, long r)
{
	if (r < 0)
		printf("%s: %s\n", what, strerror(errno));
	else
		printf("%s: %ld\n", what, r);
}

/* open, and close what it gave. */
static long open_close(const char *path, int flags)
{
	int fd = open(path, flags, 0644);
	if (fd >= 0)
		close(fd);
	return fd < 0 ? -1 : 0;
}

static void creates_and_removes(void)
{
	show("mkdir /tmp", mkdir("/tmp", 0755));
	show("mkdir /", mkdir("/", 0755));
	show("mkdir ro/f", mkdir("ro/f", 0755));
	show("mkdir ro/.", mkdir("ro/.", 0755));
	show("mkdir ro/new", mkdir("ro/new", 0755));
	show("open ro/f O_CREAT|O_EXCL", open_close("ro/f", O_WRONLY | O_CREAT | O_EXCL));
	show("open ro/new O_CREAT", open_close("ro/new", O_WRONLY | O_CREAT));
	show("open ro/f O_CREAT, read", open_close("ro/f", O_RDONLY | O_CREAT));
	show("symlink to ro/f", symlink("x", "ro/f"));
	show("symlink to ro/new", symlink("x", "ro/new"));
	show("symlink to new/", symlink("x", "st/new/"));
	show("link to ro/f", link("st/mine", "ro/f"));
	show("link to ro/new", link("st/mine", "ro/new"));
	show("mknod ro/f", mknod("ro/f", S_IFREG | 0644, 0));
	show("mknod ro/new", mknod("ro/new", S_IFREG | 0644, 0));
	show("mknod st/null (a device, as a user)", mknod("st/null", S_IFCHR | 0666, makedev(1, 3)));
	show("unlink ro/missing", unlink("ro/missing"));
	show("unlink ro/f", unlink("ro/f"));
	show("unlink ro/sub", unlink("ro/sub"));
	show("rmdir ro/missing", rmdir("ro/missing"));
	show("rmdir ro/sub", rmdir("ro/sub"));
	show("rmdir ro/f", rmdir("ro/f"));
	show("rename ro/missing", rename("ro/missing", "ro/x"));
	show("rename ro/f", rename("ro/f", "ro/g"));
	show("rename st/mine over ro/f", rename("st/mine", "ro/f"));
	show("mkdir nox/f", mkdir("nox/f", 0755));
	show("unlink nox/missing", unlink("nox/missing"));
}

static void sticky(void)
{
	show("unlink st/rootf", unlink("st/rootf"));
	show("rmdir st/rootd", rmdir("st/rootd"));
	show("rename st/rootf", rename("st/rootf", "st/x"));
	show("rename st/mine over st/rootf", rename("st/mine", "st/rootf"));
	show("rename st/mine", rename("st/mine", "st/mine2"));
	show("unlink st/mine2 (own)", unlink("st/mine2"));
	show("mkdir st/myd", mkdir("st/myd", 0755));
	show("open st/mine O_CREAT", open_close("st/mine", O_WRONLY | O_CREAT));
}

static void empty_path(void)
{
	struct stat a, b;
	int fd = open("st/ro", O_WRONLY | O_CREAT | O_EXCL, 0444);
	close(fd);
	fd = open("st/ro", O_RDONLY);
	show("faccessat2(fd, \"\", R_OK, AT_EMPTY_PATH)", syscall(SYS_faccessat2, fd, "", R_OK, AT_EMPTY_PATH));
	show("faccessat2(fd, \"\", W_OK, AT_EMPTY_PATH)", syscall(SYS_faccessat2, fd, "", W_OK, AT_EMPTY_PATH));
	show("faccessat2(fd, \"\", F_OK, 0)", syscall(SYS_faccessat2, fd, "", F_OK, 0));
	show("fstatat(fd, \"\", AT_EMPTY_PATH)", fstatat(fd, "", &a, AT_EMPTY_PATH));
	stat("st/ro", &b);
	printf("fstatat of the fd is the file: %d\n", a.st_ino == b.st_ino && a.st_mode == b.st_mode);
	show("fstatat(fd, \"\", 0)", fstatat(fd, "", &a, 0));
	close(fd);
	unlink("st/ro");
}

static void as_user(void)
{
	gid_t g = 1000;
	setgroups(1, &g);
	setresgid(1000, 1000, 1000);
	setresuid(1000, 1000, 1000);
	close(open("st/mine", O_WRONLY | O_CREAT, 0644));
	creates_and_removes();
	sticky();
	empty_path();
	exit(0);
}

static void dangling_links(void)
{
	struct stat st;
	symlink("target", "dangle");
	symlink("dangle", "dangle2");
	symlink("nodir/x", "dangle3");
	symlink("newdir/", "dangle4");
	show("open dangle O_CREAT", open_close("dangle", O_WRONLY | O_CREAT));
	show("target made", stat("target", &st) == 0 && S_ISREG(st.st_mode) ? 1 : -1);
	unlink("target");
	show("open dangle2 O_CREAT (a chain)", open_close("dangle2", O_WRONLY | O_CREAT));
	show("target made again", stat("target", &st));
	unlink("target");
	show("open dangle O_CREAT|O_EXCL", open_close("dangle", O_WRONLY | O_CREAT | O_EXCL));
	show("open dangle O_CREAT|O_NOFOLLOW", open_close("dangle", O_WRONLY | O_CREAT | O_NOFOLLOW));
	show("open dangle without O_CREAT", open_close("dangle", O_RDONLY));
	show("open dangle3 O_CREAT (no parent)", open_close("dangle3", O_WRONLY | O_CREAT));
	show("open dangle4 O_CREAT (to a dir/)", open_close("dangle4", O_WRONLY | O_CREAT));
	show("open file/ O_CREAT", open_close("ro/f/", O_WRONLY | O_CREAT));
	show("open new/ O_CREAT", open_close("new/", O_WRONLY | O_CREAT));
	show("target absent", stat("target", &st));
	unlink("dangle");
	unlink("dangle2");
	unlink("dangle3");
	unlink("dangle4");
}

static void device(const char *path)
{
	struct stat a, b;
	if (stat(path, &a) < 0) {
		printf("stat %s: %s\n", path, strerror(errno));
		return;
	}
	printf("%s: mode %o rdev %u,%u uid %u\n", path, a.st_mode & 07777, major(a.st_rdev), minor(a.st_rdev),
	       a.st_uid);
	int fd = open(path, O_RDONLY | O_NOCTTY);
	if (fd < 0)
		return;
	fstat(fd, &b);
	printf("%s: fstat agrees: %d\n", path,
	       a.st_ino == b.st_ino && a.st_dev == b.st_dev && a.st_mode == b.st_mode && a.st_rdev == b.st_rdev);
	close(fd);
}

/* mknod as root: a regular file, a device this kernel has a driver for. */
static void mknods(void)
{
	struct stat st;
	show("mknod reg (type 0)", mknod("reg", 0644, 0));
	show("reg is a file", stat("reg", &st) == 0 && S_ISREG(st.st_mode) ? 1 : -1);
	show("mknod reg again", mknod("reg", S_IFREG | 0644, 0));
	show("mknod null2", mknod("null2", S_IFCHR | 0666, makedev(1, 3)));
	stat("null2", &st);
	printf("null2: char %d rdev %u,%u\n", S_ISCHR(st.st_mode), major(st.st_rdev), minor(st.st_rdev));
	int fd = open("null2", O_WRONLY);
	show("write null2", write(fd, "abcd", 4));
	close(fd);
	show("mknod a directory", mknod("d", S_IFDIR | 0755, 0));
	show("mknod a bad type", mknod("bad", 0170000 | 0644, 0));
	unlink("reg");
	unlink("null2");
}

static void devices(void)
{
	unsigned char z[4] = { 1, 1, 1, 1 };
	device("/dev/null");
	device("/dev/zero");
	struct stat st;
	stat("/dev/tty", &st);
	printf("/dev/tty: mode %o rdev %u,%u\n", st.st_mode & 07777, major(st.st_rdev), minor(st.st_rdev));
	int fd = open("/dev/zero", O_RDWR);
	show("read /dev/zero", read(fd, z, 4));
	printf("zeros: %d %d %d %d\n", z[0], z[1], z[2], z[3]);
	show("write /dev/zero", write(fd, z, 4));
	close(fd);
}

static void vectors(void)
{
	static struct iovec iov[1025];
	char buf[8] = "abcdefg";
	int null = open("/dev/null", O_WRONLY);
	int p[2];
	pipe(p);
	for (int i = 0; i < 1025; i++)
		iov[i] = (struct iovec){ buf, 1 };
	show("writev 1024 iovecs", writev(null, iov, 1024));
	show("writev 1025 iovecs", writev(null, iov, 1025));
	show("readv 1025 iovecs", readv(p[0], iov, 1025));
	show("writev 0 iovecs", writev(null, iov, 0));
	iov[1].iov_len = 0x80000000u;
	show("writev a negative length", writev(null, iov, 2));
	/* (A bad address after the first is a partial write under qemu-ppc,
	 * EFAULT on Linux and Sigil: only the first is compared.) */
	iov[0] = (struct iovec){ (void *)0xc0000000u, 4 };
	iov[1] = (struct iovec){ buf, 1 };
	show("writev a kernel address", writev(null, iov, 2));
	show("write to a pipe's read end", write(p[0], buf, 1));
	show("read from a pipe's write end", read(p[1], buf, 1));
	iov[0] = (struct iovec){ buf, 3 };
	iov[1] = (struct iovec){ buf + 3, 4 };
	show("writev pipe", writev(p[1], iov, 2));
	char got[8] = { 0 };
	iov[0] = (struct iovec){ got, 2 };
	iov[1] = (struct iovec){ got + 2, 6 };
	show("readv pipe (short)", readv(p[0], iov, 2));
	printf("read back: %s\n", got);
	/* 2 GiB of reserved user memory: lengths past MAX_RW_COUNT are cut.
	 * (qemu-ppc 7.2 refuses a plain write of 2 GiB with EFAULT, which
	 * Linux does not: fs_limits checks that one on Sigil.) */
	void *big = mmap(NULL, 0x80000000u, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (big == MAP_FAILED) {
		printf("mmap 2 GiB: %s\n", strerror(errno));
	} else {
		iov[0] = (struct iovec){ big, 0x7ffff000u };
		iov[1] = (struct iovec){ big, 0x7ffff000u };
		show("writev 4 GiB to /dev/null", writev(null, iov, 2));
		munmap(big, 0x80000000u);
	}
	close(null);
	close(p[0]);
	close(p[1]);
}

int main(void)
{
	int status;

	setvbuf(stdout, NULL, _IONBF, 0);
	umask(022);
	struct stat st;
	stat("/tmp", &st);
	printf("/tmp: mode %o\n", st.st_mode & 07777);
	strcpy(dir, "/tmp/fs_rules.XXXXXX");
	if (!mkdtemp(dir) || chdir(dir) < 0) {
		perror("mkdtemp");
		return 1;
	}
	chmod(".", 0755);
	mkdir("ro", 0755);
	close(open("ro/f", O_WRONLY | O_CREAT, 0644));
	mkdir("ro/sub", 0755);
	chmod("ro", 0555);
	mkdir("st", 0755);
	chmod("st", 01777);
	close(open("st/rootf", O_WRONLY | O_CREAT, 0644));
	mkdir("st/rootd", 0755);
	mkdir("nox", 0700);

	pid_t child = fork();
	if (child == 0)
		as_user();
	waitpid(child, &status, 0);
	printf("user exited %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	show("root: unlink the user's st/mine", unlink("st/mine"));
	show("root: rmdir the user's st/myd", rmdir("st/myd"));
	dangling_links();
	mknods();
	devices();
	vectors();

	chmod("ro", 0755);
	unlink("ro/f");
	rmdir("ro/sub");
	printf("cleanup: %d %d %d %d %d %d\n", rmdir("ro"), unlink("st/rootf"), rmdir("st/rootd"), rmdir("st"),
	       rmdir("nox"), chdir("/") || rmdir(dir));
	return 0;
}
