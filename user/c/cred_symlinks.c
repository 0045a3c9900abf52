/* cred_symlinks: Linux's protected_symlinks (fs.protected_symlinks = 1, as
 * Debian boots) in the sticky, world-writable /tmp.
 *
 * A link there is followed only by its owner, or when the directory's owner
 * owns the link too; anyone else, root included, gets EACCES, so a user
 * cannot plant a link in /tmp for a privileged program to open. Root makes
 * a target file and a link to it; a child drops to uid 1000 and makes links
 * of its own (to the file, and to /tmp itself, used as a middle component),
 * then root tries them. lstat and readlink never follow, so they work; a
 * user's link outside a sticky directory is followed by anyone.
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

static const char *err(int r)
{
	return r >= 0 ? "ok" : strerror(errno);
}

static void try_open(const char *who, const char *what, const char *path)
{
	int fd = open(path, O_RDONLY);
	printf("%s opens %s: %s\n", who, what, err(fd));
	if (fd >= 0)
		close(fd);
}

static void as_user(void)
{
	gid_t g = 1000;
	setgroups(1, &g);
	setresgid(1000, 1000, 1000);
	setresuid(1000, 1000, 1000);
	try_open("user", "root's link in /tmp", "/tmp/sl.root");
	symlink("/tmp/sl.target", "/tmp/sl.user");
	symlink("/tmp", "/tmp/sl.dir");
	try_open("user", "its own link in /tmp", "/tmp/sl.user");
	mkdir("/tmp/sl.d", 0777);
	chmod("/tmp/sl.d", 0777);
	symlink("/tmp/sl.target", "/tmp/sl.d/link");
	exit(0);
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	close(open("/tmp/sl.target", O_WRONLY | O_CREAT | O_TRUNC, 0644));
	symlink("/tmp/sl.target", "/tmp/sl.root");
	pid_t child = fork();
	if (child == 0)
		as_user();
	int status;
	waitpid(child, &status, 0);
	try_open("root", "the user's link in /tmp", "/tmp/sl.user");
	struct stat st;
	printf("root stats the user's link as a middle component: %s\n",
	       err(stat("/tmp/sl.dir/sl.target", &st)));
	printf("root lstats the user's link: %s\n", err(lstat("/tmp/sl.user", &st)));
	char buf[64];
	ssize_t n = readlink("/tmp/sl.user", buf, sizeof buf);
	printf("root reads the user's link: %s\n", err(n));
	try_open("root", "the user's link in a non-sticky directory", "/tmp/sl.d/link");
	printf("cleanup: %s %s %s %s %s %s\n", err(unlink("/tmp/sl.d/link")), err(rmdir("/tmp/sl.d")),
	       err(unlink("/tmp/sl.dir")), err(unlink("/tmp/sl.user")), err(unlink("/tmp/sl.root")),
	       err(unlink("/tmp/sl.target")));
	return 0;
}
