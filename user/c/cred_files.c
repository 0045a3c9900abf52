/* cred_files: file permissions on the tmpfs for root and for a user.
 *
 * Root makes a directory (0755) holding a secret (0600) and a public file
 * (0644), then a child drops to uid/gid 1000 ("student" in /etc/passwd) and
 * tries them: the secret cannot be read (EACCES), the public file can be
 * read but not written, nothing can be created in root's directory, and
 * chmod/chown of root's files are EPERM. In the sticky /tmp the user makes
 * a file of its own: it belongs to 1000:1000, its owner may chmod it and
 * give it to a group it is in, not to another. access() answers with the
 * real ids. A pipe the user makes is the user's. Everything is removed at the end; no pid or name is printed, so
 * the output is the same on any run and on qemu-ppc.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char dir[64], secret[96], public[96], mine[96], theirs[96];

static const char *err(int r)
{
	return r >= 0 ? "ok" : strerror(errno);
}

static void try_open(const char *what, const char *path, int flags)
{
	errno = 0;
	int fd = open(path, flags, 0644);
	printf("open(%s, %s): %s\n", what, flags & O_CREAT ? "create" : (flags & O_WRONLY ? "write" : "read"), err(fd));
	if (fd >= 0)
		close(fd);
}

static void as_user(void)
{
	gid_t g = 1000;
	struct stat st;

	setgroups(1, &g);
	setresgid(1000, 1000, 1000);
	setresuid(1000, 1000, 1000);
	try_open("secret", secret, O_RDONLY);
	try_open("public", public, O_RDONLY);
	try_open("public", public, O_WRONLY);
	try_open("root's directory", theirs, O_WRONLY | O_CREAT);
	printf("access(secret, R_OK): %s\n", err(access(secret, R_OK)));
	printf("access(public, R_OK): %s\n", err(access(public, R_OK)));
	printf("chmod(public): %s\n", err(chmod(public, 0666)));
	printf("chown(public): %s\n", err(chown(public, 1000, 1000)));
	printf("unlink(secret): %s\n", err(unlink(secret)));
	printf("utimensat(public, NULL): %s\n", err(utimensat(AT_FDCWD, public, NULL, 0)));
	struct timespec then[2] = { { 1, 0 }, { 1, 0 } };
	printf("utimensat(public, times): %s\n", err(utimensat(AT_FDCWD, public, then, 0)));
	try_open("own file in /tmp", mine, O_WRONLY | O_CREAT);
	stat(mine, &st);
	printf("own file: uid %u gid %u mode %o\n", st.st_uid, st.st_gid, st.st_mode & 07777);
	printf("utimensat(own file, times): %s\n", err(utimensat(AT_FDCWD, mine, then, 0)));
	printf("chmod(own file, 0600): %s\n", err(chmod(mine, 0600)));
	unlink(mine);
	int ro = open(mine, O_WRONLY | O_CREAT, 0444); /* the creator may write what it made */
	printf("open(own new file, create 0444, write): %s\n", err(ro));
	if (ro >= 0)
		close(ro);
	printf("chown(own file, -1, 1000): %s\n", err(chown(mine, -1, 1000)));
	printf("chown(own file, -1, 0): %s\n", err(chown(mine, -1, 0)));
	printf("chown(own file, 0, -1): %s\n", err(chown(mine, 0, -1)));
	printf("unlink(own file): %s\n", err(unlink(mine)));
	int p[2];
	pipe(p);
	fstat(p[0], &st);
	printf("own pipe: uid %u gid %u mode %o\n", st.st_uid, st.st_gid, st.st_mode & 07777);
	exit(0);
}

int main(void)
{
	int status, fd;

	setvbuf(stdout, NULL, _IONBF, 0);
	umask(022);
	strcpy(dir, "/tmp/cred_files.XXXXXX");
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	chmod(dir, 0755);
	snprintf(secret, sizeof secret, "%s/secret", dir);
	snprintf(public, sizeof public, "%s/public", dir);
	snprintf(theirs, sizeof theirs, "%s/new", dir);
	snprintf(mine, sizeof mine, "%s.mine", dir);
	fd = open(secret, O_WRONLY | O_CREAT | O_EXCL, 0600);
	write(fd, "s\n", 2);
	close(fd);
	fd = open(public, O_WRONLY | O_CREAT | O_EXCL, 0644);
	close(fd);

	pid_t child = fork();
	if (child == 0)
		as_user();
	waitpid(child, &status, 0);
	printf("user exited %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	try_open("secret as root", secret, O_RDONLY);
	printf("cleanup: %s %s %s\n", err(unlink(secret)), err(unlink(public)), err(rmdir(dir)));
	return 0;
}
