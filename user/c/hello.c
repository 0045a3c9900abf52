/* hello: the smallest ABI check - argv, envp and the exit status reach PID 1.
 *
 * Prints argc, every argument after argv[0] (argv[0] differs: "/init" on
 * Sigil, a host path under qemu-ppc), the number of environment strings and
 * the value of HOME and TERM, then exits with status 7. The test harness gives
 * qemu-ppc the same environment Sigil gives init, so both outputs match.
 */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv, char **envp)
{
	int envc = 0;

	setvbuf(stdout, NULL, _IONBF, 0);
	printf("hello from sigil test\n");
	printf("argc=%d\n", argc);
	for (int i = 1; i < argc; i++)
		printf("argv[%d]=%s\n", i, argv[i]);
	while (envp[envc] != NULL)
		envc++;
	printf("envc=%d\n", envc);
	printf("HOME=%s\n", getenv("HOME") ? getenv("HOME") : "(unset)");
	printf("TERM=%s\n", getenv("TERM") ? getenv("TERM") : "(unset)");
	return 7;
}
