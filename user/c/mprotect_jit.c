/* mprotect_jit: the JIT pattern. Code is stored through a read/write page,
 * the page is mprotected to read/execute and called. Round after round the
 * same page gets `li r3,N; blr` with a new N: a core whose instruction
 * cache still holds the previous round's words would return the old N, so
 * each round's answer shows the kernel synced the cache when execute
 * permission came back (mprotect adding PROT_EXEC to present pages).
 * The program never syncs the cache itself, as JITs that rely on the
 * kernel's mprotect do not.
 */
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>

#define PAGE 4096
#define ROUNDS 8

/* li r3,n (addi r3,0,n) and blr. */
#define LI_R3(n) (0x38600000u | ((uint32_t)(n) & 0xffff))
#define BLR 0x4e800020u

int main(void)
{
	uint32_t *code = mmap(0, PAGE, PROT_READ | PROT_WRITE,
			      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (code == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	int good = 0;
	for (int i = 0; i < ROUNDS; i++) {
		int want = 42 + i;
		if (i > 0 && mprotect(code, PAGE, PROT_READ | PROT_WRITE) != 0) {
			perror("mprotect rw");
			return 1;
		}
		code[0] = LI_R3(want);
		code[1] = BLR;
		if (mprotect(code, PAGE, PROT_READ | PROT_EXEC) != 0) {
			perror("mprotect rx");
			return 1;
		}
		int got = ((int (*)(void))code)();
		printf("round %d: %d\n", i, got);
		good += got == want;
	}
	printf("rounds right: %d of %d\n", good, ROUNDS);
	return good == ROUNDS ? 0 : 2;
}
