# Sigil's workflow. `make` alone prints this help.
#
#   make run   [BOARD=g3beige] [INIT=path/to/static-elf] [ARGS="a b"] [BOOT="opts"] [QUIET=1] [QEMU_FLAGS="..."]
#   make busybox               BusyBox from Debian's source package, static for ppc32 (once; cached in target/busybox)
#   make test  [BOARD=...]     host unit tests + QEMU integration tests
#   make lint                  cargo fmt --check and clippy -D warnings on every crate, and make layers (CI runs it)
#   make layers                check the kernel's imports against main.rs's layer order; print the module graph
#   make test-fresh            README's two commands on a pristine Debian 12 (10-15 min)
#   make bench                 the mailing-list experiments, in guest instructions
#   make bench-linux           the same programs on Linux 6.1 too (built once, cached in target/linux), side by side
#   make debug [INIT=...]      QEMU waiting for gdb, and the gdb script to attach (docs/debugging.md)
#   make trace INIT=... [ARGS=...]  boot with trace=signal; print the trace, draw target/trace/<name>.svg
#   make image BOARD=...       the kernel ELF (and a U-Boot uImage for boards that boot one)
#   make initrd BOARD=...      the initramfs (INIT and BusyBox) as a U-Boot ramdisk, for those boards
#   make docs                  rewrite the docs' generated parts (trace, gdb session, bench table) from fresh runs
#   make lab N=1               switch the tree to lab 1's starting point (docs/labs/README.md)
#   make lab-check N=1         run lab 1's check: it passes once the exercise is done
#
# Missing tools (Debian packages) are installed first by qemu/deps.sh, which
# says what it installs.

BOARD      ?= g3beige
include boards/$(BOARD).mk

CARGO      := /usr/bin/cargo
KERNEL_DIR := target/kernel/$(BOARD)
KERNEL     := $(KERNEL_DIR)/sigil.elf
# Cargo's build directory for the kernel (`make debug` has its own).
KERNEL_BUILD = target/kernel-build/$(BOARD)
HOST_BIN   := target/host
RUNNER     := $(HOST_BIN)/sigil-run
INIT       ?=
ARGS       ?=
QUIET      ?=
BOOT       ?=
QEMU_FLAGS ?=
CROSS_ENV  := RUSTC=/usr/bin/rustc RUSTC_BOOTSTRAP=1

# QUIET=1: stdout carries exactly what the program wrote, so make echoes no
# commands and the build's own notes go to stderr.
ifneq ($(QUIET),)
MAKEFLAGS += --silent
endif
BUILD_STD  := -Zbuild-std=core,alloc -Zbuild-std-features=compiler-builtins-mem -Zjson-target-spec

.PHONY: help deps kernel runner user busybox initrd run run-cmd test test-host layers test-boards test-qemu lint test-fresh bench bench-linux linux docs debug trace image lab lab-check clean
.DEFAULT_GOAL := help

help: ## Show this help
	@echo "Sigil - a small Rust kernel for 32-bit PowerPC that shows how Linux delivers signals"
	@echo
	@grep -hE '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed 's/:.*## /\t/' | awk -F'\t' '{printf "  make %-10s %s\n", $$1, $$2}'
	@echo
	@echo "  Variables: BOARD=$(BOARD) (boards/*.mk)  INIT=<static ppc32 ELF>  ARGS=\"...\"  BOOT=\"boot options\"  QUIET=1  QEMU_FLAGS=\"...\""

deps: ## Install the Debian packages Sigil needs (only the missing ones)
	@bash qemu/deps.sh

kernel: deps ## Build the kernel for BOARD
	@mkdir -p $(KERNEL_DIR)
	$(CROSS_ENV) $(KERNEL_ENV) $(STEPPING_ENV) SIGIL_ARCH=$(KERNEL_ARCH) SIGIL_LD=$(KERNEL_LD) \
	  $(CARGO) build -q -p sigil-kernel --release --target kernel/ppc32-sigil.json $(BUILD_STD) \
	  --target-dir $(KERNEL_BUILD)
	cp $(KERNEL_BUILD)/ppc32-sigil/release/sigil $(KERNEL)
	@echo "kernel: $(KERNEL) ($$(stat -c %s $(KERNEL)) bytes ELF, $$(powerpc-linux-gnu-size $(KERNEL) | awk 'NR==2{print $$4}') bytes loaded)" >&2

runner: deps ## Build the host-side QEMU runner
	$(CARGO) build -q --profile host -p sigil-qemu

include user/build.mk

