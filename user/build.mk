# user/build.mk - how the C test programs in user/c/ are built.
#
# Included by the top Makefile, which runs from the repository root. Every
# user/c/<name>.c becomes one static ppc32 glibc binary, target/user/<name>:
# the same file runs as PID 1 on Sigil and under qemu-ppc (the reference), so
# the integration tests in qemu/tests/ can compare the two outputs.
#
# Input: USER_CFLAGS (extra compiler flags from the board file; may be empty).
# Output: USER_C_BINS (the list of binaries) and the phony target `user-c`.

USER_CC     := powerpc-linux-gnu-gcc
USER_C_SRCS := $(sort $(wildcard user/c/*.c))
USER_C_BINS := $(patsubst user/c/%.c,target/user/%,$(USER_C_SRCS))

.PHONY: user-c
user-c: $(USER_C_BINS) ## Build the C test programs (static glibc) into target/user/

# A static pattern rule, so it claims only the C programs and never another
# rule's target/user/<name> (Rust user programs live there too). A program
# may include the shared headers of user/c/, so it is rebuilt when they change.
$(USER_C_BINS): target/user/%: user/c/%.c $(wildcard user/c/*.h) user/build.mk
	@mkdir -p $(@D)
	$(USER_CC) -O2 -static -Wall -Werror $(USER_CFLAGS) -o $@ $<
