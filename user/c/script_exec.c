/* script_exec: execve of `#!` scripts, as Linux's binfmt_script runs them.
 * The interpreter is this program itself (found through /proc/self/exe):
 * run as "prog show ..." it prints its argv. Sigil only in the test: under
 * qemu-ppc the host kernel would run the scripts, with a host interpreter.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char self[256];

static void script(const char *path, const char *text, int mode)
{
	int fd = open(path, O_CREAT | O_TRUNC | O_WRONLY, mode);
	write(fd, text, strlen(text));
	close(fd);
	chmod(path, mode);
}

/* Runs `path` with one extra argument in a child; prints what happened. */
static void run(const char *what, const char *path)
{
	pid_t pid = fork();
	if (pid == 0) {
		char *argv[] = { (char *)path, "last", NULL };
		execv(path, argv);
		printf("%s: exec: %s\n", what, strerror(errno));
		_exit(1);
	}
	int status;
	waitpid(pid, &status, 0);
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	if (argc > 1 && strncmp(argv[1], "show", 4) == 0) {
		printf("argv:");
		for (int i = 1; i < argc; i++)
			printf(" [%s]", argv[i]);
		printf("\n");
		return 0;
	}
	ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
	if (n < 0)
		return 1;
	printf("exe is absolute: %d\n", self[0] == '/');
	char text[512];
	mkdir("/tmp/sx", 0755);
	snprintf(text, sizeof text, "#!%s show one  arg \necho not run\n", self);
	script("/tmp/sx/s1", text, 0755);
	run("s1", "/tmp/sx/s1");
	snprintf(text, sizeof text, "#! %s\tshow\n", self);
	script("/tmp/sx/tab", text, 0755);
	run("tab", "/tmp/sx/tab");
	chdir("/tmp");
	run("relative", "sx/s1");
	/* A chain: s2 runs s1, which runs the program. */
	script("/tmp/sx/s2", "#!/tmp/sx/s1\n", 0755);
	run("s2", "/tmp/sx/s2");
	/* Five interpreters deep works, six is ELOOP. */
	char prev[32] = "/tmp/sx/s1", name[32];
	for (int i = 3; i <= 6; i++) {
		snprintf(name, sizeof name, "/tmp/sx/s%d", i);
		snprintf(text, sizeof text, "#!%s\n", i == 3 ? "/tmp/sx/s2" : prev);
		script(name, text, 0755);
		strcpy(prev, name);
	}
	run("s5 (5 scripts)", "/tmp/sx/s5");
	run("s6 (6 scripts)", "/tmp/sx/s6");
	script("/tmp/sx/empty", "#!\n", 0755);
	run("no interpreter", "/tmp/sx/empty");
	script("/tmp/sx/missing", "#!/no/such/interp\n", 0755);
	run("missing interpreter", "/tmp/sx/missing");
	script("/tmp/sx/text", "echo hi\n", 0755);
	run("no #!", "/tmp/sx/text");
	script("/tmp/sx/noexec", "#!/bin/sh\n", 0644);
	run("mode 0644", "/tmp/sx/noexec");
	/* Files left in the tmpfs would count as used memory at power-off. */
	const char *all[] = { "s1", "tab", "s2", "s3", "s4", "s5", "s6", "empty", "missing", "text", "noexec" };
	for (unsigned i = 0; i < sizeof all / sizeof all[0]; i++) {
		snprintf(name, sizeof name, "/tmp/sx/%s", all[i]);
		unlink(name);
	}
	printf("rmdir: %d\n", rmdir("/tmp/sx"));
	return 0;
}