user: deps user-c user-cxx user-rust ## Build the user programs (C, C++ and Rust)

# BusyBox (the shell of `make run`, and the applets the console tests use):
# Debian's source package, fetched once into target/busybox/src, built with
# the configuration kept in user/busybox/ (user/busybox/build.sh says how).
BUSYBOX := target/busybox
busybox: deps $(BUSYBOX)/busybox ## Build BusyBox for ppc32 from Debian's source package (fetched once)

$(BUSYBOX)/busybox: user/busybox/busybox.config user/busybox/build.sh
	bash user/busybox/build.sh $(BUSYBOX)

# The runner exits with PID 1's status (128 + signal if it was killed). make
# itself can only exit 0 or 2, so a failing program ends `make run` with
# "Error N" (N = the status); `run-cmd` gives scripts the status itself:
#   sh -c "$$(make -s run-cmd INIT=... ARGS=...)"; echo $$?
#
# Without INIT, `make run` is a shell: tty_session starts BusyBox ash as a
# login shell on the console, its controlling terminal, with job control.
# Sigil's programs are on its PATH (/bin), BusyBox's applets too. From a
# terminal, Ctrl-A x ends the run; a pipe on stdin is read to its end.
RUN_INIT = $(or $(INIT),target/user/tty_session)
RUN_BOOT = $(strip $(BOOT))
RUN_CMD = $(RUNNER) --board $(BOARD) --kernel $(KERNEL) \
	  --bin-dir target/user --busybox $(BUSYBOX) --init $(RUN_INIT) $(if $(QUIET),--quiet) \
	  $(if $(RUN_BOOT),--append "$(RUN_BOOT)") $(if $(QEMU_FLAGS),--qemu-flags "$(QEMU_FLAGS)") -- $(ARGS)

run: kernel runner user busybox ## Boot BOARD in QEMU and run INIT (default: BusyBox ash on the console, with job control)
	@$(RUN_CMD)

run-cmd: kernel runner user busybox ## Build, then print the command `make run` would run (its exit status is PID 1's)
	$(info $(RUN_CMD))@:

test: test-host test-boards test-qemu ## Run every test: host unit tests, hardware-only board builds, QEMU integration tests

test-host: deps ## Host unit tests of the portable logic (cargo test)
	$(CARGO) test -q -p sigil-abi -p sigil-core --lib --tests

# A host test (qemu/tests/layers.rs) that reads kernel/src, nothing built:
# it prints the module graph and fails on an import against the layer order.
layers: ## Check the kernel's imports against the layer order in kernel/src/main.rs; print the module graph
	$(CARGO) test -q --profile host -p sigil-qemu --test layers -- --nocapture

test-qemu: kernel runner user busybox ## QEMU integration tests (boot, programs, signals)
	SIGIL_BOARD=$(BOARD) $(CARGO) test -q --profile host -p sigil-qemu --lib --bins --tests -- --test-threads=2

# Clippy sees every crate as it is really built: the host crates with their
# tests, the kernel once per family (each compiles different arch code, with
# that family's board settings), and ulib for the user target. PATH puts
# Debian's cargo-clippy before rustup's, which has no ppc32 std.
CLIPPY      := PATH=/usr/bin:$$PATH $(CARGO) clippy -q
CLIPPY_DENY := -- -D warnings
lint: deps layers ## cargo fmt --check, clippy -D warnings on the host crates, the kernel (each family) and ulib; make layers
	PATH=/usr/bin:$$PATH $(CARGO) fmt --all --check
	$(CLIPPY) -p sigil-abi -p sigil-core -p sigil-qemu --all-targets $(CLIPPY_DENY)
	for b in g3beige mpc885ads mpc8321erdb; do \
	  $(MAKE) --no-print-directory -s lint-kernel BOARD=$$b || exit 1; done
	$(CROSS_ENV) RUSTFLAGS="$(USER_RS_FLAGS)" $(CLIPPY) -p ulib --release --bins \
	  --target powerpc-unknown-linux-gnu -Zbuild-std=core -Zbuild-std-features=compiler-builtins-mem \
	  --target-dir target/clippy/user $(CLIPPY_DENY)

.PHONY: lint-kernel
lint-kernel:
	$(CROSS_ENV) $(KERNEL_ENV) SIGIL_ARCH=$(KERNEL_ARCH) SIGIL_LD=$(KERNEL_LD) \
	  $(CLIPPY) -p sigil-kernel --release --target kernel/ppc32-sigil.json $(BUILD_STD) \
	  --target-dir target/clippy/$(KERNEL_ARCH)$(if $(findstring SIGIL_PLATFORM,$(KERNEL_ENV)),-$(BOARD)) $(CLIPPY_DENY)

