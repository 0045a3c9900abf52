# user/build.mk - how the user programs (C in user/c/, Rust in user/ulib/) are built.
#
# Included by the top Makefile, which runs from the repository root. Every
# user/c/<name>.c becomes one static ppc32 glibc binary, target/user/<name>:
# the same file runs as PID 1 on Sigil and under qemu-ppc (the reference), so
# the integration tests in qemu/tests/ can compare the two outputs. One
# exception: linux_bench_init is the /init of make bench-linux's Linux boot
# (qemu/src/linux.rs), built here like the others and run only there.
#
# Input: USER_CFLAGS (extra compiler flags from the board file; may be empty),
# CROSS_ENV and CARGO (from the top Makefile) for the Rust programs.
# Output: USER_C_BINS and USER_CXX_BINS (the C and C++ binaries) and the
# phony targets `user-c`, `user-cxx` and `user-rust` (the Rust programs,
# see below).

USER_CC     := powerpc-linux-gnu-gcc
USER_C_SRCS := $(sort $(wildcard user/c/*.c))
USER_C_BINS := $(patsubst user/c/%.c,target/user/%,$(USER_C_SRCS))

.PHONY: user-c
user-c: $(USER_C_BINS) ## Build the C test programs (static glibc) into target/user/

# A static pattern rule, so it claims only the C programs and never another
# rule's target/user/<name> (Rust user programs live there too). A program
# may include the shared headers of user/c/, so it is rebuilt when they change.
# -g: gdb (`sigil-user PROG`, docs/debugging.md) then knows the program's
# lines and variables; gcc's code is the same with or without it. The debug
# info names the checkout as "." (USER_DEBUG): with the absolute path, a
# checkout elsewhere made programs of another size, an initramfs laid out
# otherwise, and a trace whose t= values differ from the docs'.
USER_DEBUG := -g -ffile-prefix-map=$(CURDIR)=.
$(USER_C_BINS): target/user/%: user/c/%.c $(wildcard user/c/*.h) user/build.mk
	@mkdir -p $(@D)
	$(USER_CC) -O2 $(USER_DEBUG) -static -Wall -Werror $(USER_CFLAGS) -o $@ $< -lm

# C++ programs: every user/cxx/<name>.cc becomes target/user/<name> the
# same way, with the cross g++ and its static libstdc++.
USER_CXX      := powerpc-linux-gnu-g++
USER_CXX_SRCS := $(sort $(wildcard user/cxx/*.cc))
USER_CXX_BINS := $(patsubst user/cxx/%.cc,target/user/%,$(USER_CXX_SRCS))

.PHONY: user-cxx
user-cxx: $(USER_CXX_BINS) ## Build the C++ test programs (static glibc, libstdc++) into target/user/

$(USER_CXX_BINS): target/user/%: user/cxx/%.cc user/build.mk
	@mkdir -p $(@D)
	$(USER_CXX) -O2 $(USER_DEBUG) -static -Wall -Werror $(USER_CFLAGS) -o $@ $<

# Sigil's own Rust programs: user/ulib/src/bin/<name>.rs on the ulib runtime
# (user/ulib), cross-built for the built-in powerpc-unknown-linux-gnu target
# with core built from source, linked by the cross gcc without any libc.
# Cargo decides what is stale, so the target always asks it.
USER_RS_NAMES := $(patsubst user/ulib/src/bin/%.rs,%,$(sort $(wildcard user/ulib/src/bin/*.rs)))
USER_RS_OUT   := target/user-build/powerpc-unknown-linux-gnu/release
USER_RS_FLAGS := -C linker=$(USER_CC) -C link-arg=-nostdlib -C link-arg=-nostartfiles -C link-arg=-static -C strip=debuginfo

.PHONY: user-rust
user-rust: ## Build the Rust programs on ulib into target/user/
	@mkdir -p target/user
	$(CROSS_ENV) RUSTFLAGS="$(USER_RS_FLAGS)" $(CARGO) build -q -p ulib --release \
	  --target powerpc-unknown-linux-gnu -Zbuild-std=core -Zbuild-std-features=compiler-builtins-mem \
	  --target-dir target/user-build
	cp $(addprefix $(USER_RS_OUT)/,$(USER_RS_NAMES)) target/user/
