/* badexec: execve of things that are not runnable programs fails cleanly.
 *
 * argv[1..] are paths of bad files the harness provides (not an ELF, an empty
 * file, an ELF header cut short...): each execve must fail with ENOEXEC and
 * the program continues. Then a missing path (ENOENT), a NULL path and a bad
 * argv array (EFAULT). Only the last path component is printed, so the output
 * is the same whether the files sit at /bin (Sigil) or bin/ (qemu-ppc run).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

extern char **environ;

static void try_exec(const char *label, const char *path, char *const argv[])
{
	errno = 0;
	int r = execve(path, argv, environ);
	printf("execve(%s): %d, errno %d (%s)\n", label, r, errno, strerror(errno));
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	for (int i = 1; i < argc; i++) {
		const char *slash = strrchr(argv[i], '/');
		char *args[] = { argv[i], NULL };
		try_exec(slash ? slash + 1 : argv[i], argv[i], args);
	}

	char *args[] = { "missing", NULL };
	try_exec("/no/such/file", "/no/such/file", args);
	const char *volatile null_path = NULL;
	try_exec("NULL path", null_path, args);
	if (argc > 1) {
		char *const *volatile bad_argv = (char *const *)0xc0000000u;
		try_exec("bad argv pointer", argv[1], bad_argv);
	}
	printf("still running after %d failed execs\n", argc + (argc > 1 ? 2 : 1));
	return 0;
}