# What a newcomer's new machine does with README's commands: a pristine Debian
# 12 chroot holding a fresh clone of this checkout's HEAD (commit first), built
# by the workplace's fresh-debian.sh, which FRESH_DEBIAN names.
FRESH_DEBIAN ?= ../shared/tools/fresh-debian.sh
test-fresh: ## README's two commands (and make lint) on a pristine Debian 12, from a clone of HEAD
	@test -x $(FRESH_DEBIAN) || { echo "test-fresh needs FRESH_DEBIAN=<fresh-debian.sh> (not found: $(FRESH_DEBIAN))"; exit 2; }
	time $(FRESH_DEBIAN) 'make run </dev/null && make lint && make test </dev/null'

test-boards: deps ## Check that the hardware-only boards build (make image BOARD=mpc885ads and mpc8321erdb), and their uImage headers
	@for b in mpc885ads mpc8321erdb; do \
	  $(MAKE) --no-print-directory image BOARD=$$b || exit 1; \
	  bash qemu/check-uimage.sh target/kernel/$$b || exit 1; done
	@$(MAKE) --no-print-directory -s initrd BOARD=mpc8321erdb
	@mkimage -l target/kernel/mpc8321erdb/initramfs.uImage | grep -q "PowerPC Linux RAMDisk Image" \
	  || { echo "test-boards: initramfs.uImage is not a ramdisk image"; exit 1; }

# A board with UIMAGE_LOAD boots from U-Boot: wrap the raw image in a uImage
# whose entry is the ELF's _start_phys.
image: kernel ## The kernel ELF for BOARD, and a U-Boot uImage if the board boots one
ifneq ($(UIMAGE_LOAD),)
	powerpc-linux-gnu-objcopy -O binary $(KERNEL) $(KERNEL_DIR)/sigil.bin
	mkimage -q -A powerpc -O linux -T kernel -C none -a $(UIMAGE_LOAD) \
	  -e 0x$$(powerpc-linux-gnu-nm $(KERNEL) | awk '$$3 == "_start_phys" {print $$1}') \
	  -n "Sigil $(BOARD)" -d $(KERNEL_DIR)/sigil.bin $(KERNEL_DIR)/sigil.uImage
	@echo "image: $(KERNEL_DIR)/sigil.uImage"
endif
ifneq ($(BOARD_DTS),)
	dtc -q -I dts -O dtb -o $(KERNEL_DIR)/$(BOARD).dtb $(BOARD_DTS)
	@echo "device tree: $(KERNEL_DIR)/$(BOARD).dtb"
endif

# A board that U-Boot boots gets its initramfs from the runner too: INIT (as
# for `make run`, default the BusyBox shell) with BusyBox, but not the ~90
# test programs of target/user (64 MiB: the RDB has 64 MiB of RAM). Wrapped
# for bootm; docs/boards/mpc8321erdb.md says what to type at the U-Boot prompt.
initrd: kernel runner user busybox ## The initramfs for a U-Boot board: INIT (as for make run) and BusyBox, as a ramdisk uImage
	$(RUNNER) --board $(BOARD) --kernel $(KERNEL) --busybox $(BUSYBOX) \
	  --init $(RUN_INIT) --write-initramfs $(KERNEL_DIR)/initramfs.cpio
	mkimage -q -A powerpc -O linux -T ramdisk -C none -n "Sigil initramfs" \
	  -d $(KERNEL_DIR)/initramfs.cpio $(KERNEL_DIR)/initramfs.uImage
	@echo "initramfs: $(KERNEL_DIR)/initramfs.uImage"

# The runner builds the initramfs and the command line exactly as for `make run`;
# `-s -S` makes QEMU wait for gdb on :1234 before the first instruction.
# make debug boots a kernel built for stepping: SIGIL_STEPPING=1 gives it
# `--cfg sigil_stepping` (kernel/build.rs), which keeps the signal path out of
# line. It has its own ELF (the one qemu/gdbinit loads) and build directory,
# so the test kernel stays as it is; the first `make debug` compiles core and
# alloc for it once. (User programs always carry -g: user/build.mk.)
debug: KERNEL = $(KERNEL_DIR)/sigil-stepping.elf
debug: KERNEL_BUILD = target/kernel-build/$(BOARD)-stepping
debug: STEPPING_ENV = SIGIL_STEPPING=1
debug: kernel runner user ## Start QEMU halted with a kernel built for stepping, waiting for gdb on :1234 (then: gdb-multiarch -x qemu/gdbinit)
	@echo "In another terminal: gdb-multiarch -x qemu/gdbinit   (docs/debugging.md)"
	@$(RUNNER) --board $(BOARD) --kernel $(KERNEL) \
	  $(if $(INIT),--bin-dir target/user --init $(INIT)) --timeout 86400 --qemu-flags "-s -S $(QEMU_FLAGS)" -- $(ARGS)

TRACE_NAME = $(notdir $(INIT))
# --docs-clock: the clocks docgen boots with (guest time in instructions, a
# fixed wall clock), so the t= values match docs/signals.md's.
trace: kernel runner user ## Boot INIT with trace=signal; print the trace and draw target/trace/<name>.svg
	@test -n "$(INIT)" || { echo "make trace needs INIT=<program>, e.g. INIT=target/user/sig_demo"; exit 2; }
	@mkdir -p target/trace
	@$(RUNNER) --board $(BOARD) --kernel $(KERNEL) --bin-dir target/user --init $(INIT) --quiet --docs-clock \
	  --append "$(strip trace=signal $(BOOT))" $(if $(QEMU_FLAGS),--qemu-flags "$(QEMU_FLAGS)") \
	  --output target/trace/$(TRACE_NAME).log -- $(ARGS); status=$$?; echo; \
	  $(HOST_BIN)/sigil-trace --title "$(TRACE_NAME) $(ARGS) on $(BOARD), trace=signal" \
	    --svg target/trace/$(TRACE_NAME).svg target/trace/$(TRACE_NAME).log && exit $$status

bench: kernel runner user ## The mailing-list experiments in guest instructions: table, target/bench/{results.json,instructions.svg}
	@$(HOST_BIN)/sigil-bench --board $(BOARD) --kernel $(KERNEL) --user-dir target/user $(BENCH_FLAGS)

# Linux 6.1 for g3beige from Debian's linux-source-6.1: tinyconfig plus
# qemu/linux/g3beige.config. build.sh installs what it misses, checks the
# options took, and rebuilds only when the fragment (or itself) changed:
# 6-15 minutes on 2 cores the first time.
LINUX := target/linux/vmlinux
linux: deps ## Build Linux 6.1 for g3beige (once; cached in target/linux)
	@bash qemu/linux/build.sh target/linux

# The Linux side first (one boot with KUAP on, one with nosmap), then
# make bench's Sigil side, then one table of both. Not part of make test:
# CI has no time for a Linux build.
bench-linux: kernel runner user linux ## make bench next to Linux 6.1 on the same QEMU machine: one table, target/bench/linux.json
	@test "$(BOARD)" = g3beige || { echo "bench-linux: Linux is built for g3beige only (BOARD=$(BOARD))"; exit 2; }
	@$(HOST_BIN)/sigil-bench --board $(BOARD) --kernel $(KERNEL) --user-dir target/user --linux $(LINUX) $(BENCH_FLAGS)

# Always on g3beige, the board the docs describe (qemu/src/docgen.rs says
# which parts are generated; qemu/tests/docs.rs fails while one is stale).
docs: runner user ## Rewrite the docs' generated parts (trace, gdb session, bench table and charts) from fresh runs
	@$(MAKE) --no-print-directory kernel BOARD=g3beige
	$(HOST_BIN)/sigil-docs $(if $(ONLY),--only $(ONLY))

# The labs (docs/labs/README.md). A lab's starting point is its start.patch,
# which takes a feature out of the kernel; `make lab` applies it to this
# checkout (and says so), `git checkout -- kernel` undoes it. The checks are
# the tests check_lab<N> of qemu/tests/labs.rs.
LAB_PATCH = docs/labs/$(N)/start.patch
lab: ## Apply docs/labs/N/start.patch: the tree becomes lab N's starting point
	@test -f "$(LAB_PATCH)" || { echo "make lab needs N=<lab number>: ls docs/labs (docs/labs/README.md)"; exit 2; }
	git apply $(LAB_PATCH)
	@echo "lab $(N): the tree is at the lab's starting point; read docs/labs/$(N)/README.md, then make lab-check N=$(N)"

lab-check: kernel runner user ## Run lab N's check (passes on the shipped tree and once the exercise is done)
	@test -f "$(LAB_PATCH)" || { echo "make lab-check needs N=<lab number>: ls docs/labs"; exit 2; }
	SIGIL_BOARD=$(BOARD) $(CARGO) test -q --profile host -p sigil-qemu --test labs -- --exact check_lab$(N)

clean: ## Remove build output
	rm -rf target
